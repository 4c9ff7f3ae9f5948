"""Ecaz Ambassadors on the board: one per stronghold, not into the storm, not on the Shield
Wall (LoLV 2.11.05, 4.02.07); they leave when triggered or stormed (2.11.07, 2.11.09). LoLV only: the Ecaz is in no other
text."""

from __future__ import annotations

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply

from .helpers import position

FACTIONS = ("atreides", "ecaz", "emperor", "fremen", "harkonnen", "guild")


def test_2_11_05_ambassadors_in_strongholds_not_in_storm() -> None:
    pos = position(ruleset="lolv-2.8.4", factions=FACTIONS, storm=10, phase="shipment_movement")
    placed = apply(pos, {"type": "ambassador_placed", "territory": "tueks_sietch", "ambassador": "fremen"})
    assert placed.ambassadors == {"tueks_sietch": "fremen"}
    assert load_position(dump_position(placed)) == placed
    with pytest.raises(IllegalAction):
        apply(placed, {"type": "ambassador_placed", "territory": "tueks_sietch", "ambassador": "guild"})
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "ambassador_placed", "territory": "carthag", "ambassador": "guild"})
    assert info.value.rule == "2.11.05"
    gone = apply(placed, {"type": "ambassador_removed", "territory": "tueks_sietch"})
    assert gone.ambassadors == {}


def test_2_11_06_each_ambassador_of_a_turn_costs_one_more_paid_to_the_bank() -> None:
    """2.11.06: 1 spice for the turn's first Ambassador, 2 for the second, 3 for the third;
    the count starts again the next turn."""
    per = {"ecaz": {"spice": 10}}
    pos = position(ruleset="lolv-2.8.4", factions=FACTIONS, storm=10, phase="shipment_movement", per_faction=per)
    spice = {f: st.spice for f, st in pos.states.items()}
    first = apply(pos, {"type": "ambassador_placed", "territory": "tueks_sietch", "ambassador": "fremen", "cost": 1})
    with pytest.raises(IllegalAction) as info:
        apply(first, {"type": "ambassador_placed", "territory": "sietch_tabr", "ambassador": "guild", "cost": 1})
    assert info.value.rule == "2.11.06" and info.value.field == "cost" and "costs 2 spice, not 1" in info.value.message
    second = apply(first, {"type": "ambassador_placed", "territory": "sietch_tabr", "ambassador": "guild", "cost": 2})
    assert {f: st.spice for f, st in second.states.items()} == {**spice, "ecaz": 7}  # nobody else is paid
    assert load_position(dump_position(second)) == second
    next_turn = load_position({**dump_position(second), "turn": 2})
    assert apply(next_turn, {"type": "ambassador_placed", "territory": "arrakeen", "ambassador": "emperor", "cost": 1}).states["ecaz"].spice == 6


def test_2_11_06_no_more_than_the_spice_held() -> None:
    pos = position(ruleset="lolv-2.8.4", factions=FACTIONS, storm=10, phase="shipment_movement", per_faction={"ecaz": {"spice": 0}})
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "ambassador_placed", "territory": "tueks_sietch", "ambassador": "fremen", "cost": 1})
    assert info.value.field == "cost" and "has only 0 spice" in info.value.message
