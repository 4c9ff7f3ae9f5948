"""What a judge can record now: the event types the phase allows and, for the events with
a small space of choices, the choices themselves.

Every listing is built from candidates that `apply` itself accepts (`is_legal`), so a
listed choice is never refused; where the candidate space is small (alliances, phases,
sides, stacks and destinations) the candidates are complete, so every accepted choice is
listed. Movement candidates come from the shared distance search (`moves.reach_of`,
`movement.distances`); cross-shipments, worm rides and Ambassador moves list every piece
of the board that `apply` accepts.

`legal_choices(position, event_type)` answers JSON:
`{"event_type", "allowed", "rule", "choices"}` - `rule` says why the type is not allowed
now (or null); `choices` depends on the type (see each `_list_*` function).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from dune.engine import events as ev
from dune.engine.apply_pieces import HMS_RANGE
from dune.engine.apply_setup import chosen_on_board
from dune.engine.board import HIDDEN_MOBILE_STRONGHOLD, TERRITORIES
from dune.engine.editions import advanced, ordered, refined, sheltered
from dune.engine.errors import RuleViolation, UnknownIdentifier
from dune.engine.factions import ECAZ, FREMEN, IXIANS, MORITANI, RICHESE
from dune.engine.game_log import is_legal
from dune.engine.movement import distances, pieces_of, untracked
from dune.engine.moves import VIA_PHASE, blocked_pieces, reach_of
from dune.engine.phases import (
    BATTLE,
    BIDDING,
    MENTAT_PAUSE,
    SETUP,
    SHIPMENT_MOVEMENT,
    SPICE_BLOW,
    SPICE_COLLECTION,
    STORM,
)
from dune.engine.position import Position
from dune.engine.storm import in_storm

#: Largest table whose every side (subset of factions) is tried for sides-valued events.
_MAX_ENUMERATED = 8

#: Event types recorded only in some phases (the handlers' `need_phase`), and their cite key.
_PHASES: dict[str, tuple[tuple[str, ...], str]] = {
    "storm_moved": ((STORM,), "storm_move"),
    "family_atomics": ((STORM,), "family_atomics"),
    "worm": ((SPICE_BLOW,), "nexus"),
    "alliance_formed": ((SPICE_BLOW,), "nexus"),
    "alliance_broken": ((SPICE_BLOW,), "nexus"),
    "win_attempt_confirmed": ((BATTLE,), "win_attempts"),
    "victory_claimed": ((MENTAT_PAUSE,), "solo"),
    "last_turn_ended": ((MENTAT_PAUSE,), "end_game"),
    "turn_advanced": ((MENTAT_PAUSE,), "phase"),
    "default_action": ((BIDDING, SHIPMENT_MOVEMENT, BATTLE, SPICE_BLOW), "chips"),
    "bg_prediction_made": ((SETUP,), "prediction"),
    "spice_blow": ((SPICE_BLOW,), "spice_blow"),
    "inflation_placed": ((MENTAT_PAUSE,), "inflation"),
    "spice_collected": ((SPICE_COLLECTION,), "collection"),
    "spice_harvested": ((SPICE_COLLECTION,), "collection"),
    "card_bought": ((BIDDING,), "bidding"),
    "battle": ((BATTLE,), "battle_phase"),
}

#: Event types that need full tracking (forces known everywhere).
_FULL_TRACKING = frozenset(
    {
        "forces_placed",
        "forces_moved",
        "forces_removed",
        "forces_revived",
        "forces_flipped",
        "spice_blow",
        "spice_collected",
        "spice_harvested",
        "charity_collected",
        "inflation_placed",
        "card_bought",
        "board_spice_set",
        "loss_corrected",
        "battle",
    }
)


def _blocked_type(position: Position, event_type: str) -> str | None:
    """The rule that forbids this event type now, or None."""
    if event_type not in ev.EVENT_TYPES:
        raise UnknownIdentifier(
            rule="event schema", msg=f"unknown event type {event_type!r}", input=event_type
        )
    if position.setup is None:
        return None if event_type == "game_setup" else "setup"
    cite = position.ruleset.cite
    if event_type == "game_setup":
        return cite["setup"]
    if position.ended:
        return None if event_type in ("void", "insert") else cite["end_game"]
    if position.outcome is not None and event_type not in ("game_ended", "void", "insert"):
        return cite["end_game"]
    if event_type in _FULL_TRACKING and position.quick:
        return "quick tracking"
    if event_type == "inflation_placed" and ("choam" not in position.playing or position.inflation is not None):
        return cite.get("inflation", "2.09.09")
    if event_type == "quick_record" and not position.quick:
        return "quick tracking"
    if event_type == "quick_record" and position.phase == SETUP:
        return "setup"  # apply_quick_record: quick records start with turn 1
    if event_type == "storm_placed" and (position.turn != 1 or position.phase not in (SETUP, STORM)):
        return cite["storm_first"]
    in_nexus = position.phase == SPICE_BLOW and position.nexus
    if event_type == "alliance_broken" and not in_nexus:
        return cite["nexus"]
    if event_type == "alliance_formed":
        # Outside a nexus only through a faction's ability (LoLV 1.10.01.06).
        return None if in_nexus or position.ruleset.alliance_abilities else cite["nexus"]
    if event_type == "forces_flipped" and ordered(position) and "spiritual_advisor" not in cite:
        return cite["no_advisors"]  # AH XV.A, WBC XV.5: no advisor side (sixth edition)
    if event_type == "forces_moved":
        phases = {SHIPMENT_MOVEMENT} | ({SPICE_BLOW} if "worm" in position.ruleset.movement.vias else set())
        return None if position.phase in phases else cite["move_phase"]
    need = _PHASES.get(event_type)
    if need is not None and position.phase not in need[0]:
        return cite.get(need[1], need[1])
    if event_type in _PIECE_OWNERS:
        return _piece_timing(position, event_type)
    if event_type == "spice_in_front":
        return _bribe_timing(position)
    return None


#: The expansion pieces' event types and the faction whose pieces they are.
_PIECE_OWNERS = {
    "ambassador_placed": ECAZ, "ambassador_removed": ECAZ, "terror_placed": MORITANI,
    "terror_revealed": MORITANI, "no_field_placed": RICHESE, "no_field_revealed": RICHESE,
    "hms_moved": IXIANS,
}


def _piece_timing(position: Position, event_type: str) -> str | None:
    """The rule that keeps an expansion piece off the table now: a ruleset without the pieces,
    a table without their faction, or the piece's own timing (the handlers in apply_pieces:
    Ambassadors in shipment and movement, LoLV 2.11.05; Terror tokens at the Mentat Pause,
    2.12.05; the HMS deployed after the first storm, 2.07.04, and moved at the Mentat Pause,
    2.07.18, or with a Karama card in an Advanced game's shipment and movement, 1.14.07)."""
    cite = position.ruleset.cite
    if not position.ruleset.expansion_pieces or _PIECE_OWNERS[event_type] not in position.factions:
        return cite["setup"]
    phase = position.phase
    if event_type == "ambassador_placed" and refined(position) and phase != SHIPMENT_MOVEMENT:
        return cite.get("ambassadors", "ambassadors")
    if event_type == "terror_placed" and refined(position) and phase != MENTAT_PAUSE:
        return cite.get("terror_timing", "terror_timing")
    if event_type == "hms_moved":
        if position.hms is None:
            return cite.get("hms", "hms") if position.storm is None else None
        if phase not in HMS_RANGE or (phase == SHIPMENT_MOVEMENT and not advanced(position)):
            return cite.get("hms_move", "hms_move")
        if not any(f == IXIANS and t == HIDDEN_MOBILE_STRONGHOLD for (f, t, _s) in position.forces):
            return cite.get("hms_move", "hms_move")
    return None


def _bribe_timing(position: Position) -> str | None:
    """When spice may pass from one shield to another (the handler's `_need_bribe_allowed`):
    WBC XIII.1 in the collection round only; LoLV 1.12.04-05 after the first storm and before
    the Mentat Pause."""
    if not refined(position):
        return None
    rule = position.ruleset.bribes
    cite = position.ruleset.cite
    if rule == "collection_round" and position.phase != SPICE_COLLECTION:
        return cite.get("bribe_timing", "bribe_timing")
    if rule == "front_of_shield" and position.storm is None:
        return cite.get("bribe_timing", "bribe_timing")
    if rule == "front_of_shield" and position.phase == MENTAT_PAUSE:
        return cite.get("bribe_late", "bribe_late")
    return None


def still_to_place(position: Position) -> list[str]:
    """The factions that choose where their starting forces go and have not placed them all
    yet, in seat order (LoLV 0.13, 2.12.02; AH III.E.4): setup cannot end before they have."""
    if position.setup is None or position.phase != SETUP or position.quick:
        return []
    out = []
    for f in position.factions:
        sheet = position.sheet(f)
        if sheet.choose_count and chosen_on_board(position, f) != sheet.choose_count:
            out.append(f)
    return out


def allowed_event_types(position: Position) -> list[str]:
    """Event types a judge may record in this position (phase, tracking and game status;
    for the listed types of `legal_choices`, at least one choice exists)."""
    out = []
    for event_type in ev.EVENT_TYPES:
        if _blocked_type(position, event_type) is not None:
            continue
        lister = _any_move if event_type == "forces_moved" else _LISTERS.get(event_type)
        if lister is not None and not _non_empty(lister(position)):
            continue
        out.append(event_type)
    return out


def legal_choices(position: Position, event_type: str) -> dict[str, Any]:
    """The choices a judge can record now for `event_type` (JSON-serialisable).

    Raises UnknownIdentifier for an unknown event type."""
    rule = _blocked_type(position, event_type)
    lister = _LISTERS.get(event_type)
    if rule is not None:
        return {"event_type": event_type, "allowed": False, "rule": rule, "choices": None}
    if lister is None:
        return {"event_type": event_type, "allowed": True, "rule": None, "choices": None}
    found = lister(position)
    return {"event_type": event_type, "allowed": _non_empty(found), "rule": None, "choices": found}


def _non_empty(found: dict[str, Any]) -> bool:
    return any(bool(v) for v in found.values())


def _legal(position: Position, event: ev.Event | dict[str, Any]) -> bool:
    try:
        return is_legal(position, event)
    except RuleViolation:
        return False


def _piece(territory: str, sector: int | None) -> dict[str, Any]:
    return {"territory": territory, "sector": sector}


# --- forces_moved -------------------------------------------------------------------------


def _candidates(
    position: Position,
    faction: str,
    via: str,
    territory: str,
    sector: int | None,
    stack: tuple[int, int, int],
) -> Iterator[tuple[str, int | None]]:
    """Pieces worth trying as destinations (a superset of the legal ones)."""
    if via != "move" or untracked(territory):
        for t in TERRITORIES:
            yield from pieces_of(t)
        return
    if in_storm(territory, sector, position.storm, sheltered(position)):
        return
    prev = position.moves.get((faction, via))
    reach = reach_of(
        position, faction, special=stack[1] > 0, advisors_only=stack[0] + stack[1] == 0, first=prev is None
    )
    if prev is not None:
        reach = max(reach, prev.reach)
    blocked = blocked_pieces(position, faction, keep=(territory,))
    for piece, d in distances((territory, sector), position.storm, sheltered(position), blocked).items():
        if d <= reach:
            yield piece
    hms = "hidden_mobile_stronghold"
    if hms in TERRITORIES:
        yield (hms, None)


def _vias_for(position: Position, faction: str) -> list[str]:
    """The kinds of move this faction could make in this phase (others are never tried)."""
    out = []
    for via in sorted(position.ruleset.movement.vias):
        phase = VIA_PHASE[via][0]
        if phase != position.phase:
            continue
        if via == "worm" and faction != FREMEN:
            continue
        if via == "ambassador" and faction != ECAZ:
            continue
        if via == "cross_ship":
            shippers = position.ruleset.cross_shippers
            if faction not in shippers and not shippers & set(position.allies_of(faction)):
                continue
        out.append(via)
    return out


def move_kinds(position: Position) -> list[str]:
    """The kinds of move (`ForcesMoved.via`) some faction of the game could make in this phase,
    in a stable order: the movement first, then a Fremen worm ride (AH VII.A.2.b, WBC VII.6,
    LoLV 2.04.08), a Guild cross-planet shipment (AH IX.C.1.g.ii, WBC IX.18, LoLV 2.06.05.01),
    the Fremen Ambassador's move (2.11.10.04)."""
    kinds = {via for faction in position.factions for via in _vias_for(position, faction)}
    return [via for via in ("move", "worm", "cross_ship", "ambassador") if via in kinds]


def _move_rows(position: Position, *, first_only: bool) -> Iterator[tuple[str, dict[str, Any]]]:
    for faction in position.factions:
        vias = _vias_for(position, faction)
        if not vias:
            continue
        stacks = sorted(
            ((t, s, stack) for (f, t, s), stack in position.forces.items() if f == faction),
            key=lambda x: (x[0], -1 if x[1] is None else x[1]),
        )
        for t, s, stack in stacks:
            for via in vias:
                dests = []
                seen: set[tuple[str, int | None]] = set()
                for tt, ts in _candidates(position, faction, via, t, s, stack):
                    if (tt, ts) in seen or (tt, ts) == (t, s):
                        continue
                    seen.add((tt, ts))
                    trial = ev.ForcesMoved(faction, t, s, tt, ts, stack[0], stack[1], stack[2], via)
                    if _legal(position, trial):
                        dests.append(_piece(tt, ts))
                        if first_only:
                            break
                if dests:
                    dests.sort(key=lambda p: (p["territory"], -1 if p["sector"] is None else p["sector"]))
                    yield (
                        faction,
                        {
                            "via": via,
                            "from": _piece(t, s),
                            "forces": {"normal": stack[0], "special": stack[1], "advisors": stack[2]},
                            "to": dests,
                        },
                    )
                    if first_only:
                        return


def _list_forces_moved(position: Position) -> dict[str, Any]:
    """`{"moves": {faction: [{"via", "from": piece, "forces": {...}, "to": [piece, ...]}]}}`:
    for each stack, the pieces the whole stack may go to now (a smaller group reaches the
    same pieces, except Ixian Suboids without a Cyborg)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for faction, row in _move_rows(position, first_only=False):
        out.setdefault(faction, []).append(row)
    return {"moves": out}


def _any_move(position: Position) -> dict[str, Any]:
    return {"moves": dict(_move_rows(position, first_only=True))}


# --- sides --------------------------------------------------------------------------------


def _sides(position: Position, *, sizes: range | None = None) -> Iterator[tuple[str, ...]]:
    factions = position.factions
    if len(factions) > _MAX_ENUMERATED:
        return
    top = len(factions) if sizes is None else min(sizes.stop - 1, len(factions))
    low = 1 if sizes is None else sizes.start
    for k in range(low, top + 1):
        yield from combinations(factions, k)


def _list_sides(
    event_type: str, field: str, extra: dict[str, Any], sizes: range | None = None
) -> Callable[[Position], dict[str, Any]]:
    def lister(position: Position) -> dict[str, Any]:
        sides = [
            list(side)
            for side in _sides(position, sizes=sizes)
            if _legal(position, {"type": event_type, field: list(side), **extra})
        ]
        return {"sides": sides}

    lister.__doc__ = f'`{{"sides": [[faction, ...], ...]}}`: every `{field}` that {event_type} accepts now.'
    return lister


def _list_alliance_formed(position: Position) -> dict[str, Any]:
    """`{"sides": [...], "ways": [...]}`: every alliance that may form in the nexus now (size
    limit, turn 1 refused, one alliance per faction, once per nexus), and every pair that may
    ally through a faction's ability (`{"factions", "how"}`, LoLV 1.10.01.06)."""
    found = _list_sides("alliance_formed", "factions", {}, range(2, len(position.factions) + 1))(position)
    ways = []
    for how in sorted(position.ruleset.alliance_abilities):
        for pair in _sides(position, sizes=range(2, 3)):
            if _legal(position, {"type": "alliance_formed", "factions": list(pair), "how": how}):
                ways.append({"factions": list(pair), "how": how})
    found["ways"] = ways
    return found


def _list_factions(event_type: str) -> Callable[[Position], dict[str, Any]]:
    def lister(position: Position) -> dict[str, Any]:
        return {
            "factions": [f for f in position.factions if _legal(position, {"type": event_type, "faction": f})]
        }

    return lister


def _list_phase_advanced(position: Position) -> dict[str, Any]:
    """`{"phases": [...]}`: the phases the game may advance to (later in the turn)."""
    if position.setup is None:
        return {"phases": []}
    return {
        "phases": [
            p for p in position.ruleset.phases if _legal(position, {"type": "phase_advanced", "phase": p})
        ]
    }


def _list_turn_advanced(position: Position) -> dict[str, Any]:
    """`{"turns": [n]}`: the next turn, when it may start."""
    nxt = position.turn + 1
    return {"turns": [nxt] if _legal(position, {"type": "turn_advanced", "turn": nxt}) else []}


def _list_plain(event_type: str) -> Callable[[Position], dict[str, Any]]:
    def lister(position: Position) -> dict[str, Any]:
        return {"events": [{"type": event_type}] if _legal(position, {"type": event_type}) else []}

    return lister


_LISTERS: dict[str, Callable[[Position], dict[str, Any]]] = {
    "forces_moved": _list_forces_moved,
    "alliance_formed": _list_alliance_formed,
    "alliance_broken": _list_factions("alliance_broken"),
    "phase_advanced": _list_phase_advanced,
    "turn_advanced": _list_turn_advanced,
    "victory_claimed": _list_sides("victory_claimed", "winners", {}),
    "win_attempt_confirmed": _list_sides("win_attempt_confirmed", "factions", {}),
    "concession": _list_sides("concession", "to_factions", {"unanimous": True}),
    "dropout": _list_factions("dropout"),
    "last_turn_ended": _list_plain("last_turn_ended"),
}

#: Event types with a listing in `legal_choices`.
LISTED_TYPES: tuple[str, ...] = tuple(_LISTERS)

__all__ = ["LISTED_TYPES", "allowed_event_types", "legal_choices", "still_to_place"]
