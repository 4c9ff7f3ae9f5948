"""Which Richese No-Field tokens are at hand (LoLV 2.10.03, 2.10.10, 2.10.13, 2.10.15, 2.10.19).

The three tokens are numbered 0, 3 and 5 (2.10.03). One lies face down on the board at most
(2.10.15); a revealed one lies face up in front of the Richese shield (2.10.13) and goes back to
the supply when the Richese next ship with a No-Field token (2.10.10); the Richese's ally may
ship with one from the supply, revealed at once (2.10.19). The engine tracks the numbers face up
in every edition of the rulings; from the fourth (`editions.accounted`) it refuses a token that
is not at hand: a revealed number already face up in front of the shield, or a Richese shipment
with none in the supply. The ally's shipment (`forces_placed.no_field`), which no earlier log
could hold, is checked in every edition.
"""

from __future__ import annotations

from typing import Any

from dune.engine.checks import need_faction, refuse
from dune.engine.editions import accounted
from dune.engine.events import ForcesPlaced
from dune.engine.factions import RICHESE
from dune.engine.names import faction_name
from dune.engine.position import Position, evolve
from dune.engine.supplies import NO_FIELD_NUMBERS, Supplies, no_field_left


def _need_one_left(pos: Position, field: str | None) -> None:
    if no_field_left(pos.supplies, pos.no_field is not None) < 1:
        shown = ", ".join(str(n) for n in sorted(pos.supplies.no_field_face_up))
        on_board = pos.no_field is not None
        if not shown:
            refuse(
                pos,
                "no_field_supply",
                "no No-Field token is left in the Richese supply (none face up in front of the shield; one on the board)"
                if on_board
                else "no No-Field token is left in the Richese supply (none face up in front of the shield)",
                [],
                field=field,
            )
        refuse(
            pos,
            "no_field_supply",
            f"no No-Field token is left in the Richese supply (face up in front of the shield: {shown}; one on the board)"
            if on_board
            else f"no No-Field token is left in the Richese supply (face up in front of the shield: {shown})",
            sorted(pos.supplies.no_field_face_up),
            field=field,
        )


def _need_face_down(pos: Position, number: int, field: str) -> None:
    if number in pos.supplies.no_field_face_up:
        refuse(
            pos,
            "no_field_face_up",
            f"the No-Field token {number} already lies face up in front of the Richese shield: "
            "the one revealed shows another of 0, 3 and 5",
            number,
            field=field,
        )


def placed_from_supply(pos: Position) -> dict[str, Any]:
    """The Richese ship a token from the supply; those face up go back to it (2.10.10). A
    shipment with none left is refused from the fourth edition."""
    if accounted(pos):
        _need_one_left(pos, None)
    if not pos.supplies.no_field_face_up:
        return {}
    return {"supplies": evolve(pos.supplies, no_field_face_up=frozenset())}


def revealed_face_up(pos: Position, number: int) -> dict[str, Any]:
    """The revealed token lies face up in front of the Richese shield (2.10.13). A number
    already face up is refused from the fourth edition."""
    if accounted(pos):
        _need_face_down(pos, number, "normal")
    return {"supplies": evolve(pos.supplies, no_field_face_up=pos.supplies.no_field_face_up | {number})}


def ally_shipment(pos: Position, ev: ForcesPlaced) -> Supplies:
    """The Richese's ally ships with a No-Field token of the supply, revealed at once: as many
    of its forces as the number land, or all its reserves if fewer (2.10.19, 2.10.13).
    Returns the supplies after it; refusals name the field at fault."""
    assert ev.no_field is not None
    if not pos.ruleset.expansion_pieces:
        refuse(pos, "setup", f"{pos.ruleset.name} has no No-Field tokens", ev.no_field, field="no_field")
    need_faction(pos, RICHESE)
    if ev.faction not in pos.allies_of(RICHESE):
        refuse(
            pos,
            "no_field_ally",
            f"{faction_name(ev.faction)} is no ally of the Richese: only their ally ships with their No-Field tokens"
            + (" (the Richese record no_field_placed)" if ev.faction == RICHESE else ""),
            ev.faction,
            field="faction",
        )
    if ev.source != "reserves":
        refuse(pos, "no_field_ally", "a No-Field shipment comes from reserves", ev.source, field="source")
    if ev.no_field not in NO_FIELD_NUMBERS:
        refuse(pos, "2.10.03", "a No-Field token shows 0, 3 or 5", ev.no_field, field="no_field")
    _need_face_down(pos, ev.no_field, "no_field")
    _need_one_left(pos, "no_field")
    reserves = pos.states[ev.faction].reserves
    if reserves is None:
        refuse(pos, "forces", f"{faction_name(ev.faction)}'s reserves are unknown in this position", ev)
    lands = min(ev.no_field, sum(reserves))
    if ev.normal + ev.special + ev.advisors != lands:
        refuse(
            pos,
            "no_field_face_up",
            f"the No-Field token {ev.no_field} brings {lands} {faction_name(ev.faction)} forces from reserves, "
            f"not {ev.normal + ev.special + ev.advisors}",
            (ev.normal, ev.special, ev.advisors),
            field="normal",
        )
    return evolve(pos.supplies, no_field_face_up=pos.supplies.no_field_face_up | {ev.no_field})
