"""Rounds: add the next heat or the final, publish its seating, close it once every report is filed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from foundation import effects
from foundation.commands import Refused
from tournament.models import (
    ROUND_STARTS_BEFORE,
    ROUND_STARTS_FROM,
    Player,
    Round,
    Seat,
    SeatingAudit,
    Tournament,
)
from tournament.round_state import attach_states, with_states
from tournament.services.shared import audit, locked


def create_round(tournament: Tournament, *, kind: str, starts_at: datetime | None = None) -> Round:
    """Add the next round (heats numbered in order; one final, after the heats)."""
    if kind not in Round.Kind.values:
        raise Refused(_("unknown round kind %(kind)s; a round is a heat or the final") % {"kind": repr(kind)}, field="kind")
    check_start(starts_at)
    with transaction.atomic():
        rounds = Round.objects.select_for_update().filter(tournament=tournament)
        if kind == Round.Kind.FINAL and rounds.filter(kind=Round.Kind.FINAL).exists():
            raise Refused(_("this tournament already has a final"), field="kind")
        number = (rounds.aggregate(n=Max("number"))["n"] or 0) + 1
        return Round.objects.create(tournament=tournament, number=number, kind=kind, starts_at=starts_at)


def check_start(starts_at: datetime | None) -> None:
    """Refuse a scheduled start outside 1990-2100 (ROUND_STARTS_FROM/BEFORE).

    Compares without converting to UTC, so a typed year 1 or 9999 with any offset is refused
    rather than overflowing.
    """
    if starts_at is None:
        return
    if starts_at.tzinfo is None or not ROUND_STARTS_FROM <= starts_at < ROUND_STARTS_BEFORE:
        raise Refused(
            _("the start time %(isoformat)s is outside the years %(year)s to %(value)s; type the day and time the round starts") % {"isoformat": starts_at.isoformat(), "year": ROUND_STARTS_FROM.year, "value": ROUND_STARTS_BEFORE.year - 1},
            field="starts_at",
        )


def seats_without_faction(round_: Round) -> list[dict[str, Any]]:
    """Tables with seats that have no faction yet, in table order: each with the players'
    names and the cards they were dealt (LoLV keeps one of two before play)."""
    missing: dict[int, list[dict[str, Any]]] = {}
    for number, player_id, name, dealt in (
        Seat.objects.filter(round=round_, faction="")
        .order_by("table__number", "seat")
        .values_list("table__number", "player_id", "player__name", "dealt")
    ):
        missing.setdefault(number, []).append({"id": player_id, "name": name, "dealt": list(dealt or ())})
    return [{"table": number, "players": players} for number, players in missing.items()]


def refuse_seats_without_faction(round_: Round) -> None:
    """A seating is published only once every seat has a faction: a table cannot start its
    game otherwise (its setup names every seat's faction). Raises Refused (409) naming the
    tables and players still without one."""
    missing = seats_without_faction(round_)
    if not missing:
        return
    listed = "; ".join(
        _("table %(number)s: %(names)s") % {"number": t["table"], "names": ", ".join(p["name"] for p in t["players"])}
        for t in missing
    )
    count = sum(len(t["players"]) for t in missing)
    raise Refused(
        ngettext(
            "%(count)s player has no faction yet (%(listed)s); record the faction of every seat, then publish",
            "%(count)s players have no faction yet (%(listed)s); record the faction of every seat, then publish",
            count,
        ) % {"count": count, "listed": listed},
        field="factions",
        rule="every seat has its faction before the games start",
        status=409,
        extra={"missing": missing},
    )


def publish_round(round_: Round, *, user: Any) -> Round:
    """Publish the seating: players see their tables; later changes need a reason."""
    with transaction.atomic():
        round_ = locked(round_)
        if not round_.tables.exists():
            raise Refused(_("%(round)s has no seating to publish yet") % {"round": round_}, field="round")
        if round_.state != Round.State.PLANNED:
            raise Refused(_("%(round)s is already published") % {"round": round_}, field="round", status=409)
        refuse_seats_without_faction(round_)
        round_.state = Round.State.PUBLISHED
        round_.published_at = timezone.now()
        round_.save(update_fields=["state", "published_at"])
        audit(round_, SeatingAudit.Action.PUBLISH, user=user)
        effects.cause(effects.ROUND_PUBLISHED, round_id=round_.pk)
    return round_


def finish_round(round_: Round, *, user: Any) -> Round:
    """Close a published round once every table's game report is filed.

    A finished round is history: its reports are what scoring reads (a head judge can still
    reopen a report with a reason). Raises Refused naming the tables still without a report.
    """
    with transaction.atomic():
        round_ = locked(round_)
        if round_.state != Round.State.PUBLISHED:
            raise Refused(
                _("%(round)s is %(lower)s: only a published round can be closed") % {"round": round_, "lower": round_.get_state_display().lower()},
                field="round",
                status=409,
            )
        open_tables = list(
            round_.tables.filter(report_filed_at=None).order_by("number").values_list("number", flat=True)
        )
        if open_tables:
            listed = ", ".join(str(n) for n in open_tables)
            raise Refused(
                _("table(s) %(listed)s of %(round)s have no filed game report yet (LoLV 4.01.07: every game ends with its report)") % {"listed": listed, "round": round_},
                field="round",
                rule="4.01.07",
            )
        round_.state = Round.State.FINISHED
        round_.save(update_fields=["state"])
        audit(round_, SeatingAudit.Action.FINISH, user=user)
        effects.cause(effects.ROUND_CLOSED, round_id=round_.pk)
    return round_


@dataclass(frozen=True)
class Presence:
    """How many players a round counts, and how: until its seating is published, the active
    players checked in for it; from then on, the players it seated (a published round is
    history: players who drop out later, or a final seated from the finalists, who do not
    check in, leave its count as it was played)."""

    count: int
    seated: bool

    @property
    def label(self) -> str:
        """What the number counts, after it ("checked in", "seated")."""
        return _("seated") if self.seated else _("checked in")

    @property
    def words(self) -> str:
        """The count in words: "43 players checked in", "44 players seated"."""
        if self.seated:
            return ngettext("%(count)d player seated", "%(count)d players seated", self.count) % {"count": self.count}
        return ngettext("%(count)d player checked in", "%(count)d players checked in", self.count) % {
            "count": self.count
        }


def _with_presence(rounds: QuerySet[Round]) -> list[Round]:
    """The rounds with their state (`.current`), `table_count` and `presence` (and `present`,
    its count), in two queries."""
    annotated = attach_states(
        list(
            with_states(rounds).annotate(
                active_checkins=Count(
                    "checkins", filter=Q(checkins__player__status=Player.Status.ACTIVE), distinct=True
                ),
                seated_players=Count("seats", distinct=True),
                table_count=Count("tables", distinct=True),
            )
        )
    )
    for r in annotated:
        seated = not r.current.open_for_check_in
        r.presence = Presence(r.seated_players if seated else r.active_checkins, seated)
        r.present = r.presence.count
    return annotated


def rounds_with_presence(tournament: Tournament) -> list[Round]:
    """The tournament's rounds in order, each with its state (`.current`), `table_count` and
    `presence`/`present`: how many players the round counts (`Presence`)."""
    return _with_presence(tournament.rounds.order_by("number"))


def presence(round_: Round) -> Presence:
    """How many players one round counts (`Presence`): the number every page gives for it."""
    [annotated] = _with_presence(Round.objects.filter(pk=round_.pk))
    presence_: Presence = annotated.presence
    return presence_
