"""Small builders for engine tests: snapshots and event logs."""

from __future__ import annotations

from typing import Any

from dune.engine.board import TERRITORIES
from dune.engine.codec.position import load_position
from dune.engine.editions import ADVANCED, CURRENT
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply, replay
from dune.engine.ids import RULESETS
from dune.engine.position import Position

CLASSIC = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
DOTS = (1, 4, 7, 10, 13, 16)
#: Every ruleset, for suites that run a rule under each text that has it.
ALL_RULESETS = RULESETS
#: The two 1979-based rulesets (WBC clarifies the AH text) and the LoLV.
AH_WBC = ("ah1979", "wbc2018")
LOLV = "lolv-2.8.4"


def at(
    faction: str,
    territory: str,
    normal: int = 1,
    special: int = 0,
    advisors: int = 0,
    sector: int | None | str = "auto",
) -> dict[str, Any]:
    """A `forces` row; the sector defaults to the territory's first one."""
    if sector == "auto":
        sectors = TERRITORIES[territory].sectors
        sector = sectors[0] if sectors else None
    return {
        "faction": faction,
        "territory": territory,
        "sector": sector,
        "normal": normal,
        "special": special,
        "advisors": advisors,
    }


def snap(
    ruleset: str = "wbc2018",
    factions: tuple[str, ...] = CLASSIC,
    forces: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A snapshot: markers on the dots in seat order, no storm unless given; the current
    edition of the rulings unless `edition` says otherwise; the LoLV Advanced game (1.13.00)
    unless `options` says otherwise."""
    data: dict[str, Any] = {
        "ruleset": ruleset,
        "edition": CURRENT,
        "turn": extra.pop("turn", 3),
        "storm": extra.pop("storm", 0),
        "worms": extra.pop("worms", 0),
        "factions": {f: {"marker": d} for f, d in zip(factions, DOTS, strict=False)},
        "forces": forces or [],
    }
    if ruleset == LOLV:
        data["options"] = [ADVANCED]
    per_faction = extra.pop("per_faction", {})
    for f, values in per_faction.items():
        data["factions"][f].update(values)
    data.update(extra)
    return data


def position(**kw: Any) -> Position:
    return load_position(snap(**kw))


def setup_event(
    ruleset: str = "wbc2018", factions: tuple[str, ...] = CLASSIC, **extra: Any
) -> dict[str, Any]:
    placements = []
    if "fremen" in factions:
        placements.append(at("fremen", "sietch_tabr", 10))
    if "bene_gesserit" in factions:
        placements.append(at("bene_gesserit", "polar_sink", 1))
    if "moritani" in factions:
        placements.append(at("moritani", "the_great_flat", 6))
    event: dict[str, Any] = {
        "type": "game_setup",
        "ruleset": ruleset,
        "factions": list(factions),
        "markers": {f: d for f, d in zip(factions, DOTS, strict=False)},
        "placements": placements,
        "storm": extra.pop("storm", None),
        "edition": CURRENT,
    }
    if ruleset == LOLV:
        event["options"] = [ADVANCED]  # the Advanced game (1.13.00) unless `options` says otherwise
    event.update(extra)
    return event


def started(
    ruleset: str = "wbc2018", factions: tuple[str, ...] = CLASSIC, storm: int = 0, **extra: Any
) -> Position:
    """A game in the storm phase of turn 1 with the storm on `storm`."""
    pos = replay([setup_event(ruleset, factions, **extra), {"type": "phase_advanced", "phase": "storm"}])
    return apply(pos, {"type": "storm_placed", "sector": storm})


def to_phase(pos: Position, phase: str) -> Position:
    return apply(pos, {"type": "phase_advanced", "phase": phase})


def next_turn(pos: Position) -> Position:
    """From anywhere in a turn to the storm phase of the next turn."""
    if pos.phase != "mentat_pause":
        pos = to_phase(pos, "mentat_pause")
    return apply(pos, {"type": "turn_advanced"})


def in_turn(
    turn: int, ruleset: str = "wbc2018", factions: tuple[str, ...] = CLASSIC, phase: str = "storm"
) -> Position:
    pos = started(ruleset, factions)
    while pos.turn < turn:
        pos = next_turn(pos)
    if phase != pos.phase:
        pos = to_phase(pos, phase)
    return pos


def evaluated(pos: Position) -> dict[str, Any]:
    """The engine's evaluation as the JSON the API sends."""
    return evaluate(pos).to_dict()
