"""The Shield Wall stronghold: WBC house rules and LoLV 4.02.00-4.02.06; Family Atomics
(WBC VI.2, VI.6). The Shield Wall stronghold is in the WBC and LoLV texts and runs under both
(the AH text has none: test_ah1979_has_no_shield_wall_stronghold); Family Atomics clearing the
Shield Wall runs under every ruleset (AH questions A.1-2 know the card)."""

from __future__ import annotations

import pytest

from dune.engine.editions import REFINED
from dune.engine.errors import IllegalAction
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply

from .helpers import at, in_turn, position, to_phase

WITH_SHIELD_WALL = ["wbc2018", "lolv-2.8.4"]


@pytest.mark.parametrize("ruleset", WITH_SHIELD_WALL)
def test_wbc_shield_wall_counts_after_the_fourth_worm(ruleset: str) -> None:
    """WBC house rules / LoLV 4.02.00: the Shield Wall is a stronghold for victory after the
    4th worm (here its left side, the only one counting under LoLV 4.02.01)."""
    forces = [
        at("harkonnen", "carthag"),
        at("harkonnen", "arrakeen"),
        at("harkonnen", "shield_wall", sector=8),
    ]
    assert "shield_wall" not in evaluate(position(ruleset=ruleset, forces=forces, worms=3)).control
    ev = evaluate(position(ruleset=ruleset, forces=forces, worms=4))
    assert ev.control["shield_wall"] == "harkonnen"
    assert ev.victory.winners == ("harkonnen",)


@pytest.mark.parametrize("ruleset", WITH_SHIELD_WALL)
def test_wbc_karama_worms_count_too(ruleset: str) -> None:
    """WBC house rules / LoLV 4.02.00: every worm counts, Karama worms included (under the
    LoLV the Fremen place one a game from the fourth edition of the rulings, 1.14.00; the
    third took the judge's word)."""
    current = in_turn(2, ruleset=ruleset, phase="spice_blow")
    third = position(ruleset=ruleset, edition=REFINED, turn=2, phase="spice_blow")
    once = ruleset == "lolv-2.8.4"
    for pos, karamas in (
        (current, (False, True, not once, False)),
        (third, (False, True, True, False)),
    ):
        for karama in karamas:
            pos = apply(pos, {"type": "worm", "karama": karama, "territory": "the_great_flat"})
        assert pos.worms == 4
        assert "shield_wall" in evaluate(pos).control


@pytest.mark.parametrize(
    ("ruleset", "controller"),
    # Two factions left on the Shield Wall (storm kept them apart): neither controls it under
    # the WBC house rules; the one on the left side does under LoLV 4.02.06.
    [("wbc2018", None), ("lolv-2.8.4", "guild")],
)
def test_wbc_two_factions_on_the_shield_wall_control_nothing(ruleset: str, controller: str | None) -> None:
    """WBC house rules: two unallied factions left on the Shield Wall (storm kept them apart):
    neither controls it; LoLV 4.02.06: the faction on the left side (sector 8) does."""
    forces = [at("harkonnen", "shield_wall", sector=7), at("guild", "shield_wall", sector=8)]
    ev = evaluate(position(ruleset=ruleset, forces=forces, worms=4, storm=8))
    assert ev.battles == ()
    assert ev.control["shield_wall"] == controller


@pytest.mark.parametrize(
    ("ruleset", "right_counts"),
    # The right side (sector 7) alone: the whole Shield Wall counts under the WBC house
    # rules; only the left side under LoLV 4.02.01.
    [("wbc2018", True), ("lolv-2.8.4", False)],
)
def test_4_02_01_only_the_left_side_counts(ruleset: str, right_counts: bool) -> None:
    """LoLV 4.02.01: only the side touching the Imperial Basin is a stronghold point; the
    right side neither counts nor takes the point away."""
    left = [at("harkonnen", "shield_wall", sector=8)]
    right = [at("guild", "shield_wall", sector=7)]
    control = evaluate(position(ruleset=ruleset, forces=right, worms=4)).control["shield_wall"]
    assert control == ("guild" if right_counts else None)
    if not right_counts:
        ev = evaluate(position(ruleset=ruleset, forces=left + right, worms=4, storm=7))
        assert ev.control["shield_wall"] == "harkonnen"  # 4.02.06: the left side's faction


@pytest.mark.parametrize("ruleset", WITH_SHIELD_WALL)
def test_4_02_00_counts_only_after_the_fourth_worm_in_lolv(ruleset: str) -> None:
    """LoLV 4.02.00 / WBC house rules: not before the fourth worm."""
    left = [at("harkonnen", "shield_wall", sector=8)]
    assert "shield_wall" not in evaluate(position(ruleset=ruleset, forces=left, worms=3)).control


def test_ah1979_has_no_shield_wall_stronghold() -> None:
    """AH only: the Shield Wall stronghold is a WBC house rule and a LoLV variant (4.02)."""
    assert "shield_wall" not in evaluate(position(ruleset="ah1979", worms=9)).control


@pytest.mark.parametrize(
    ("ruleset", "counts"),
    # Family Atomics clears the Shield Wall in every text (AH questions A.1-2, WBC VI.6, LoLV
    # 3.01.07); it still counts as a stronghold after the fourth worm under the WBC house
    # rules and LoLV 4.02.05; the AH text has no Shield Wall stronghold.
    [("ah1979", False), ("wbc2018", True), ("lolv-2.8.4", True)],
)
def test_wbc_vi_6_family_atomics_clears_the_shield_wall_which_still_counts(
    ruleset: str, counts: bool
) -> None:
    """WBC VI.6 and house rules, LoLV 3.01.07 and 4.02.05: Family Atomics sends every token
    on the Shield Wall to the tanks; the Shield Wall remains a stronghold; played in the storm
    phase, not in turn 1 (WBC VI.1-2, LoLV 3.01.07)."""
    pos = to_phase(in_turn(1, ruleset=ruleset), "shipment_movement")
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
        apply(to_phase(pos, "mentat_pause"), {"type": "family_atomics", "faction": "emperor"})
    assert "storm" in info.value.message  # only in the storm phase
    pos = apply(to_phase(pos, "mentat_pause"), {"type": "turn_advanced"})
    pos = apply(pos, {"type": "family_atomics", "faction": "emperor"})
    assert not any(t == "shield_wall" for (_f, t, _s) in pos.forces)
    assert pos.states["emperor"].tanks == (3, 1)
    assert pos.family_atomics
    for _ in range(4):
        pos = apply(
            to_phase(pos, "spice_blow") if pos.phase != "spice_blow" else pos,
            {"type": "worm", "territory": "the_great_flat"},
        )
    assert ("shield_wall" in evaluate(pos).control) is counts


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Not in the first turn: WBC VI.2, LoLV 3.01.07 ("after the first game turn"). The AH
    # text does not give the card's wording (its Player Aid Pad, AH VIII.J).
    [("wbc2018", "WBC VI.2"), ("lolv-2.8.4", "3.01.07")],
)
def test_wbc_vi_2_no_family_atomics_in_turn_1(ruleset: str, rule: str) -> None:
    with pytest.raises(IllegalAction) as info:
        apply(in_turn(1, ruleset=ruleset), {"type": "family_atomics", "faction": "atreides"})
    assert info.value.rule == rule


def test_ah_viii_j_no_family_atomics_in_turn_1_citing_the_ah_card() -> None:
    """The AH table cites its own card text (the Player Aid Pad, AH VIII.J), not the WBC's."""
    with pytest.raises(IllegalAction) as info:
        apply(in_turn(1, ruleset="ah1979"), {"type": "family_atomics", "faction": "atreides"})
    assert info.value.rule == "AH VIII.J (Player Aid Pad: Family Atomics)"
