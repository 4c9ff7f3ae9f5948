"""The Shield Wall stronghold: WBC house rules and LoLV 4.02.00-4.02.06; Family Atomics
(WBC VI.2, VI.6)."""

from __future__ import annotations

import pytest

from gameplay.engine.errors import IllegalAction
from gameplay.engine.evaluation import evaluate
from gameplay.engine.game_log import apply

from .helpers import at, in_turn, position, to_phase

LOLV = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ecaz")


def test_wbc_shield_wall_counts_after_the_fourth_worm() -> None:
    """WBC house rules: the Shield Wall is a stronghold for victory right after the 4th worm."""
    forces = [
        at("harkonnen", "carthag"),
        at("harkonnen", "arrakeen"),
        at("harkonnen", "shield_wall", sector=7),
    ]
    assert "shield_wall" not in evaluate(position(forces=forces, worms=3)).control
    ev = evaluate(position(forces=forces, worms=4))
    assert ev.control["shield_wall"] == "harkonnen"
    assert ev.victory.winners == ("harkonnen",)


def test_wbc_karama_worms_count_too() -> None:
    """WBC house rules / LoLV 4.02.00: every worm counts, Karama worms included."""
    pos = in_turn(2, phase="spice_blow")
    for karama in (False, True, True, False):
        pos = apply(pos, {"type": "worm", "karama": karama})
    assert pos.worms == 4
    assert "shield_wall" in evaluate(pos).control


def test_wbc_two_factions_on_the_shield_wall_control_nothing() -> None:
    """WBC house rules: two unallied factions left on the Shield Wall (storm kept them apart):
    neither controls it."""
    forces = [at("harkonnen", "shield_wall", sector=7), at("guild", "shield_wall", sector=8)]
    ev = evaluate(position(forces=forces, worms=4, storm=8))
    assert ev.battles == ()
    assert ev.control["shield_wall"] is None


def test_4_02_01_only_the_left_side_counts() -> None:
    """LoLV 4.02.01: only the side touching the Imperial Basin is a stronghold point; the
    right side neither counts nor takes the point away."""
    left = [at("harkonnen", "shield_wall", sector=8)]
    right = [at("guild", "shield_wall", sector=7)]
    assert (
        evaluate(position(ruleset="lolv-2.8.4", factions=LOLV, forces=right, worms=4)).control[
            "shield_wall"
        ]
        is None
    )
    ev = evaluate(position(ruleset="lolv-2.8.4", factions=LOLV, forces=left + right, worms=4, storm=7))
    assert ev.control["shield_wall"] == "harkonnen"  # 4.02.06: the left side's faction


def test_4_02_00_counts_only_after_the_fourth_worm_in_lolv() -> None:
    left = [at("harkonnen", "shield_wall", sector=8)]
    assert (
        "shield_wall"
        not in evaluate(position(ruleset="lolv-2.8.4", factions=LOLV, forces=left, worms=3)).control
    )


def test_ah1979_has_no_shield_wall_stronghold() -> None:
    assert "shield_wall" not in evaluate(position(ruleset="ah1979", worms=9)).control


def test_wbc_vi_6_family_atomics_clears_the_shield_wall_which_still_counts() -> None:
    """WBC VI.6 and house rules: Family Atomics sends every token on the Shield Wall to the
    tanks; the Shield Wall remains a stronghold; not in turn 1 (VI.2)."""
    pos = to_phase(in_turn(1), "shipment_movement")
    pos = apply(
        pos,
        {
            "type": "forces_placed",
            "faction": "emperor",
            "territory": "shield_wall",
            "sector": 8,
            "normal": 3,
            "special": 1,
        },
    )
    with pytest.raises(IllegalAction) as info:
        apply(to_phase(pos, "mentat_pause"), {"type": "family_atomics", "faction": "atreides"})
    assert "storm" in info.value.message  # only in the storm phase
    pos = apply(to_phase(pos, "mentat_pause"), {"type": "turn_advanced"})
    pos = apply(pos, {"type": "family_atomics", "faction": "atreides"})
    assert not any(t == "shield_wall" for (_f, t, _s) in pos.forces)
    assert pos.states["emperor"].tanks == (3, 1)
    assert pos.family_atomics
    for _ in range(4):
        pos = apply(to_phase(pos, "spice_blow") if pos.phase != "spice_blow" else pos, {"type": "worm"})
    assert "shield_wall" in evaluate(pos).control


def test_wbc_vi_2_no_family_atomics_in_turn_1() -> None:
    with pytest.raises(IllegalAction) as info:
        apply(in_turn(1), {"type": "family_atomics", "faction": "atreides"})
    assert info.value.rule == "WBC VI.2"
