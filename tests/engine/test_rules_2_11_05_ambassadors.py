"""Ecaz Ambassadors on the board: one per stronghold, not into the storm, not on the Shield
Wall (LoLV 2.11.05, 4.02.07); they leave when triggered or stormed (2.11.07, 2.11.09). LoLV only: the Ecaz is in no other
text."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.snapshot import dump_position, load_position

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
