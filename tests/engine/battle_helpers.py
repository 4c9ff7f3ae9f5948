"""Builders for the battle tests: a battle phase position, plans and the battle event."""

from __future__ import annotations

from typing import Any

from dune.engine.codec.position import load_position
from dune.engine.position import Position
from tests.engine.helpers import CLASSIC, at, snap

#: The rulesets whose battles use spice dialing (WBC Rule Set: AH Advanced; LoLV 1.13.03).
DIALING = ("wbc2018", "lolv-2.8.4")
ATREIDES_LEADERS = ("thufir_hawat", "lady_jessica", "gurney_halleck", "duncan_idaho", "dr_wellington_yueh")


def battle_pos(ruleset: str, forces: list[dict[str, Any]] | None = None, factions: tuple[str, ...] = CLASSIC, **kw: Any) -> Position:
    """A battle phase: 5 Atreides against 4 Harkonnen in Arrakeen unless `forces` says otherwise,
    10 spice and 2 cards each, every leader active unless `per_faction` says otherwise."""
    forces = forces or [at("atreides", "arrakeen", 5), at("harkonnen", "arrakeen", 4)]
    on_board: dict[str, int] = {}
    for row in forces:
        on_board[row["faction"]] = on_board.get(row["faction"], 0) + row["normal"] + row["special"] + row["advisors"]
    per_faction: dict[str, dict[str, Any]] = {
        f: {"spice": 10, "cards": 2, "reserves": 20 - n - 5, "tanks": 5} for f, n in on_board.items()
    }
    for f in factions:
        per_faction.setdefault(f, {})["leader_status"] = {}
    for f, extra in kw.pop("per_faction", {}).items():
        per_faction.setdefault(f, {}).update(extra)
    kw.setdefault("phase", "battle")
    return load_position(snap(ruleset, factions=factions, forces=forces, per_faction=per_faction, **kw))


def plan(ruleset: str, faction: str, dial: float, **kw: Any) -> dict[str, Any]:
    """A battle plan; under spice dialing every force dialed is paid for unless `spice` says."""
    out = {"faction": faction, "dial": dial, **kw}
    if ruleset in DIALING and faction != "fremen":
        out.setdefault("spice", int(dial + 0.5))
    return out


def battle(aggressor: dict[str, Any], defender: dict[str, Any], territory: str = "arrakeen", **kw: Any) -> dict[str, Any]:
    return {"type": "battle", "territory": territory, "aggressor": aggressor, "defender": defender, **kw}


def leader(pos: Position, faction: str, name: str) -> tuple[str, str | None]:
    i = pos.sheet(faction).leader_index(name)
    assert i is not None
    return pos.states[faction].leaders[i]
