"""The order of the shipment and movement phase (sixth edition, `editions.ordered`).

The factions ship and move one after the other in storm order, each its shipment first and
then its movement (LoLV 1.06.01, AH IX.C, WBC IX.1); only the Guild may take its turn out of
that order (AH IX.C.a; LoLV 2.06.12, an Advanced ability, 2.06.00), and then only between two
other factions' whole turns. A faction whose turn is over, or which comes before a faction that
has begun its turn, has had it (it acted or passed): a shipment or move of its own later is
refused, citing the table's own ruleset. One shipment a turn, before the movement (AH
IX.C.1.a, LoLV 1.06.02).

Not a turn of one's own: the Bene Gesserit's token sent along with another faction's
shipment (a spiritual advisor: AH IX.C.1.e, LoLV 2.02.05, 2.02.11, WBC XV.14-15), a worm ride,
an Ambassador's move, the tanks at the end of an action. The position keeps who has had its
turn this phase (`Position.acted`) and where each faction shipped (`Position.shipments`).
"""

from __future__ import annotations

from typing import Any

from dune.engine.board import POLAR_SINK, TERRITORIES
from dune.engine.checks import need_faction, need_phase, refuse
from dune.engine.editions import advanced, ordered
from dune.engine.events import OrderCardPlayed
from dune.engine.factions import BENE_GESSERIT, GUILD
from dune.engine.losses import Loss, action_over
from dune.engine.names import faction_name, join_names, place_name
from dune.engine.phases import BATTLE, MENTAT_PAUSE, SETUP, SHIPMENT_MOVEMENT
from dune.engine.position import Position
from dune.engine.storm import played_order


def out_of_turn(pos: Position, faction: str) -> bool:
    """Whether `faction` may take its turn out of storm order: the Guild, where the ruleset
    gives it that ability (AH IX.C.a, WBC IX.1 with AH; LoLV 2.06.12 in the Advanced game),
    unless a Karama card forced it into order this phase (WBC Player Aid 19, LoLV 3.01.11.02)."""
    return (
        faction == GUILD
        and "guild_out_of_turn" in pos.ruleset.cite
        and advanced(pos)
        and "guild_in_order" not in pos.order_cards
    )


def _order(pos: Position) -> list[str]:
    return played_order(pos)


def _sappho_first(pos: Position, faction: str) -> None:
    """A faction that played Juice of Sappho to go first goes before everyone, the Guild
    included (LoLV 3.02.02.02): the Guild may not take its turn ahead of it."""
    first = pos.order_cards.get("first")
    if first is None or first == faction or first in pos.acted or pos.acting == first:
        return
    if out_of_turn(pos, faction):
        refuse(
            pos,
            "sappho_first",
            f"{faction_name(first)} played Juice of Sappho to ship and move first, even before "
            f"{faction_name(faction)}",
            faction,
            field="faction",
        )


def _turn_begins(pos: Position, faction: str) -> frozenset[str]:
    """Who has had its turn once `faction` begins its own: the faction acting before it, and
    every faction before it in storm order that had not acted (they passed), but the Guild
    where it may wait. Refused when `faction` has had its turn."""
    if faction in pos.acted:
        order = _order(pos)
        took = {f for f, _via in pos.moves} | set(pos.shipments) | {pos.acting}
        after = (
            [faction_name(f) for f in order[order.index(faction) + 1 :] if f in took]
            if faction in order
            else []
        )
        last = pos.order_cards.get("last")
        if faction not in took and last in took and out_of_turn(pos, faction):
            refuse(
                pos,
                "sappho_last",
                f"{faction_name(last or '')} played Juice of Sappho to go last, even after {faction_name(faction)}, "
                f"and has begun: {faction_name(faction)}'s turn is over",
                faction,
                field="faction",
            )
        refuse(pos, "storm_order_turn", _turn_over(faction_name(faction), faction in took or not after, after), faction,
               field="faction")
    _sappho_first(pos, faction)
    done = set(pos.acted)
    if pos.acting is not None:
        done.add(pos.acting)
    order = _order(pos)
    if pos.order_cards.get("last") == faction:
        # Last even after the Guild (LoLV 3.02.02.03): every other turn is over.
        done.update(f for f in order if f != faction)
    elif not out_of_turn(pos, faction) and faction in order:
        done.update(f for f in order[: order.index(faction)] if not out_of_turn(pos, f))
    return frozenset(done)


def take_turn(pos: Position, faction: str) -> tuple[list[Loss], dict[str, Any]]:
    """A shipment or move by `faction`: the action of the faction that acted before it is over
    (LoLV 1.06.01, 1.06.06); from the sixth edition it must be `faction`'s turn. Returns what the
    end of the earlier action removes and the position's changes (`acting`, `acted`)."""
    if pos.phase != SHIPMENT_MOVEMENT:
        return [], {"acting": pos.acting}
    if pos.acting == faction:
        return [], {"acting": faction}
    changes: dict[str, Any] = {"acting": faction}
    if ordered(pos):
        changes["acted"] = _turn_begins(pos, faction)
    if pos.acting is None:
        return [], changes
    return action_over(pos), changes


def turn_passed(pos: Position, faction: str) -> dict[str, Any]:
    """`action_ended`: `faction`'s turn is over (it acted, or passes); from the sixth edition the
    factions before it in storm order have had theirs too."""
    if not ordered(pos) or (faction in pos.acted and pos.acting is None):
        return {}
    return {"acted": _turn_begins(pos, faction) | {faction}}


def shipment(pos: Position, faction: str, where: str) -> dict[str, Any]:
    """Sixth edition: `faction`'s one shipment of the turn (`where` it goes; a later event to the
    same place continues it), made before its movement (AH IX.C.1.a, LoLV 1.06.01-02)."""
    if not ordered(pos) or pos.phase != SHIPMENT_MOVEMENT:
        return {}
    if (faction, "move") in pos.moves:
        refuse(
            pos,
            "ship_then_move",
            f"{faction_name(faction)} has already moved this phase: a faction ships first, then moves",
            faction,
            field="faction",
        )
    made = pos.shipments.get(faction)
    if made is not None and made != where:
        refuse(
            pos,
            "one_shipment",
            _one_shipment(faction_name(faction), made),
            where,
        )
    if made == where:
        return {}
    return {"shipments": {**pos.shipments, faction: where}}


def next_to_ship(pos: Position) -> str | None:
    """The faction whose turn to ship comes next in storm order (LoLV 1.06.01, AH IX.C): the
    first after every faction that has begun or had its turn this phase, that has not begun
    its own; None outside the shipment and movement phase or when every turn has begun."""
    if pos.phase != SHIPMENT_MOVEMENT:
        return None
    order = _order(pos)
    begun = set(pos.acted) | set(pos.shipments) | {f for f, _via in pos.moves}
    if pos.acting is not None:
        begun.add(pos.acting)
    last = max((order.index(f) for f in begun if f in order), default=-1)
    return next((f for f in order[last + 1:] if f not in begun), None)


def _turn_over(who: str, took: bool, after: list[str]) -> str:
    """Why `who`, not the Guild, cannot ship and move now: it `took` its turn, or the factions
    `after` it in storm order have begun."""
    if took:
        return f"{who} has already had its turn to ship and move this phase; only the Guild may go out of turn"
    if len(after) == 1:
        return (
            f"{who} ships and moves before {join_names(after)} in storm order, and {join_names(after)} has begun: "
            f"{who}'s turn is over; only the Guild may go out of turn"
        )
    return (
        f"{who} ships and moves before {join_names(after)} in storm order, and {join_names(after)} have begun: "
        f"{who}'s turn is over; only the Guild may go out of turn"
    )


def _one_shipment(who: str, made: str) -> str:
    """Why `who`, having shipped (`made`: `to:<territory>`, `cross_ship:<from>><to>` or
    `<from>`, back to reserves), ships no more this turn."""
    kind, _, rest = made.partition(":")
    if kind == "to":
        return f"{who} has already made its one shipment of the turn (to {place_name(rest)})"
    if kind == "cross_ship":
        a, _, b = rest.partition(">")
        return f"{who} has already made its one shipment of the turn (from {place_name(a)} to {place_name(b)})"
    return f"{who} has already made its one shipment of the turn (from {place_name(rest)} back to reserves)"


def piece_key(territory: str, sector: int | None) -> str:
    return territory if sector is None else f"{territory}@{sector}"


def accompanies(pos: Position, faction: str, territory: str, fighters: int, advisors: int) -> bool:
    """Sixth edition: a Bene Gesserit token sent along with the shipment another faction has
    just made from off-planet (`Position.shipped`), one token, to the Polar Sink or into the
    territory shipped to (AH IX.C.1.e, WBC XV.14-15; LoLV 2.02.05, 2.02.11): not a shipment of
    the BG's own, so not its turn."""
    followed = pos.shipped
    if (
        faction != BENE_GESSERIT
        or fighters + advisors != 1
        or followed is None
        or followed[0] != pos.turn
        or followed[1] != pos.acting
    ):
        return False
    if "spiritual_advisor" in pos.ruleset.cite:
        # LoLV: a fighter to the Polar Sink (2.02.05) or, in its place, an advisor where the
        # shipment landed (2.02.11); a fighter there is a shipment of the BG's own (2.02.13).
        return territory == POLAR_SINK if fighters else territory == followed[2]
    return territory == POLAR_SINK or territory == followed[2]


def apply_order_card(pos: Position, ev: OrderCardPlayed) -> dict[str, Any]:
    """Juice of Sappho puts a faction first or last in storm order for the phase, even before
    or after the Guild (LoLV 3.02.02.02-03), or makes it the aggressor in one battle
    (3.02.02.01); a Karama card forces the Guild to take its shipment and movement turn in
    storm order (WBC Player Aid 19; LoLV 3.01.11.02 with 2.06.12). The game's own rules are cited
    for a card its deck does not hold or a place the phase no longer has."""
    need_faction(pos, ev.faction)
    if ev.order_card == "karama":
        return {"order_cards": {**pos.order_cards, **_guild_in_order(pos, ev)}}
    if "sappho_first" not in pos.ruleset.cite:
        refuse(
            pos,
            "juice_of_sappho",
            f"{pos.ruleset.name} plays no Juice of Sappho card",
            ev.order_card,
            field="order_card",
        )
    if ev.place == "guild_in_order":
        refuse(
            pos,
            "juice_of_sappho",
            "Juice of Sappho puts its player first or last, or makes it the aggressor",
            ev.place,
            field="place",
        )
    if ev.place == "aggressor":
        return {"order_cards": {**pos.order_cards, **_sappho_aggressor(pos, ev)}}
    if ev.territory is not None:
        refuse(
            pos,
            "juice_of_sappho",
            "only the aggressor's place names a territory",
            ev.territory,
            field="territory",
        )
    _sappho_place(pos, ev.faction, ev.place)
    return {"order_cards": {**pos.order_cards, ev.place: ev.faction}}


def _sappho_place(pos: Position, faction: str, place: str) -> None:
    rule = "sappho_first" if place == "first" else "sappho_last"
    if pos.setup is None or pos.phase in (SETUP, MENTAT_PAUSE):
        refuse(
            pos,
            rule,
            "Juice of Sappho changes the order of a phase played in storm order",
            pos.phase,
            field="place",
        )
    held = pos.order_cards.get(place)
    if held is not None:
        refuse(pos, rule, f"{faction_name(held)} already goes {place} this phase", place, field="place")
    if pos.phase != SHIPMENT_MOVEMENT:
        return
    if place == "first" and (pos.acted or pos.acting is not None):
        begun = join_names(
            [faction_name(f) for f in sorted(pos.acted | ({pos.acting} if pos.acting else set()))]
        )
        refuse(
            pos,
            rule,
            f"{begun} has already begun to ship and move: nobody can go first now",
            place,
            field="place",
        )
    if place == "last" and (faction in pos.acted or pos.acting == faction):
        refuse(
            pos,
            rule,
            f"{faction_name(faction)} has already had its turn to ship and move",
            place,
            field="place",
        )


def _sappho_aggressor(pos: Position, ev: OrderCardPlayed) -> dict[str, str]:
    if pos.phase != BATTLE:
        refuse(
            pos,
            "sappho_aggressor",
            "Juice of Sappho makes its player the aggressor in the battle phase",
            pos.phase,
            field="place",
        )
    if ev.territory is None or ev.territory not in TERRITORIES:
        refuse(
            pos,
            "sappho_aggressor",
            "the aggressor's place names the battle's territory",
            ev.territory,
            field="territory",
        )
    return {f"aggressor@{ev.territory}": ev.faction}


def _guild_in_order(pos: Position, ev: OrderCardPlayed) -> dict[str, str]:
    """WBC Player Aid 19: in the movement round, before the faction after the Guild in storm
    order has begun its turn; LoLV 3.01.11.02: before the Guild uses Ship As It Pleases You
    (2.06.12, an Advanced ability, 2.06.00)."""
    if ev.place != "guild_in_order" or ev.territory is not None:
        refuse(
            pos,
            "karama_guild_order",
            "a Karama card here forces the Guild into storm order",
            ev.place,
            field="place",
        )
    need_phase(pos, (SHIPMENT_MOVEMENT,), "karama_guild_order", "the Guild is forced into storm order")
    if GUILD not in pos.playing:
        refuse(pos, "karama_guild_order", "the Guild does not play in this game", GUILD, field="place")
    if "guild_in_order" in pos.order_cards:
        refuse(
            pos,
            "karama_guild_order",
            "the Guild is already forced into storm order this phase",
            ev.place,
            field="place",
        )
    if not out_of_turn(pos, GUILD):
        refuse(
            pos,
            "guild_advanced",
            "the Guild has no ability to go out of turn in this game",
            ev.place,
            field="place",
        )
    if GUILD in pos.acted or pos.acting == GUILD:
        refuse(
            pos,
            "karama_guild_order",
            "the Guild has already had its turn to ship and move",
            ev.place,
            field="place",
        )
    order = _order(pos)
    later = order[order.index(GUILD) + 1 :] if GUILD in order else []
    begun = [f for f in later if f in pos.acted or f == pos.acting]
    if begun:
        refuse(
            pos,
            "karama_guild_order",
            f"{faction_name(begun[0])}, after the Guild in storm order, has begun its turn",
            ev.place,
            field="place",
        )
    return {"guild_in_order": ev.faction}
