"""More of what a recorded move must respect: a named sector of the destination (LoLV
1.06.04.08, AH IX.C.2.d); Guild cross-shipment never out of the storm (AH IX.C.1.c.ii,
WBC IX.17, LoLV 1.06.02.04); the LoLV movement cards (Kulon for the CHOAM only, 2.09.07.04;
the Ornithopter card as a second movement, 3.02.06.02); the Ecaz's Fremen Ambassador
(2.11.10.04); the Ixians' Karama move of the HMS (1.14.07). The first two rules are in every
text and run under every ruleset; the cards, factions and pieces after them are LoLV-only."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.errors import RuleViolation
from dune.engine.game_log import apply, is_legal

from .helpers import at, position, started

RULESETS = ["ah1979", "wbc2018", "lolv-2.8.4"]


def _mv(faction: str, a: str, sa: int | None, b: str, sb: int | None, **kw: Any) -> dict[str, Any]:
    return {
        "type": "forces_moved",
        "faction": faction,
        "from_territory": a,
        "from_sector": sa,
        "to_territory": b,
        "to_sector": sb,
        "normal": 1,
        **kw,
    }


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_06_04_08_the_destination_sector_is_named(ruleset: str) -> None:
    pos = position(
        ruleset=ruleset, storm=0, phase="shipment_movement", forces=[at("emperor", "old_gap", 2, sector=8)]
    )
    assert is_legal(pos, _mv("emperor", "old_gap", 8, "imperial_basin", 8))
    for bad in (None, 3):
        with pytest.raises(RuleViolation):
            apply(pos, _mv("emperor", "old_gap", 8, "imperial_basin", bad))


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Not out of a sector in storm: AH IX.C.1.c.ii, WBC IX.17, LoLV 1.06.02.04.
    [("ah1979", "AH IX.C.1.c.ii"), ("wbc2018", "WBC IX.17"), ("lolv-2.8.4", "1.06.02.04")],
)
def test_ah_ix_c_1_c_guild_cross_ships_never_out_of_the_storm(ruleset: str, rule: str) -> None:
    forces = [at("guild", "the_great_flat", 2, sector=14)]
    pos = position(ruleset=ruleset, storm=14, phase="shipment_movement", forces=forces)
    with pytest.raises(RuleViolation) as info:
        apply(pos, _mv("guild", "the_great_flat", 14, "carthag", 10, via="cross_ship"))
    assert info.value.rule == rule


def test_2_09_07_04_kulon_is_the_choams_card() -> None:
    """LoLV only: the CHOAM and its use of the Kulon are in no other text."""
    factions = ("atreides", "choam", "emperor", "fremen", "harkonnen", "guild")
    per = {f: {"cards": 1} for f in factions}
    forces = [at("emperor", "the_great_flat", 2, sector=14), at("choam", "the_great_flat", 2, sector=14)]
    pos = position(
        ruleset="lolv-2.8.4",
        factions=factions,
        storm=0,
        phase="shipment_movement",
        forces=forces,
        per_faction=per,
    )
    assert not is_legal(pos, _mv("emperor", "the_great_flat", 14, "the_greater_flat", 15, card="kulon"))
    assert is_legal(pos, _mv("choam", "the_great_flat", 14, "habbanya_erg", 15, card="kulon"))


def test_3_02_06_02_ornithopter_card_as_a_second_movement() -> None:
    """LoLV only: the Ornithopter card comes with the CHOAM & Richese expansion (3.02)."""
    forces = [at("emperor", "the_great_flat", 2, sector=14), at("emperor", "meridian", 2, sector=1)]
    pos = position(
        ruleset="lolv-2.8.4",
        storm=5,
        phase="shipment_movement",
        forces=forces,
        per_faction={"emperor": {"cards": 1}},
    )
    pos = apply(pos, _mv("emperor", "the_great_flat", 14, "the_greater_flat", 15))
    second = _mv("emperor", "meridian", 1, "cielago_west", 0)
    assert not is_legal(pos, second)
    assert is_legal(pos, {**second, "card": "ornithopter"})


def test_2_11_10_04_the_fremen_ambassador_moves_the_ecaz_anywhere() -> None:
    """LoLV only: the Ecaz and its Ambassadors are in no other text."""
    factions = ("atreides", "ecaz", "emperor", "fremen", "harkonnen", "guild")
    forces = [at("ecaz", "imperial_basin", 2, sector=9), at("guild", "tueks_sietch", 2)]
    pos = position(ruleset="lolv-2.8.4", factions=factions, storm=0, phase="shipment_movement", forces=forces)
    far = _mv("ecaz", "imperial_basin", 9, "habbanya_erg", 15, via="ambassador")
    assert ("ecaz", "habbanya_erg", 15) in apply(pos, far).forces
    with pytest.raises(RuleViolation):
        apply(pos, _mv("guild", "tueks_sietch", 4, "habbanya_erg", 15, via="ambassador"))


def test_1_14_07_ixians_move_the_hms_two_territories_with_a_karama() -> None:
    """LoLV only: the Ixians and the HMS are in no other text."""
    factions = ("atreides", "ixians", "emperor", "fremen", "harkonnen", "guild")
    pos = apply(
        started("lolv-2.8.4", factions, storm=0),
        {"type": "hms_moved", "territory": "the_great_flat", "sector": 14},
    )
    pos = apply(pos, {"type": "phase_advanced", "phase": "shipment_movement"})
    karama_move = {"type": "hms_moved", "territory": "the_greater_flat", "sector": 15, "karama": True}
    assert apply(pos, karama_move).hms == ("the_greater_flat", 15)
    with pytest.raises(RuleViolation) as info:  # the Karama card is recorded with the move
        apply(pos, {**karama_move, "karama": False})
    assert info.value.rule == "1.14.07"
    with pytest.raises(RuleViolation):
        apply(pos, {"type": "hms_moved", "territory": "tueks_sietch", "sector": 4})
