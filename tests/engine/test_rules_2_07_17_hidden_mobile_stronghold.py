"""The Hidden Mobile Stronghold (a LoLV piece): it points at a sector of a non-stronghold
territory (2.07.04, 2.07.17), is in storm when that sector is, moves up to three territories
at the Mentat Pause never through the storm (2.07.18), and only the Ixians ship into it
(2.07.20). LoLV only: the Ixians and their HMS are in no other text (the AH and WBC
rulesets refuse it, test_2_07_17_no_hms_without_the_ixians)."""

from __future__ import annotations

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import started, to_phase

FACTIONS = ("atreides", "ixians", "emperor", "fremen", "harkonnen", "guild")
HMS = "hidden_mobile_stronghold"


def _deployed(storm: int = 0, where: tuple[str, int] = ("the_great_flat", 14)) -> Position:
    pos = started("lolv-2.8.4", FACTIONS, storm=storm)
    return apply(pos, {"type": "hms_moved", "territory": where[0], "sector": where[1]})


def test_2_07_04_the_hms_location_is_part_of_the_position() -> None:
    pos = _deployed()
    assert pos.hms == ("the_great_flat", 14)
    assert load_position(dump_position(pos)) == pos
    with pytest.raises(IllegalAction):
        apply(started("lolv-2.8.4", FACTIONS), {"type": "hms_moved", "territory": "carthag", "sector": 10})


def test_2_07_20_only_the_ixians_ship_into_the_hms() -> None:
    pos = to_phase(_deployed(), "shipment_movement")
    ship = {"type": "forces_placed", "territory": HMS, "sector": None, "normal": 1}
    with pytest.raises(IllegalAction) as info:
        apply(pos, {**ship, "faction": "emperor"})
    assert info.value.rule == "2.07.20"
    assert apply(pos, {**ship, "faction": "ixians"}).forces[("ixians", HMS, None)][0] >= 1


def test_2_07_17_the_hms_is_in_storm_with_its_sector() -> None:
    pos = to_phase(_deployed(), "shipment_movement").evolve(storm=14)  # the storm came over it
    leave = {
        "type": "forces_moved",
        "faction": "ixians",
        "from_territory": HMS,
        "from_sector": None,
        "to_territory": "the_great_flat",
        "to_sector": 14,
        "normal": 1,
    }
    with pytest.raises(IllegalAction) as info:
        apply(pos, leave)
    assert info.value.rule == "1.06.04.06"
    calm = to_phase(_deployed(storm=0), "shipment_movement")
    assert ("ixians", "the_great_flat", 14) in apply(calm, leave).forces


def test_2_07_18_the_hms_moves_three_territories_at_the_mentat_pause() -> None:
    pos = to_phase(_deployed(), "mentat_pause")
    near = apply(pos, {"type": "hms_moved", "territory": "the_greater_flat", "sector": 15})
    assert near.hms == ("the_greater_flat", 15)
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "hms_moved", "territory": "tueks_sietch", "sector": 4})
    assert info.value.rule == "2.07.18"


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_2_07_17_no_hms_without_the_ixians(ruleset: str) -> None:
    with pytest.raises(IllegalAction):
        apply(started(ruleset), {"type": "hms_moved", "territory": "the_great_flat", "sector": 14})
