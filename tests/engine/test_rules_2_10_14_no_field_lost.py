"""LoLV 2.10.14: a No-Field token the storm moves over or onto, or in a territory where a worm
appears, is revealed (2.10.13) and then the storm or the worm acts as usual. The token's number
is hidden from the engine, so in full tracking it refuses the storm's move or the worm until the
judge records the reveal; the revealed forces then meet the storm or the worm. The No-Field
token exists only in the LoLV (the Richese is an expansion faction), so these run there only."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import position

FACTIONS = ("richese", "atreides", "emperor", "fremen", "harkonnen", "guild")


def _table(phase: str, no_field: list[object], *, storm: int = 12, auto: bool = True) -> Position:
    return position(
        ruleset="lolv-2.8.4",
        factions=FACTIONS,
        storm=storm,
        phase=phase,
        per_faction={f: {"tanks": 0} for f in FACTIONS},
        no_field=no_field,
        automatic_losses=auto,
    )


def test_2_10_14_the_storm_waits_for_the_reveal_of_a_no_field_token_in_its_path() -> None:
    pos = _table("storm", ["the_great_flat", 14])
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "storm_moved", "sectors": 3})
    assert err.value.rule == "2.10.14"
    assert "No-Field token in The Great Flat" in err.value.message
    assert "no_field_revealed" in err.value.message
    pos = apply(pos, {"type": "no_field_revealed", "normal": 5})
    reserves = pos.states["richese"].reserves
    pos = apply(pos, {"type": "storm_moved", "sectors": 3})
    # Revealed, the five forces stood in the sand the storm crossed: all go to the tanks.
    assert ("richese", "the_great_flat", 14) not in pos.forces
    assert pos.states["richese"].tanks == (5, 0)
    assert pos.states["richese"].reserves == reserves
    assert pos.losses == (("richese", "the_great_flat", 14, 5, 0, 0, "1.01.03"),)


def test_2_10_14_a_storm_short_of_the_token_needs_no_reveal() -> None:
    pos = apply(_table("storm", ["the_great_flat", 14]), {"type": "storm_moved", "sectors": 1})
    assert pos.no_field == ("the_great_flat", 14)


def test_2_10_14_revealed_in_rock_the_forces_stay() -> None:
    """The storm reveals the token wherever it lies; only sand sends the forces to the tanks
    (1.01.03): in the rock of the Plastic Basin they stay."""
    pos = _table("storm", ["plastic_basin", 13])
    with pytest.raises(IllegalAction, match="No-Field token in Plastic Basin"):
        apply(pos, {"type": "storm_moved", "sectors": 2})
    pos = apply(apply(pos, {"type": "no_field_revealed", "normal": 3}), {"type": "storm_moved", "sectors": 2})
    assert pos.forces[("richese", "plastic_basin", 13)] == (3, 0, 0)
    assert pos.states["richese"].tanks == (0, 0)


def test_2_10_14_a_worm_in_the_tokens_territory_waits_for_the_reveal() -> None:
    pos = _table("spice_blow", ["the_great_flat", 14], storm=2)
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "worm", "territory": "the_great_flat"})
    assert err.value.rule == "2.10.14"
    pos = apply(pos, {"type": "no_field_revealed", "normal": 3})
    pos = apply(pos, {"type": "worm", "territory": "the_great_flat"})
    assert ("richese", "the_great_flat", 14) not in pos.forces
    assert pos.states["richese"].tanks == (3, 0)


def test_2_10_14_a_worm_elsewhere_needs_no_reveal() -> None:
    pos = apply(_table("spice_blow", ["the_great_flat", 14], storm=2), {"type": "worm", "territory": "sihaya_ridge"})
    assert pos.no_field == ("the_great_flat", 14)


def test_2_10_14_without_automatic_losses_the_judge_records_it_all() -> None:
    pos = apply(_table("storm", ["the_great_flat", 14], auto=False), {"type": "storm_moved", "sectors": 3})
    assert pos.no_field == ("the_great_flat", 14)
