"""Changes to a round's seating after the draw, and the final's seating and faction picks.

Pure Python (no Django, no clock); every function answers a new plan, revalidated, and
leaves its input as it was. Refusals name players by the display names the plan carries
(``SeatingRequest.names``, ``FinalPlan.names``) and factions by their display names. Rules:

- WBC 2018 house rules: drawn factions may be traded by mutual consent before play begins; at
  a table of fewer than six a player may trade for an undrawn faction if everyone consents.
- LoLV 0.08: each player keeps one of the two alliance cards dealt and returns the other.
- WBC 2018 format: games begin within 15 minutes of the scheduled start; latecomers may be
  placed at tables of fewer than six, after that only at the head judge's discretion.
- The head judge may swap two players by hand; what that breaks is reported, not refused.
- WBC 2018 format, final round faction assignment: the first qualifier picks first, then the
  second from what is left, and so on; alternates fill empty seats in order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta

from dune.engine.ids import FACTIONS
from dune.engine.names import faction_name, factions_text
from dune.formats import Format, get_format
from dune.seating import (
    RULE_ONE_TABLE,
    DuplicatePlayer,
    PlannedSeat,
    PlannedTable,
    SeatingPlan,
    SeatingUserError,
    UnknownPlayer,
    assess,
    check_faction,
    check_format,
    check_player_ids,
    pair_weights,
    played_factions,
    player_name,
    players_text,
    replace_table,
    validate_tables,
)
from dune.seating_draw import FULL_TABLE, table_cost

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

__all__ = [
    "FinalPlan",
    "GRACE_PERIOD",
    "LatecomerRefused",
    "PickRefused",
    "TradeRefused",
    "available_final_factions",
    "next_final_picker",
    "record_final_pick",
    "record_lolv_choice",
    "seat_final",
    "seat_latecomer",
    "swap_players",
    "take_off_table",
    "take_undrawn_faction",
    "trade_factions",
]

RULE_FINAL = "WBC 2018 format (final round faction assignment)"
RULE_LATECOMER = "WBC 2018 format (15-minute grace period)"
#: Latecomers join without the head judge's override only this long after the start.
GRACE_PERIOD = timedelta(minutes=15)


class LatecomerRefused(SeatingUserError):
    """A latecomer cannot be placed without reseating or without the head judge's override."""


class TradeRefused(SeatingUserError):
    """A faction trade or choice the rules do not allow."""


class PickRefused(SeatingUserError):
    """A final-round faction pick out of turn or of a faction already taken."""


def _seat_of(plan: SeatingPlan, player: int) -> tuple[PlannedTable, PlannedSeat]:
    table = plan.table_of(player)
    return table, next(s for s in table.seats if s.player == player)


def _not_consented(missing: Iterable[int], names: Mapping[int, str], *, table: int | None = None) -> str:
    """Why a trade (`table` None) or the taking of an undrawn faction at `table` waits: ``...;
    Ann has not consented`` / ``...; Ann and Bob have not consented``."""
    ordered = sorted(missing)
    players = players_text(ordered, names)
    if table is None:
        if len(ordered) == 1:
            return f"a trade needs both players' consent; {players} has not consented"
        return f"a trade needs both players' consent; {players} have not consented"
    if len(ordered) == 1:
        return f"taking an undrawn faction needs every player at table {table} to consent; {players} has not consented"
    return f"taking an undrawn faction needs every player at table {table} to consent; {players} have not consented"


def _no_trades(fmt: Format) -> str:
    """Why a format has no faction trades, in words."""
    if fmt.deals_cards:
        return f"{fmt.name} players keep one of their two dealt cards; there are no trades"
    return f"this event's {fmt.name} format has no faction trades: players keep the faction they drew"


def _trading(plan: SeatingPlan, offending: object) -> Format:
    """The plan's format, which lets players trade factions. Raises TradeRefused, saying why,
    for a format without trades."""
    fmt = get_format(plan.format)
    if not fmt.faction_trades:
        raise TradeRefused(
            _no_trades(fmt),
            rule=fmt.rule_of("factions.trades") or fmt.faction_rule,
            offending=offending,
        )
    return fmt


def trade_factions(plan: SeatingPlan, first: int, second: int, *, consenting: Iterable[int]) -> SeatingPlan:
    """Swap the factions of two players at one WBC table who both consent.

    WBC 2018 house rules: drawn factions may be traded by mutual consent before play begins.
    Raises TradeRefused (LoLV plan, different tables, the same player twice, a player not
    consenting) and UnknownPlayer (a player without a seat).
    """
    rule = _trading(plan, (first, second)).faction_rule
    name = plan.request.name_of
    if first == second:
        raise TradeRefused(f"{name(first)} cannot trade with themselves", rule=rule, offending=first)
    table, a = _seat_of(plan, first)
    other_table, b = _seat_of(plan, second)
    if other_table.number != table.number:
        raise TradeRefused(
            f"{name(first)} (table {table.number}) and {name(second)} (table "
            f"{other_table.number}) are at different tables",
            rule=rule,
            offending=(first, second),
        )
    missing = {first, second} - set(consenting)
    if missing:
        raise TradeRefused(
            _not_consented(missing, plan.request.names),
            rule=rule,
            offending=sorted(missing),
            field="consenting",
        )
    seats = tuple(
        replace(s, faction=b.faction)
        if s.player == first
        else replace(s, faction=a.faction)
        if s.player == second
        else s
        for s in table.seats
    )
    return replace_table(plan, replace(table, seats=seats), "faction_traded")


def take_undrawn_faction(
    plan: SeatingPlan, player: int, faction: str, *, consenting: Iterable[int]
) -> SeatingPlan:
    """Give a player at a WBC table of fewer than six the undrawn ``faction``; theirs goes out.

    WBC 2018 house rules: at a table of fewer than six a player may trade for an undrawn
    faction if every player at the table consents. Raises ValueError (unknown faction),
    TradeRefused (LoLV plan, faction not undrawn at the table, a player not consenting),
    UnknownPlayer (no seat).
    """
    check_faction(faction)
    rule = _trading(plan, player).faction_rule
    table, seat = _seat_of(plan, player)
    if faction not in table.undrawn:
        raise TradeRefused(
            f"{faction_name(faction)} is not undrawn at table {table.number}; undrawn there: "
            f"{factions_text(table.undrawn, empty='none')}",
            rule=rule,
            offending=faction,
            field="faction",
        )
    missing = set(table.players) - set(consenting)
    if missing:
        raise TradeRefused(
            _not_consented(missing, plan.request.names, table=table.number),
            rule=rule,
            offending=sorted(missing),
            field="consenting",
        )
    assert seat.faction is not None
    undrawn = tuple(sorted(set(table.undrawn) - {faction} | {seat.faction}, key=FACTIONS.index))
    seats = tuple(replace(s, faction=faction) if s.player == player else s for s in table.seats)
    return replace_table(plan, replace(table, seats=seats, undrawn=undrawn), "faction_traded")


def record_lolv_choice(plan: SeatingPlan, player: int, faction: str) -> SeatingPlan:
    """Record which of the two dealt alliance cards a LoLV player keeps (LoLV 0.08).

    Raises TradeRefused (WBC plan, or a faction the player was not dealt, which covers an
    unknown or empty one: the refusal names the cards dealt), UnknownPlayer (no seat).
    """
    fmt = get_format(plan.format)
    if not fmt.deals_cards:
        raise TradeRefused(
            f"{fmt.name} factions are drawn, not chosen from dealt cards", rule=fmt.faction_rule, offending=player
        )
    table, seat = _seat_of(plan, player)
    if faction not in seat.dealt:
        raise TradeRefused(
            f"{plan.request.name_of(player)} (table {table.number}) was dealt "
            f"{factions_text(seat.dealt, empty='no cards')}; {faction_name(faction) or 'no card'} is not one of them",
            rule=fmt.faction_rule,
            offending=faction,
            field="faction",
        )
    seats = tuple(replace(s, faction=faction) if s.player == player else s for s in table.seats)
    return replace_table(plan, replace(table, seats=seats), "faction_chosen")


def seat_latecomer(
    plan: SeatingPlan,
    player: int,
    *,
    late_by: timedelta,
    override: bool = False,
    grace: timedelta = GRACE_PERIOD,
) -> SeatingPlan:
    """Add a latecomer to a table of fewer than six without moving anyone already seated.

    WBC 2018 format: games begin within 15 minutes of the scheduled start and the head judge
    may place latecomers at tables of fewer than six; after the grace period only at the head
    judge's discretion (``override=True``). The latecomer takes the next seat number (at a
    5-player table seat 6, on the empty dot in sector 1) and, at WBC, the undrawn faction; at
    LoLV the undealt classic and expansion cards. The smallest table is chosen, then the one
    where the latecomer has met fewest players or keep-apart requests, then the lowest number.
    Raises DuplicatePlayer (already seated or waiting), LatecomerRefused (past the grace period
    without override, or no table with a free seat).

    Long because choosing the table and the faction for the latecomer depend on each other and
    read best in one place.
    """
    name = plan.request.name_of(player)
    if player in plan.waiting or any(player in t.players for t in plan.tables):
        raise DuplicatePlayer(f"{name} already has a place in this round", rule=RULE_ONE_TABLE, offending=player)
    if late_by > grace and not override:
        minutes = int(late_by.total_seconds() // 60)
        raise LatecomerRefused(
            f"{name} arrived {minutes} minutes after the start, past the "
            f"{int(grace.total_seconds() // 60)}-minute grace period; only the head judge's override can seat them",
            rule=RULE_LATECOMER,
            offending=late_by,
        )
    largest = max(get_format(plan.request.format).table_sizes)
    open_tables = [t for t in plan.tables if len(t.seats) < largest]
    if not open_tables:
        raise LatecomerRefused(
            f"every table already has {_NUMBER_WORDS.get(largest, largest)} players; {name} cannot join without reseating",
            rule=RULE_LATECOMER,
            offending=player,
        )
    weights = pair_weights(plan.request)
    table = min(
        open_tables,
        key=lambda t: (
            len(t.seats),
            table_cost(list(t.players) + [player], weights) - table_cost(list(t.players), weights),
            t.number,
        ),
    )
    rules = get_format(plan.format)
    if not rules.deals_cards:  # WBC: the latecomer draws an undrawn faction
        before = played_factions(plan.request).get(player, frozenset())
        faction = next((f for f in table.undrawn if f not in before), table.undrawn[0])
        seat = PlannedSeat(player=player, seat=len(table.seats) + 1, faction=faction, dealt=(faction,))
        undrawn = tuple(f for f in table.undrawn if f != faction)
    else:
        classic_pool, expansion_pool = rules.heat_factions  # LoLV 0.08: one card of each
        classic = next(f for f in table.undrawn if f in classic_pool)
        expansion = next(f for f in table.undrawn if f in expansion_pool)
        seat = PlannedSeat(player=player, seat=len(table.seats) + 1, faction=None, dealt=(classic, expansion))
        undrawn = tuple(f for f in table.undrawn if f not in (classic, expansion))
    request = replace(plan.request, players=plan.request.players + (player,))
    flag = "latecomer_override" if late_by > grace else "latecomer_seated"
    grown = replace(plan, request=request)
    return replace_table(grown, replace(table, seats=table.seats + (seat,), undrawn=undrawn), flag)


def take_off_table(plan: SeatingPlan, player: int) -> SeatingPlan:
    """Take a player who did not come to the round off their table (or the waiting list).

    Everyone else keeps their table and faction; the seats after theirs close up so that seat
    numbers still run 1..n in seating order, and the faction held (WBC, traded or drawn) or the
    cards dealt (LoLV 0.08) go back among the table's undrawn ones, for a latecomer to draw. Whether the table
    is still of a size the format plays is the caller's to say (the table is left as it is).
    Raises UnknownPlayer for a player with no place in the round.
    """
    request = replace(plan.request, players=tuple(p for p in plan.request.players if p != player))
    if player in plan.waiting:
        waiting = tuple(p for p in plan.waiting if p != player)
        return assess(replace(plan, request=request, waiting=waiting))
    if not any(player in t.players for t in plan.tables):
        raise UnknownPlayer(
            f"{plan.request.name_of(player)} has no place in this round", rule=RULE_ONE_TABLE, offending=player
        )
    table, gone = _seat_of(plan, player)
    seats = tuple(
        replace(s, seat=number) for number, s in enumerate((s for s in table.seats if s.player != player), start=1)
    )
    held = gone.dealt if get_format(plan.format).deals_cards else (gone.faction,) if gone.faction else ()
    back = tuple(f for f in held if f not in table.undrawn)
    shorter = replace(table, seats=seats, undrawn=table.undrawn + back)
    return replace_table(replace(plan, request=request), shorter, "no_show_taken_off")


def swap_players(plan: SeatingPlan, first: int, second: int) -> SeatingPlan:
    """Exchange two players' places: each takes the other's table, seat number and faction.

    A waiting player may be swapped with a seated one. The plan is revalidated and its issues
    recomputed. Raises UnknownPlayer (a player not in the plan), SeatingUserError (the same
    player twice, both at the same table, or both waiting), PlayerInTwoTables (the plan was
    broken).
    """
    name, names = plan.request.name_of, plan.request.names
    if first == second:
        raise SeatingUserError(f"cannot swap {name(first)} with themselves", rule=RULE_ONE_TABLE, offending=first)
    where = {p: t.number for t in plan.tables for p in t.players}
    for p in (first, second):
        if p not in where and p not in plan.waiting:
            raise UnknownPlayer(f"{name(p)} is not part of this round", rule=RULE_ONE_TABLE, offending=p)
    if first not in where and second not in where:
        raise SeatingUserError(
            f"{players_text((first, second), names)} both wait; there is nothing to swap",
            rule=RULE_ONE_TABLE,
            offending=(first, second),
        )
    if first in where and where.get(first) == where.get(second):
        raise SeatingUserError(
            f"{players_text((first, second), names)} already share table {where[first]}",
            rule=RULE_ONE_TABLE,
            offending=(first, second),
        )
    other = {first: second, second: first}
    tables = tuple(
        replace(t, seats=tuple(replace(s, player=other.get(s.player, s.player)) for s in t.seats))
        for t in plan.tables
    )
    waiting = tuple(sorted(other.get(p, p) for p in plan.waiting))
    validate_tables(tables, names)
    flags = plan.flags if "manual_swap" in plan.flags else plan.flags + ("manual_swap",)
    return assess(replace(plan, tables=tables, waiting=waiting, flags=flags))


@dataclass(frozen=True)
class FinalPlan:
    """The final table: seats drawn at random, factions picked in qualifying order.

    ``pick_order`` lists the seated finalists in qualifying order, then the alternates who
    filled empty seats, in their order (WBC 2018 format, final round faction assignment).
    ``names`` maps player ids to display names for the messages, as
    :attr:`~dune.seating.SeatingRequest.names` does (never compared).
    """

    format: str | Format
    seed: int
    table: PlannedTable
    pick_order: tuple[int, ...]
    alternates_seated: tuple[int, ...] = ()
    picks: tuple[tuple[int, str], ...] = ()
    names: Mapping[int, str] = field(default_factory=dict, compare=False, repr=False)

    def name_of(self, player: int) -> str:
        """The player's display name (see :func:`~dune.seating.player_name`)."""
        return player_name(player, self.names)


def seat_final(
    finalists: Iterable[int],
    *,
    format: str | Format,
    seed: int,
    alternates: Iterable[int] = (),
    absent: Iterable[int] = (),
    size: int = FULL_TABLE,
    names: Mapping[int, str] | None = None,
) -> FinalPlan:
    """Seat the final: present finalists, then alternates in order into the empty seats.

    ``finalists`` and ``alternates`` come in qualifying order; ``absent`` are players who do
    not take their seat; ``names`` their display names for the messages (kept on the
    answer for the picks). The seating order is drawn from ``random.Random(seed)`` (LoLV 0.07;
    WBC house rules). Raises ValueError (unknown format, size outside 5..6), DuplicatePlayer
    (an id twice across finalists and alternates), SeatingUserError (fewer than ``size``
    players present).
    """
    check_format(format)
    if size not in (5, FULL_TABLE):
        raise ValueError(f"a final table has 5 or 6 seats, not {size!r}")
    finalists, alternates = list(finalists), list(alternates)
    names = dict(names or {})
    check_player_ids(finalists + alternates, rule=RULE_FINAL, names=names)
    gone = set(absent)
    present = [p for p in finalists if p not in gone][:size]
    filling = [p for p in alternates if p not in gone][: size - len(present)]
    order = present + filling
    if len(order) < size:
        raise SeatingUserError(
            f"the final has {size} seats but only {len(order)} finalists and alternates are present: "
            f"{players_text(order, names)}"
            if order
            else f"the final has {size} seats but no finalist or alternate is present",
            rule=RULE_FINAL,
            offending=order,
        )
    rng = random.Random(seed)
    seated = list(order)
    rng.shuffle(seated)
    seats = tuple(PlannedSeat(player=p, seat=i + 1, faction=None, dealt=()) for i, p in enumerate(seated))
    return FinalPlan(
        format=format,
        seed=seed,
        table=PlannedTable(number=1, seats=seats, flags=("final",)),
        pick_order=tuple(order),
        alternates_seated=tuple(filling),
        names=names,
    )


def _final_pool(final: FinalPlan) -> tuple[str, ...]:
    return get_format(final.format).final_factions


def next_final_picker(final: FinalPlan) -> int | None:
    """Answer the player whose turn it is to pick a faction, or None when all have picked."""
    done = len(final.picks)
    return final.pick_order[done] if done < len(final.pick_order) else None


def available_final_factions(final: FinalPlan) -> tuple[str, ...]:
    """Answer the factions still free for the next pick (WBC: classic six; LoLV: all twelve)."""
    taken = {f for _, f in final.picks}
    return tuple(f for f in _final_pool(final) if f not in taken)


def record_final_pick(final: FinalPlan, player: int, faction: str) -> FinalPlan:
    """Record the next finalist's faction pick, in qualifying order, no faction twice.

    WBC 2018 format: the first qualifier picks first, the second from what remains, and so on.
    Raises ValueError (unknown faction), PickRefused (not this player's turn, faction taken or
    not in the format's pool, all picks done).
    """
    check_faction(faction)
    expected = next_final_picker(final)
    if expected is None:
        raise PickRefused("every finalist has already picked", rule=RULE_FINAL, offending=player)
    if player != expected:
        raise PickRefused(
            f"it is {final.name_of(expected)}'s turn to pick, not {final.name_of(player)}'s",
            rule=RULE_FINAL,
            offending=player,
        )
    if faction not in available_final_factions(final):
        taken_by = next((p for p, f in final.picks if f == faction), None)
        why = (
            f"{final.name_of(taken_by)} already picked it"
            if taken_by is not None
            else f"it is not played in the {get_format(final.format).name} final"
        )
        raise PickRefused(
            f"{faction_name(faction)} cannot be picked: {why}; still free: "
            f"{factions_text(available_final_factions(final), empty='none')}",
            rule=RULE_FINAL,
            offending=faction,
            field="faction",
        )
    seats = tuple(replace(s, faction=faction) if s.player == player else s for s in final.table.seats)
    return replace(final, table=replace(final.table, seats=seats), picks=final.picks + ((player, faction),))
