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

from dune.engine.board import POLAR_SINK
from dune.engine.checks import refuse
from dune.engine.editions import advanced, ordered
from dune.engine.factions import BENE_GESSERIT, GUILD
from dune.engine.losses import Loss, action_over
from dune.engine.names import faction_name, join_names, place_name
from dune.engine.phases import SHIPMENT_MOVEMENT
from dune.engine.position import Position
from dune.engine.storm import storm_order


def out_of_turn(pos: Position, faction: str) -> bool:
    """Whether `faction` may take its turn out of storm order: the Guild, where the ruleset
    gives it that ability (AH IX.C.a, WBC IX.1 with AH; LoLV 2.06.12 in the Advanced game)."""
    return faction == GUILD and "guild_out_of_turn" in pos.ruleset.cite and advanced(pos)


def _order(pos: Position) -> list[str]:
    return storm_order(pos) or list(pos.factions)


def _turn_begins(pos: Position, faction: str) -> frozenset[str]:
    """Who has had its turn once `faction` begins its own: the faction acting before it, and
    every faction before it in storm order that had not acted (they passed), but the Guild
    where it may wait. Refused when `faction` has had its turn."""
    if faction in pos.acted:
        order = _order(pos)
        took = {f for f, _via in pos.moves} | set(pos.shipments) | {pos.acting}
        after = [faction_name(f) for f in order[order.index(faction) + 1 :] if f in took] if faction in order else []
        if faction in took or not after:
            why = f"{faction_name(faction)} has already had its turn to ship and move this phase"
        else:
            why = (
                f"{faction_name(faction)} ships and moves before {join_names(after)} in storm order, "
                f"and {join_names(after)} has begun: {faction_name(faction)}'s turn is over"
            )
        refuse(pos, "storm_order_turn", f"{why}; only the Guild may go out of turn", faction, field="faction")
    done = set(pos.acted)
    if pos.acting is not None:
        done.add(pos.acting)
    order = _order(pos)
    if not out_of_turn(pos, faction) and faction in order:
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
            f"{faction_name(faction)} has already made its one shipment of the turn ({_where_words(made)})",
            where,
        )
    if made == where:
        return {}
    return {"shipments": {**pos.shipments, faction: where}}


def _where_words(where: str) -> str:
    kind, _, rest = where.partition(":")
    if kind == "to":
        return f"to {place_name(rest)}"
    if kind == "cross_ship":
        a, _, b = rest.partition(">")
        return f"from {place_name(a)} to {place_name(b)}"
    return f"from {place_name(rest)} back to reserves"


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
