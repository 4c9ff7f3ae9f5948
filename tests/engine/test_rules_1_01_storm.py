"""LoLV 1.01 (storm phase), AH VI and IX.A: storm order, first player, storm movement;
WBC VI.9-10: separation by storm. Every rule here is in all three texts, which agree, so each
test runs under every ruleset."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.errors import IllegalAction, WrongPhase
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply

from .helpers import ALL_RULESETS, CLASSIC, at, in_turn, next_turn, position, started, to_phase

#: Every faction's tanks are empty (so reserves are known too).
KNOWN = {f: {"tanks": 0} for f in CLASSIC}


def _battles(ruleset: str, forces: list[dict[str, Any]], storm: int) -> list[tuple[str, ...]]:
    ev = evaluate(position(ruleset=ruleset, forces=forces, storm=storm))
    return sorted(tuple(sorted(b.factions)) for b in ev.battles)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_01_01_first_player_is_next_dot_counterclockwise(ruleset: str) -> None:
    """LoLV 1.01.01 / AH IX.A: the faction whose player marker the storm next approaches is
    first."""
    ev = evaluate(position(ruleset=ruleset, storm=2))  # dots 1,4,7,... seat order atreides..guild
    assert ev.first_player == "bene_gesserit"  # dot 4
    assert ev.storm_order == (
        "bene_gesserit",
        "emperor",
        "fremen",
        "harkonnen",
        "guild",
        "atreides",
    )


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_ix_a_storm_on_a_dot_has_passed_it(ruleset: str) -> None:
    """AH IX.A: a storm on a player dot has passed that player, who goes last; LoLV 1.01.01
    reads the same (the storm next approaches the following dot)."""
    ev = evaluate(position(ruleset=ruleset, storm=4))
    assert ev.first_player == "emperor"
    assert ev.storm_order[-1] == "bene_gesserit"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_storm_order_wraps_past_sector_17(ruleset: str) -> None:
    ev = evaluate(position(ruleset=ruleset, storm=17))
    assert ev.storm_order[0] == "atreides"  # dot 1 comes right after sector 17 and 0


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_storm_order_with_five_players_skips_the_empty_dot(ruleset: str) -> None:
    ev = evaluate(position(ruleset=ruleset, factions=CLASSIC[:5], storm=14))
    assert ev.storm_order == (
        "atreides",
        "bene_gesserit",
        "emperor",
        "fremen",
        "harkonnen",
    )


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_no_storm_yet_means_no_storm_order(ruleset: str) -> None:
    ev = evaluate(position(ruleset=ruleset, storm=None))
    assert ev.storm_order is None and ev.first_player is None


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_0_16_first_storm_is_placed_then_moves_from_turn_2(ruleset: str) -> None:
    """LoLV 0.16 / AH VI.A: turn 1 places the storm; from turn 2 it moves (1.01.02, AH VI.C)."""
    pos = started(ruleset, storm=16)
    assert pos.storm == 16
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "storm_moved", "sectors": 3})  # WBC VI.11: not moved in turn 1
    pos = in_turn(2, ruleset=ruleset)
    pos = apply(pos, {"type": "storm_moved", "sectors": 5})
    assert pos.storm == 5  # from 0, counterclockwise


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_01_02_storm_moves_counterclockwise_and_wraps(ruleset: str) -> None:
    pos = in_turn(2, ruleset=ruleset)
    for _ in range(4):
        pos = apply(pos, {"type": "storm_moved", "sectors": 6})
        pos = next_turn(pos)
    assert pos.storm == 6  # 0 + 24 mod 18


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # The storm moves in the storm round: AH VI.C (WBC VI.1 orders it), LoLV 1.01.02.
    [("ah1979", "AH VI.C"), ("wbc2018", "AH VI.C"), ("lolv-2.8.4", "1.01.02")],
)
def test_storm_moves_only_in_the_storm_phase(ruleset: str, rule: str) -> None:
    pos = to_phase(in_turn(2, ruleset=ruleset), "bidding")
    with pytest.raises(WrongPhase) as info:
        apply(pos, {"type": "storm_moved", "sectors": 2})
    assert info.value.rule == rule


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
@pytest.mark.parametrize("storm", [0, 8, 9, 17])
def test_1_06_05_polar_sink_never_in_storm(ruleset: str, storm: int) -> None:
    """LoLV 1.06.05 / AH IX.C.2.e: the Polar Sink is never in storm, so shipping into it is
    never refused for the storm, wherever the storm stands."""
    pos = position(ruleset=ruleset, storm=storm, phase="shipment_movement", per_faction=KNOWN)
    ship = {"type": "forces_placed", "faction": "emperor", "territory": "polar_sink", "sector": None}
    assert apply(pos, {**ship, "normal": 2}).forces[("emperor", "polar_sink", None)] == (2, 0, 0)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_vi_7_shield_wall_shelters_from_destruction_until_family_atomics(ruleset: str) -> None:
    """WBC VI.7, LoLV 1.01.03 / 3.01.07, AH VI.D (and AH questions A.1): the storm destroys
    nothing in Arrakeen, Carthag or the Imperial Basin until Family Atomics; rock (the False
    Wall East, the Shield Wall) never. That a sector of them under the storm is still in
    storm (AH questions C.3) is in test_rules_1_06_02_04_storm_blocks_movement."""
    forces = [
        at("atreides", "arrakeen", 2),
        at("harkonnen", "carthag", 2),
        at("emperor", "imperial_basin", 2, sector=9),
        at("guild", "false_wall_east", 2, sector=8),
        at("fremen", "shield_wall", 2, sector=8),
    ]
    storm = {"type": "storm_moved", "sectors": 3}  # from 7 over 8, 9 and 10
    calm = position(
        ruleset=ruleset, storm=7, phase="storm", forces=forces, per_faction=KNOWN, automatic_losses=True
    )
    assert apply(calm, storm).forces == calm.forces
    after = apply(calm.evolve(family_atomics=True), storm)
    assert not {("atreides", "arrakeen", 9), ("harkonnen", "carthag", 10)} & set(after.forces)
    assert ("emperor", "imperial_basin", 9) not in after.forces
    assert after.forces[("guild", "false_wall_east", 8)] == (2, 0, 0)
    assert after.forces[("fremen", "shield_wall", 8)] == (2, 0, 0)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_vi_9_storm_between_two_groups_separates_them(ruleset: str) -> None:
    """WBC VI.9, AH X.A.2.a, LoLV 1.07.01.00: groups in different sectors are separated if
    the storm is between them or covers one of them. Wind Pass spans 13-16."""
    apart = [at("atreides", "wind_pass", 2, sector=13), at("harkonnen", "wind_pass", 2, sector=16)]
    assert _battles(ruleset, apart, storm=14) == []  # between them
    assert _battles(ruleset, apart, storm=16) == []  # over one of them
    assert _battles(ruleset, apart, storm=2) == [("atreides", "harkonnen")]
    near = [at("atreides", "wind_pass", 2, sector=13), at("harkonnen", "wind_pass", 2, sector=14)]
    assert _battles(ruleset, near, storm=16) == [("atreides", "harkonnen")]  # storm beyond both


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_vi_10_storm_splits_a_territory_across_sector_0(ruleset: str) -> None:
    """WBC VI.10 (AH X.A.2.a, LoLV 1.07.01.00): a territory split by the storm; Cielago West
    spans 17 and 0."""
    forces = [at("atreides", "cielago_west", 2, sector=17), at("harkonnen", "cielago_west", 2, sector=0)]
    assert _battles(ruleset, forces, storm=0) == []
    assert _battles(ruleset, forces, storm=5) == [("atreides", "harkonnen")]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_01_01_one_sector_under_storm_is_not_separated(ruleset: str) -> None:
    """LoLV 1.07.01.01 / AH X.A.2.a / WBC X.4: the same sector under the storm still battles."""
    forces = [at("atreides", "wind_pass", 2, sector=14), at("harkonnen", "wind_pass", 2, sector=14)]
    assert _battles(ruleset, forces, storm=14) == [("atreides", "harkonnen")]
