"""Players confirming their table's filed result, or disputing it with a reason.

Each player seated at a table whose report is filed (and locked) may confirm it or dispute it
until the round is closed; a later word replaces their earlier one. A dispute changes nothing of
the report: the head judge's round page lists disputes and tables not yet confirmed, and only a
head judge reopens a report (`scoring.services.reopen_report`, which clears the table's
confirmations so the refiled result is confirmed afresh).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import GameReport, ResultConfirmation
from tournament.models import Player, Round, Seat, Table
from tournament.services import Refused

MAX_REASON = 2000


def confirm(player: Player, table: Table, *, agree: bool, reason: str) -> ResultConfirmation:
    """Record the player's word on the table's filed report.

    Raises Refused: a table they did not play (field table), no filed report yet or reopened
    (table), a closed round (table), a dispute without a reason or an overlong reason (reason).
    """
    reason = (reason or "").strip()
    if not Seat.objects.filter(table=table, player=player).exists():
        raise Refused(
            _("%(name)s did not play at %(round)s, table %(number)s; confirm only your own table's result")
            % {"name": player.name, "round": table.round.label, "number": table.number},
            field="table",
        )
    if table.round.state == Round.State.FINISHED:
        raise Refused(
            _("%(round)s is closed: its results can no longer be confirmed or disputed; speak to the head judge")
            % {"round": table.round.label},
            field="table",
        )
    if not agree and not reason:
        raise Refused(_("say why you dispute the result: a reason is required"), field="reason")
    if len(reason) > MAX_REASON:
        raise Refused(_("the reason has at most %(n)d characters") % {"n": MAX_REASON}, field="reason")
    with transaction.atomic():
        report = GameReport.objects.select_for_update().filter(table=table).first()
        if report is None or not report.locked:
            raise Refused(
                _("no result of table %(number)s is filed yet: there is nothing to confirm")
                % {"number": table.number},
                field="table",
            )
        confirmation, _created = ResultConfirmation.objects.update_or_create(
            report=report,
            player=player,
            defaults={"version": report.version, "agree": agree, "reason": reason},
        )
    return confirmation


@dataclass(frozen=True)
class TableWord:
    """One table's players' word on its filed report, for the head judge."""

    table: int
    number: int
    disputes: tuple[tuple[str, str], ...]  # (player name, reason)
    confirmed: tuple[str, ...]
    waiting: tuple[str, ...]  # players who have said nothing yet


def round_words(round_: Round) -> list[TableWord]:
    """Every filed table of the round with its disputes, confirmations and silent players."""
    reports = list(
        GameReport.objects.filter(table__round=round_, state=GameReport.State.FILED).select_related("table")
    )
    said: dict[int, dict[int, ResultConfirmation]] = {}
    for c in ResultConfirmation.objects.filter(report__in=reports).select_related("player"):
        said.setdefault(c.report_id, {})[c.player_id] = c
    seats: dict[int, list[tuple[int, str]]] = {}
    for table_id, player_id, name in (
        Seat.objects.filter(round=round_).order_by("seat").values_list("table_id", "player_id", "player__name")
    ):
        seats.setdefault(table_id, []).append((player_id, name))
    words = []
    for report in sorted(reports, key=lambda r: r.table.number):
        mine = said.get(report.pk, {})
        players = seats.get(report.table_id, [])
        words.append(
            TableWord(
                table=report.table_id,
                number=report.table.number,
                disputes=tuple((n, mine[p].reason) for p, n in players if p in mine and not mine[p].agree),
                confirmed=tuple(n for p, n in players if p in mine and mine[p].agree),
                waiting=tuple(n for p, n in players if p not in mine),
            )
        )
    return words


def player_words(player: Player) -> dict[int, ResultConfirmation]:
    """The player's confirmations by table id (filed reports only)."""
    return {
        c.report.table_id: c
        for c in ResultConfirmation.objects.filter(
            player=player, report__state=GameReport.State.FILED
        ).select_related("report")
    }
