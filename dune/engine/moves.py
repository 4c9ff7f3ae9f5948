"""The legality of one recorded move (`forces_moved`) beyond ownership and storm ends.

`check_move(pos, ev)` validates the kind of move and its phase, the one force movement per
phase (LoLV 1.06.04.01, AH IX.C.2.b) and its group (LoLV 1.06.04, AH questions B.1), the
range (LoLV 1.06.04.03-04, 2.04.06, 2.07.12/16; AH IX.C.2.a) and the path (storm, full
strongholds, WBC IX.2 allies), and returns the faction's updated movement record.
`reach_of(...)` and `blocked_pieces(...)` are shared with `choices.py`.
"""

from __future__ import annotations

from collections.abc import Mapping

from dune.engine.board import HIDDEN_MOBILE_STRONGHOLD, POLAR_SINK
from dune.engine.checks import active_count, limit_counted, need_phase, refuse
from dune.engine.editions import sheltered
from dune.engine.events import ForcesMoved
from dune.engine.factions import ECAZ, FREMEN, RICHESE
from dune.engine.movement import (
    LIMITED_STRONGHOLDS,
    MOVE_KIND_WORDS,
    UNREACHABLE,
    MoveCard,
    Movement,
    Piece,
    distance,
    move_card_name,
    pieces_of,
    untracked,
)
from dune.engine.names import faction_name, factions_text, place_name
from dune.engine.phases import SHIPMENT_MOVEMENT, SPICE_BLOW
from dune.engine.position import Position
from dune.engine.storm import separated

#: The phase in which each kind of move happens.
VIA_PHASE = {
    "move": (SHIPMENT_MOVEMENT, "move_phase", "forces move"),
    "cross_ship": (SHIPMENT_MOVEMENT, "cross_ship", "forces cross-ship"),
    "ambassador": (SHIPMENT_MOVEMENT, "ambassador", "the Fremen Ambassador moves forces"),
    "worm": (SPICE_BLOW, "worm_ride", "the Fremen ride a worm"),
}


def flyers_at(pos: Position) -> frozenset[str]:
    """Factions with fighting forces in Arrakeen or Carthag now: ornithopter access
    (LoLV 1.06.04.04, AH IX.C.2.a.i; advisors and coexisting BG never give it: LoLV
    2.02.12, WBC XV.19, WBC III.5)."""
    if pos.setup is None:
        return frozenset()
    cities = pos.ruleset.movement.ornithopter_cities
    return frozenset(
        f for (f, t, _s), stack in pos.forces.items() if t in cities and active_count(pos, f, t, stack)
    )


def has_ornithopters(pos: Position, faction: str) -> bool:
    rules = pos.ruleset.movement
    if rules.ornithopters_at_phase_start and pos.flyers is not None:
        return faction in pos.flyers
    return faction in flyers_at(pos)


def reach_of(
    pos: Position,
    faction: str,
    *,
    special: bool,
    advisors_only: bool,
    card: MoveCard | None = None,
    first: bool = True,
) -> int:
    """Territories a new movement of this faction may cross (LoLV 1.06.04.03-04, 2.04.06,
    2.07.12/16; AH IX.C.2.a.i-iii), with a movement card's effect."""
    rules = pos.ruleset.movement
    reach = rules.faction_range.get(faction, rules.base_range)
    if special and faction in rules.special_range:
        reach = max(reach, rules.special_range[faction])
    if (rules.advisors_fly or not advisors_only) and has_ornithopters(pos, faction):
        reach = max(reach, rules.ornithopter_range)
    if card is not None:
        if first and card.first_range:
            reach = max(reach, card.first_range)
        reach += card.bonus
    return reach


def active_occupants(pos: Position) -> dict[str, set[str]]:
    """Territory -> factions with fighting forces there."""
    out: dict[str, set[str]] = {}
    for (f, t, _s), stack in pos.forces.items():
        if active_count(pos, f, t, stack):
            out.setdefault(t, set()).add(f)
    if pos.no_field is not None:
        out.setdefault(pos.no_field[0], set()).add(RICHESE)  # LoLV 2.10.11
    return out


def blocked_pieces(pos: Position, faction: str, *, keep: tuple[str, ...] = ()) -> frozenset[Piece]:
    """Pieces the faction's moving group may not enter on its way: strongholds held by two
    other factions (LoLV 1.06.04.09, AH IX.C.2.f) and, under WBC IX.2, pieces where an ally
    stands unless the storm separates them (WBC VI.10); the territories in `keep` (where the
    move starts or ends, judged by other rules) excepted."""
    occ = active_occupants(pos)
    out: set[Piece] = set()
    for t in LIMITED_STRONGHOLDS:
        if t not in keep and len(limit_counted(pos, faction, occ.get(t, set()))) >= 2:
            out.update(pieces_of(t))
    if pos.ruleset.movement.ally_blocks_path:
        allies = set(pos.allies_of(faction))
        for (f, t, s), stack in pos.forces.items():
            if f in allies and t != POLAR_SINK and t not in keep and active_count(pos, f, t, stack):
                for piece in pieces_of(t):
                    if not separated(t, piece[1], s, pos.storm, sheltered(pos)):
                        out.add(piece)
    return frozenset(out)


def _same_group(pos: Position, prev: Movement, ev: ForcesMoved) -> bool:
    """Whether `ev` adds to the group of the current movement (LoLV 1.06.04: from one
    territory, storm permitting; AH questions B.1: from one sector piece)."""
    if (ev.from_territory, ev.to_territory, ev.to_sector) != (
        prev.from_territory,
        prev.to_territory,
        prev.to_sector,
    ):
        return False
    if ev.from_sector == prev.from_sector:
        return True
    if not pos.ruleset.movement.group_across_sectors:
        return False
    return not separated(ev.from_territory, prev.from_sector, ev.from_sector, pos.storm, sheltered(pos))


def _card(pos: Position, ev: ForcesMoved) -> MoveCard | None:
    if ev.card is None:
        return None
    found = pos.ruleset.movement.cards.get(ev.card)
    card = move_card_name(ev.card)
    if found is None:
        refuse(pos, "move_card", f"{card} is not a movement card in {pos.ruleset.name}", ev.card)
    if found.factions is not None and ev.faction not in found.factions:
        refuse(
            pos,
            "move_card",
            f"only {factions_text(sorted(found.factions))} may use {card} ({found.rule})",
            ev.faction,
        )
    if ev.via != "move":
        via = MOVE_KIND_WORDS.get(ev.via, ev.via)
        refuse(pos, "move_card", f"{card} is played with a force movement, not {via}", ev.via)
    held = pos.states[ev.faction].cards
    if held == 0:
        refuse(
            pos,
            "move_card",
            f"{faction_name(ev.faction)} holds no treachery card to play {card}",
            ev.card,
        )
    return found


def check_move(pos: Position, ev: ForcesMoved) -> dict[tuple[str, str], Movement]:
    """Validate the kind, phase, group, range and path of a move; return the new movement
    records. Raises IllegalAction, WrongPhase.

    Long because the checks of one move (kind, phase, group, range, path) run in the rule text's
    order and stop at the first that refuses.
    """
    rules = pos.ruleset.movement
    f = ev.faction
    if ev.via not in rules.vias:
        refuse(pos, "move_kind", f"{pos.ruleset.key!r} has no {ev.via!r} moves", ev.via)
    phase, key, what = VIA_PHASE[ev.via]
    need_phase(pos, (phase,), key, what)
    card = _card(pos, ev)
    if ev.via == "worm":
        if f != FREMEN:
            # Allies of the Fremen are spared by worms but never ride them (AH VII.A.2.b, WBC VII.8).
            refuse(pos, "worm_rider", f"only the Fremen ride worms, not {faction_name(f)}", f)
        return dict(pos.moves)
    if ev.via == "ambassador" and f != ECAZ:
        refuse(pos, "ambassador", f"the Fremen Ambassador moves the Ecaz's forces, not {faction_name(f)}", f)
    if ev.via == "cross_ship":
        shippers = pos.ruleset.cross_shippers
        if f not in shippers and not shippers & set(pos.allies_of(f)):
            refuse(
                pos,
                "cross_ship",
                f"only the Guild and its allies ship from one territory to another, not {faction_name(f)}",
                f,
            )
    if ev.via == "ambassador":
        return dict(pos.moves)

    slot = (f, ev.via)
    prev = pos.moves.get(slot)
    extra = card is not None and card.extra_action and (prev is not None or not card.first_range)
    advisors_only = ev.normal + ev.special == 0
    if prev is not None and not extra and _same_group(pos, prev, ev):
        reach = prev.reach
        if ev.via == "move":
            more = reach_of(pos, f, special=ev.special > 0, advisors_only=advisors_only, first=False)
            reach = max(reach, more)
        record = Movement(
            ev.from_territory,
            prev.from_sector,
            ev.to_territory,
            ev.to_sector,
            reach,
            prev.actions,
            prev.allowed,
        )
    else:
        actions = (prev.actions if prev is not None else 0) + 1
        allowed = (prev.allowed if prev is not None else 1) + (1 if extra else 0)
        if prev is not None and actions > allowed:
            came, went = place_name(prev.from_territory), place_name(prev.to_territory)
            if ev.via == "cross_ship":
                refuse(
                    pos,
                    "cross_ship",
                    f"{faction_name(f)} has already cross-shipped this turn ({came} to {went} sector {prev.to_sector})",
                    ev,
                )
            same_territories = (ev.from_territory, ev.to_territory) == (
                prev.from_territory,
                prev.to_territory,
            )
            rule = "move_group" if same_territories and ev.to_sector == prev.to_sector else "one_move"
            if pos.ruleset.movement.group_across_sectors:
                refuse(
                    pos,
                    rule,
                    f"{faction_name(f)} has made its force movement this turn ({came} to {went} sector {prev.to_sector}); "
                    "a group moves from one territory to one sector of one other territory",
                    ev,
                )
            refuse(
                pos,
                rule,
                f"{faction_name(f)} has made its force movement this turn ({came} to {went} sector {prev.to_sector}); "
                "a group moves from one sector piece to one sector of one other territory",
                ev,
            )
        if ev.via == "cross_ship":
            reach = UNREACHABLE
        else:
            reach = reach_of(
                pos, f, special=ev.special > 0, advisors_only=advisors_only, card=card, first=prev is None
            )
        record = Movement(
            ev.from_territory, ev.from_sector, ev.to_territory, ev.to_sector, reach, actions, allowed
        )
    if ev.via == "move":
        _check_path(pos, ev, reach)
    moves = dict(pos.moves)
    moves[slot] = record
    return moves


def _check_path(pos: Position, ev: ForcesMoved, reach: int) -> None:
    """The destination lies within `reach` territories by a path avoiding the storm and
    blocked territories. The Hidden Mobile Stronghold is a territory inside the one it points
    at (LoLV 2.07.17): entering or leaving it costs one territory from or to that sector;
    while it is not deployed, moves to or from it are not measured."""
    src: Piece = (ev.from_territory, ev.from_sector)
    dst: Piece = (ev.to_territory, ev.to_sector)
    extra = 0
    if pos.hms is not None:
        if ev.from_territory == HIDDEN_MOBILE_STRONGHOLD:
            src, extra = pos.hms, extra + 1
        if ev.to_territory == HIDDEN_MOBILE_STRONGHOLD:
            dst, extra = pos.hms, extra + 1
    if untracked(src[0]) or untracked(dst[0]):
        return
    storm, shelter = pos.storm, sheltered(pos)
    blocked = blocked_pieces(pos, ev.faction, keep=(src[0], dst[0]))
    if distance(src, dst, storm, shelter, blocked) + extra <= reach:
        return
    reach -= extra
    clear = distance(src, dst, None, shelter)
    where = f"{place_name(ev.to_territory)} sector {ev.to_sector}"
    if clear > reach:
        refuse(
            pos,
            "fremen_range" if reach == 2 and ev.faction == FREMEN else "move_range",
            f"{where} is {clear} territories from {place_name(ev.from_territory)}; {faction_name(ev.faction)} may move "
            f"{reach} this time (ornithopters: {'yes' if has_ornithopters(pos, ev.faction) else 'no'})",
            ev,
        )
    if distance(src, dst, storm, shelter) > reach:
        refuse(pos, "move_storm", f"no path of {reach} territories to {where} avoids the storm", ev)
    ally = pos.ruleset.movement.ally_blocks_path and any(
        a in fs for a in pos.allies_of(ev.faction) for fs in active_occupants(pos).values()
    )
    refuse(
        pos,
        "ally_path" if ally and _ally_blocks(pos, ev, reach) else "move_path",
        f"every path of {reach} territories to {where} crosses a stronghold held by two other "
        "factions or a territory where an ally stands",
        ev,
    )


def _ally_blocks(pos: Position, ev: ForcesMoved, reach: int) -> bool:
    """Whether the allies alone (without full strongholds) close every path."""
    only_strongholds = _without_allies(pos, ev.faction, (ev.from_territory, ev.to_territory))
    src: Piece = (ev.from_territory, ev.from_sector)
    dst: Piece = (ev.to_territory, ev.to_sector)
    return distance(src, dst, pos.storm, sheltered(pos), only_strongholds) <= reach


def _without_allies(pos: Position, faction: str, keep: tuple[str, ...]) -> frozenset[Piece]:
    occ: Mapping[str, set[str]] = active_occupants(pos)
    out: set[Piece] = set()
    for t in LIMITED_STRONGHOLDS:
        if t not in keep and len(limit_counted(pos, faction, occ.get(t, set()))) >= 2:
            out.update(pieces_of(t))
    return frozenset(out)


__all__ = ["active_occupants", "blocked_pieces", "check_move", "flyers_at", "has_ornithopters", "reach_of"]
