"""No-shows: a player who does not come to a round.

A no-show is not a dropout: the player stays in the tournament, may play the next round, and no
page says they are disqualified. Marking one takes them off their table (or the waiting list)
if the round is seated and the table's game has not begun, with the reason in the seating's
audit; the table may then be smaller than the format plays, and the answer says so with the
options in words. A latecomer is seated at the shortest table first (`add_latecomer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dune.seating import SeatingUserError
from dune.seating_changes import take_off_table
from foundation.commands import Refused
from tournament import seating_adapter as adapter
from tournament.models import CheckIn, NoShow, Player, Round, Seat, SeatingAudit
from tournament.services.heats import refuse_changes_to_frozen_tables
from tournament.services.shared import audit, from_planner, locked


@dataclass(frozen=True)
class Marked:
    """A no-show recorded: the table they were taken off (None: they were not seated), and
    what the head judge should know about that table now ("" when nothing)."""

    no_show: NoShow
    table_number: int | None
    warning: str


def no_show_ids(round_: Round) -> list[int]:
    """The players marked no-shows for the round, in the order they were marked."""
    return list(NoShow.objects.filter(round=round_).values_list("player_id", flat=True))


def short_table_words(round_: Round, number: int, players: int) -> str:
    """What a table left with `players` means under the format's table sizes, with the options
    in words ("" when the table is still of a size the format plays)."""
    rules = round_.tournament.rules
    sizes = sorted(rules.table_sizes)
    if players >= sizes[0]:
        return ""
    said_sizes = _(" or ").join(str(n) for n in sizes)
    return ngettext(
        "Table %(number)d now has %(players)d player; the format plays tables of %(sizes)s players (%(rule)s).",
        "Table %(number)d now has %(players)d players; the format plays tables of %(sizes)s players (%(rule)s).",
        players,
    ) % {"number": number, "players": players, "sizes": said_sizes, "rule": rules.table_sizes_rule} + " " + _(
        "Options: seat a latecomer there (latecomers go to the shortest table first), swap in a player "
        "from a table of %(largest)d whose game has not begun, or replace the seating with a new draw "
        "(with a reason)."
    ) % {"largest": sizes[-1]}


def _take_off(round_: Round, player: Player) -> tuple[int | None, str]:
    """Take the player off their table or the waiting list, if the round seated them (inside
    the round's lock); answers the table's number and what that leaves it, in words."""
    number = Seat.objects.filter(round=round_, player=player).values_list("table__number", flat=True).first()
    if number is None and player.pk not in (round_.waiting or ()):
        return None, ""
    try:
        plan = take_off_table(adapter.plan_for(round_), player.pk)
    except (SeatingUserError, ValueError) as error:
        raise from_planner(error, field_name="player") from error
    refuse_changes_to_frozen_tables(round_, plan.tables)
    adapter.save_plan(round_, plan)
    if number is None:
        return None, ""
    left = next(len(t.seats) for t in plan.tables if t.number == number)
    return number, short_table_words(round_, number, left)


def mark_no_show(round_: Round, player: Player, *, reason: str, user: Any) -> Marked:
    """Mark `player` a no-show for `round_` and take them off their table, in one transaction.

    Raises Refused: no reason (field reason); a player of another tournament, or one no longer
    active (field player); a round the head judge closed, or a final (its absent finalists are
    replaced by alternates when it is seated; field round); a no-show already marked, or a table
    whose game record has begun or whose report is filed (409).
    """
    reason = (reason or "").strip()
    if not reason:
        raise Refused(_("give a reason for the no-show (it goes in the seating's history)"), field="reason")
    if player.tournament_id != round_.tournament_id:
        raise Refused(_("%(name)s is not registered in this tournament") % {"name": player.name}, field="player")
    if player.status != Player.Status.ACTIVE:
        raise Refused(
            _("%(name)s is no longer in the tournament (%(status)s): a no-show is for a player still in it")
            % {"name": player.name, "status": player.get_status_display().lower()},
            field="player",
        )
    with transaction.atomic():
        round_ = locked(round_)
        if round_.state == Round.State.FINISHED:
            raise Refused(_("%(round)s is closed") % {"round": round_.label}, field="round", status=409)
        if round_.kind == Round.Kind.FINAL:
            raise Refused(
                _("a finalist who does not come is replaced by an alternate when the final is seated"),
                field="round",
            )
        if NoShow.objects.filter(round=round_, player=player).exists():
            raise Refused(
                _("%(name)s is already a no-show for %(round)s") % {"name": player.name, "round": round_.label},
                field="player",
                status=409,
            )
        number, warning = _take_off(round_, player)
        CheckIn.objects.filter(round=round_, player=player).delete()
        try:
            with transaction.atomic():
                no_show = NoShow.objects.create(
                    round=round_, player=player, reason=reason, table_number=number,
                    by=user if getattr(user, "pk", None) else None,
                )
        except IntegrityError as error:  # marked meanwhile by another judge
            raise Refused(
                _("%(name)s is already a no-show for %(round)s") % {"name": player.name, "round": round_.label},
                field="player",
                status=409,
            ) from error
        audit(round_, SeatingAudit.Action.NO_SHOW, user=user, reason=reason, player=player.pk, table=number)
    return Marked(no_show=no_show, table_number=number, warning=warning)


def clear_no_show(round_: Round, player: Player, *, user: Any) -> None:
    """Take back a no-show (the player came after all: seat them as a latecomer).

    Raises Refused (404) when the player is not a no-show for the round."""
    with transaction.atomic():
        deleted, _rows = NoShow.objects.filter(round=round_, player=player).delete()
        if not deleted:
            raise Refused(
                _("%(name)s is not a no-show for %(round)s") % {"name": player.name, "round": round_.label},
                field="player",
                status=404,
            )
        audit(round_, SeatingAudit.Action.NO_SHOW, user=user, reason=_("no-show taken back"), player=player.pk, cleared=True)

