"""The one adapter between the stored game reports and the pure ratings model.

A game is a filed report (heat or final, any tournament); its key is (first filing time,
report id), so a report reopened and filed again keeps its place in the order.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Min, Q, QuerySet
from django.db.models.functions import Coalesce

from dune.engine.ids import WINNING_KINDS
from dune.ratings.compute import Game, Seat
from scoring.models import GameReport, ReportEntry, ReportRevision
from tournament import people
from tournament.models import Player

#: (first filing time, report id): the order games are rated in.
GameKey = tuple[datetime, int]
WINNING = frozenset(kind.value for kind in WINNING_KINDS)


def _with_first_filing(reports: QuerySet[GameReport]) -> QuerySet[GameReport]:
    first = Min("revisions__at", filter=Q(revisions__action=ReportRevision.Action.FILED))
    return reports.annotate(first_filed=Coalesce(first, "filed_at"))


def after(key: GameKey | None) -> Q:
    """Rows whose (first filing, report) key is at or after `key` (everything for None)."""
    if key is None:
        return Q()
    at, report = key
    return Q(first_filed__gt=at) | Q(first_filed=at, pk__gte=report)


def key_of_report(report_id: int) -> GameKey | None:
    """The place of a report in the order, or None if it no longer exists."""
    row = _with_first_filing(GameReport.objects.filter(pk=report_id)).values_list("first_filed", "pk").first()
    return (row[0], row[1]) if row else None


def earliest_key(reports: Q) -> GameKey | None:
    """The place of the earliest report matching `reports` (None if none does)."""
    rows = _with_first_filing(GameReport.objects.filter(reports)).order_by("first_filed", "pk")
    row = rows.values_list("first_filed", "pk").first()
    return (row[0], row[1]) if row else None


def first_key_of_player(player_id: int) -> GameKey | None:
    """The place of the player's first filed game (None if they have none)."""
    reports = _with_first_filing(GameReport.objects.filter(entries__player_id=player_id))
    row = reports.order_by("first_filed", "pk").values_list("first_filed", "pk").first()
    return (row[0], row[1]) if row else None


def filed_games(since: GameKey | None) -> list[Game]:
    """Every filed game from `since` on, in order, with each seat's person and whether they won.

    Players who have no person yet (registered before people existed) are linked first, so
    every seat is a person. Two queries for the games, plus the linking when needed.
    """
    reports = (
        _with_first_filing(GameReport.objects.filter(state=GameReport.State.FILED))
        .filter(after(since))
        .order_by("first_filed", "pk")
        .values_list("pk", "first_filed")
    )
    order = {pk: (first, pk) for pk, first in reports}
    if not order:
        return []
    entries = list(
        ReportEntry.objects.filter(report_id__in=list(order))
        .order_by("report_id", "player_id")
        .values_list("report_id", "player_id", "player__person_id", "result")
    )
    unlinked = {player for _, player, person, _ in entries if person is None}
    if unlinked:
        people.link_players(list(Player.objects.filter(pk__in=unlinked)))
        persons = dict(Player.objects.filter(pk__in=unlinked).values_list("pk", "person_id"))
        entries = [(r, p, person if person is not None else persons[p], res) for r, p, person, res in entries]
    seats: dict[int, list[Seat]] = {pk: [] for pk in order}
    for report, _, person, result in entries:
        seats[report].append(Seat(who=person, won=result in WINNING))
    return [Game(key=order[pk], seats=tuple(seats[pk])) for pk in order]


def history_before(since: GameKey) -> Any:
    """A filter of stored history rows strictly before `since`."""
    at, report = since
    return Q(filed_at__lt=at) | Q(filed_at=at, report_id__lt=report)
