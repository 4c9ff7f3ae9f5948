"""The storm over the three territories behind the Shield Wall (Arrakeen, Carthag, the Imperial
Basin): it destroys nothing there until Family Atomics (AH VI.D, LoLV 1.01.03, WBC VI.7), but a
sector of them under the storm still stops shipping and moving into, out of and through it and
still separates a territory for battle (AH questions C.3, LoLV 1.01.04, 1.06.02.04,
1.06.04.06-07, 1.07.01.00; WBC VI.9-10)."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import at, evaluated, position, started, to_phase

RULESETS = ["ah1979", "wbc2018", "lolv-2.8.4"]
SHIP_RULE = {"ah1979": "AH IX.C.1.c", "wbc2018": "AH IX.C.1.c", "lolv-2.8.4": "1.06.02.04"}
MOVE_RULE = {"ah1979": "AH IX.C.2.c", "wbc2018": "AH IX.C.2.c", "lolv-2.8.4": "1.06.04.06"}


def _movement(ruleset: str, storm: int) -> Position:
    return to_phase(started(ruleset, storm=storm), "shipment_movement")


def _move(faction: str, a: str, sa: int | None, b: str, sb: int | None) -> dict[str, object]:
    return {
        "type": "forces_moved",
        "faction": faction,
        "from_territory": a,
        "from_sector": sa,
        "to_territory": b,
        "to_sector": sb,
        "normal": 1,
    }


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_06_02_04_no_shipment_into_a_sheltered_sector_in_storm(ruleset: str) -> None:
    """Shipping into Carthag under the storm is refused though Carthag is sheltered."""
    pos = _movement(ruleset, storm=10)
    ship = {"type": "forces_placed", "faction": "emperor", "territory": "carthag", "sector": 10, "normal": 1}
    with pytest.raises(IllegalAction) as info:
        apply(pos, ship)
    assert info.value.rule == SHIP_RULE[ruleset]
    calm = _movement(ruleset, storm=0)
    assert apply(calm, ship).forces[("emperor", "carthag", 10)] == (1, 0, 0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_06_04_06_no_move_out_of_or_into_a_sheltered_sector_in_storm(ruleset: str) -> None:
    """The Atreides in Arrakeen under the storm cannot move out; nobody moves into it."""
    pos = _movement(ruleset, storm=9)
    with pytest.raises(IllegalAction) as info:
        apply(pos, _move("atreides", "arrakeen", 9, "old_gap", 8))
    assert info.value.rule == MOVE_RULE[ruleset]
    calm = _movement(ruleset, storm=0)
    assert ("atreides", "old_gap", 8) in apply(calm, _move("atreides", "arrakeen", 9, "old_gap", 8)).forces


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_06_04_07_no_passing_through_the_stormed_part_of_the_imperial_basin(ruleset: str) -> None:
    """Inside the Imperial Basin, the storm on 9 cuts sector 8 from sector 10."""
    pos = position(
        ruleset=ruleset,
        storm=9,
        phase="shipment_movement",
        forces=[at("emperor", "imperial_basin", 2, sector=8)],
    )
    with pytest.raises(IllegalAction) as info:
        apply(pos, _move("emperor", "imperial_basin", 8, "imperial_basin", 10))
    assert info.value.rule == MOVE_RULE[ruleset]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_07_01_00_storm_separates_groups_in_the_imperial_basin(ruleset: str) -> None:
    """Two factions on either side of the storm in the Imperial Basin do not battle."""
    forces = [at("emperor", "imperial_basin", 2, sector=8), at("harkonnen", "imperial_basin", 2, sector=10)]
    apart = evaluated(position(ruleset=ruleset, storm=9, forces=forces))
    assert apart["battles"] == []
    together = evaluated(position(ruleset=ruleset, storm=0, forces=forces))
    assert together["battles"] == [{"territory": "imperial_basin", "factions": ["emperor", "harkonnen"]}]
