"""Seating a heat and changing it: draw, reseat, swap, seat a latecomer, faction trades and cards.

A table whose game record has begun, or whose report is filed, keeps its seats and factions:
every change is checked against those tables before anything is written.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from dune.seating import (
    PlannedTable,
    SeatingPlan,
    SeatingUserError,
    plan_seating,
    small_table_options,
)
from dune.seating_changes import (
    record_lolv_choice,
    seat_latecomer,
    swap_players,
    take_undrawn_faction,
    trade_factions,
)
from foundation.commands import Refused
from tournament import seating_adapter as adapter
from tournament.models import CheckIn, NoShow, Player, Round, Seat, SeatingAudit, Table
from tournament.services.players import checked_in_ids, names_of, player_ids
from tournament.services.shared import audit, from_planner, locked, require_reason

RULE_CHECK_IN = "each heat is seated from the players checked in for it (WBC 2018 format)"


def seat_round(
    round_: Round,
    *,
    user: Any,
    seed: int | None = None,
    players: Sequence[Any] | None = None,
    small_tables: str | None = None,
    reason: str = "",
) -> SeatingPlan:
    """Seat a heat (or replace its seating) from ``players`` (default: those checked in).

    Refuses: replacing a published seating without a reason, nobody to seat, unknown or
    inactive players, a count that does not split (409 with the options) unless
    ``small_tables`` names one of them.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise Refused(_("seed must be a non-negative integer, got %(seed)s") % {"seed": repr(seed)}, field="seed")
    with transaction.atomic():
        round_ = locked(round_)
        if round_.kind == Round.Kind.FINAL:
            raise Refused(_("a final is seated from the finalists: use the final seating"), field="kind")
        require_reason(round_, reason, "replace it")
        ids = players_to_seat(round_, players)
        offered = [o.key for o in small_table_options(len(ids), round_.tournament.rules.table_sizes)]
        if small_tables and small_tables not in offered:
            raise Refused(
                _("%(small_tables)s is not an option for %(value)s players; options: %(value2)s") % {"small_tables": repr(small_tables), "value": len(ids), "value2": offered or 'none needed'},
                field="small_tables",
                rule=round_.tournament.rules.table_sizes_rule,
            )
        chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
        request = adapter.request_for(
            round_, players=ids, seed=chosen_seed, small_tables=small_tables or None
        )
        try:
            plan = plan_seating(request)
        except (SeatingUserError, ValueError) as error:
            raise from_planner(error, field_name="players") from error
        action = SeatingAudit.Action.RESEAT if round_.tables.exists() else SeatingAudit.Action.SEAT
        refuse_changes_to_frozen_tables(round_, plan.tables)
        adapter.save_plan(round_, plan)
        audit(round_, action, user=user, reason=reason, players=len(ids), small_tables=small_tables or "")
    return plan


def players_to_seat(round_: Round, players: Sequence[Any] | None) -> list[int]:
    """The players a heat seats: those named (checked like any list of players), or everyone
    checked in; never a player a dropout disqualified (the format's dropout rule).

    Raises Refused naming the field and the players.
    """
    barred = set(
        Player.objects.filter(tournament_id=round_.tournament_id, disqualified=True).values_list("pk", flat=True)
    )
    if players is not None:
        ids = player_ids(round_, players)
        if barred & set(ids):
            raise Refused(
                _("players disqualified after a dropout cannot be seated: %(names_of)s") % {"names_of": names_of(sorted(barred & set(ids)))},
                field="players",
                rule=round_.tournament.rules.citations.get("dropouts", ""),
            )
    else:
        ids = [p for p in checked_in_ids(round_) if p not in barred]
    if not ids:
        raise Refused(_("nobody to seat: no player is checked in for %(round)s") % {"round": round_}, field="players", rule=RULE_CHECK_IN)
    return ids


def refuse_changes_to_frozen_tables(round_: Round, tables: Sequence[PlannedTable]) -> None:
    """A table whose game record has begun, or whose game report is filed, keeps its seats,
    players and factions: the record and the report name them, and neither is ever rewritten
    (DESIGN.md principle 2). Changing the seating of any other table stays possible. Call
    inside the round's lock.

    Raises Refused (409) naming the tables that are frozen.
    """
    current: dict[int, set[tuple[int, int, str]]] = {}
    for number, player, seat, faction in Seat.objects.filter(round=round_).values_list(
        "table__number", "player_id", "seat", "faction"
    ):
        current.setdefault(number, set()).add((player, seat, faction))
    if not current:
        return  # nothing seated yet, so no table has a game
    planned = {t.number: {(s.player, s.seat, s.faction or "") for s in t.seats} for t in tables}
    changed = {n for n in current.keys() | planned.keys() if current.get(n) != planned.get(n)}
    if not changed:
        return
    frozen = list(
        Table.objects.filter(round=round_, number__in=changed)
        .exclude(game_started_at=None, report_filed_at=None)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if frozen:
        listed = ", ".join(str(n) for n in frozen)
        raise Refused(
            _("table(s) %(listed)s of %(round)s already have a game record or a filed report; their seats and factions can no longer change (the record would not match the table)") % {"listed": listed, "round": round_},
            field="round",
            rule="game record",
            status=409,
        )


def change_plan(
    round_: Round, change: Any, *, user: Any, action: str, reason: str, need_reason: bool, **details: Any
) -> SeatingPlan:
    with transaction.atomic():
        round_ = locked(round_)
        if need_reason:
            require_reason(round_, reason, "change it")
        if not round_.tables.exists():
            raise Refused(_("%(round)s is not seated yet") % {"round": round_}, field="round")
        try:
            plan = change(adapter.plan_for(round_))
        except (SeatingUserError, ValueError) as error:
            raise from_planner(error, field_name="player") from error
        refuse_changes_to_frozen_tables(round_, plan.tables)
        adapter.save_plan(round_, plan)
        audit(round_, action, user=user, reason=reason, **details)
    return plan


def _change_factions(round_: Round, change: Any, *, user: Any, **details: Any) -> SeatingPlan:
    """`change_plan` for a change of factions the players agreed or chose: audited as a faction
    change, with no reason asked."""
    return change_plan(
        round_, change, user=user, action=SeatingAudit.Action.FACTION, reason="", need_reason=False, **details
    )


def swap(round_: Round, first: int, second: int, *, user: Any, reason: str = "") -> SeatingPlan:
    """Swap two players' places by hand (each takes the other's table, seat and faction)."""
    ids = player_ids(round_, [first, second], "player")
    return change_plan(
        round_,
        lambda plan: swap_players(plan, ids[0], ids[1]),
        user=user,
        action=SeatingAudit.Action.SWAP,
        reason=reason,
        need_reason=True,
        players=ids,
    )


def add_latecomer(
    round_: Round,
    player: Player,
    *,
    user: Any,
    override: bool = False,
    reason: str = "",
    now: datetime | None = None,
) -> SeatingPlan:
    """Seat a latecomer at a table of fewer than six (WBC: within 15 minutes; later by override with a reason)."""
    player_ids(round_, [player.pk], "player")
    if override and not reason.strip():
        raise Refused(
            _("seating a latecomer after the grace period needs a reason"),
            field="reason",
            rule="WBC 2018 format (15-minute grace period)",
        )
    start = round_.starts_at or round_.published_at
    late_by = max((now or timezone.now()) - start, timedelta(0)) if start else timedelta(0)

    def change(plan: SeatingPlan) -> SeatingPlan:
        return seat_latecomer(plan, player.pk, late_by=late_by, override=override)

    with transaction.atomic():
        result = change_plan(
            round_,
            change,
            user=user,
            action=SeatingAudit.Action.LATECOMER,
            reason=reason,
            need_reason=False,
            player=player.pk,
            late_minutes=int(late_by.total_seconds() // 60),
            override=override,
        )
        CheckIn.objects.get_or_create(round=round_, player=player)
        NoShow.objects.filter(round=round_, player=player).delete()  # they came after all
    return result


def trade(round_: Round, first: int, second: int, *, consenting: Iterable[int], user: Any) -> SeatingPlan:
    """WBC: two players at one table trade factions by mutual consent.

    Raises Refused (the planner's, naming the players) for a player without consent, players
    at different tables, or a format without trades."""
    agreed = list(consenting)
    return _change_factions(
        round_, lambda plan: trade_factions(plan, first, second, consenting=agreed), user=user, trade=[first, second]
    )


def take_undrawn(
    round_: Round, player: int, faction: str, *, consenting: Iterable[int], user: Any
) -> SeatingPlan:
    """WBC: at a table of fewer than six, a player takes the undrawn faction if everyone consents."""
    agreed = list(consenting)
    return _change_factions(
        round_, lambda plan: take_undrawn_faction(plan, player, faction, consenting=agreed),
        user=user, player=player, faction=faction,
    )


def keep_card(
    round_: Round, player: int, faction: str, *, user: Any, table: Table | None = None
) -> SeatingPlan:
    """LoLV 0.08: record which dealt alliance card the player keeps; `table` when a table's
    page records it (its judge records only the players who sit there).

    Raises Refused (the planner's, naming the player and the cards) for a card not dealt to
    them, a player not seated in the round, or a player who sits at another table than `table`."""
    if table is not None and not Seat.objects.filter(table=table, player_id=player).exists():
        name = round_.tournament.players.filter(pk=player).values_list("name", flat=True).first()
        raise Refused(
            _("%(value)s does not sit at table %(number)s; the kept card is recorded at the player's own table (LoLV 0.08)") % {"value": name or 'this player', "number": table.number},
            field="player",
            rule="LoLV 0.08",
        )
    return _change_factions(
        round_, lambda plan: record_lolv_choice(plan, player, faction), user=user, player=player, faction=faction
    )
