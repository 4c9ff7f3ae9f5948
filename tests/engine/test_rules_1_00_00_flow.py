"""The order of play and the faction holdings the engine keeps: phases move forward within a
turn (LoLV 1.00.00, AH V), the next turn starts after the Mentat Pause (1.09.04), forces are
revived from the tanks (LoLV 1.05, AH IX.B), hands stay within their limit (LoLV 1.04.02,
2.05.07: the Harkonnen holds 8)."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction, WrongPhase
from dune.engine.game_log import apply

from .helpers import in_turn, to_phase

RULESETS = ["ah1979", "wbc2018", "lolv-2.8.4"]
PHASE_RULE = {"ah1979": "AH V", "wbc2018": "AH V", "lolv-2.8.4": "1.00.00"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_00_00_phases_only_move_forward(ruleset: str) -> None:
    pos = in_turn(2, ruleset=ruleset, phase="bidding")
    with pytest.raises(IllegalAction) as info:
        to_phase(pos, "spice_blow")
    assert info.value.rule == PHASE_RULE[ruleset]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_09_04_next_turn_after_the_mentat_pause(ruleset: str) -> None:
    pos = in_turn(2, ruleset=ruleset, phase="battle")
    with pytest.raises(WrongPhase) as info:
        apply(pos, {"type": "turn_advanced"})
    # The judge reads the phases in words, not their keys.
    assert "Mentat Pause" in info.value.message and "mentat_pause" not in info.value.message
    nxt = apply(to_phase(pos, "mentat_pause"), {"type": "turn_advanced", "turn": 3})
    assert (nxt.turn, nxt.phase) == (3, "storm")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_05_revival_from_the_tanks(ruleset: str) -> None:
    pos = in_turn(2, ruleset=ruleset, phase="revival")
    pos = apply(
        pos,
        {"type": "forces_removed", "faction": "atreides", "territory": "arrakeen", "sector": 9, "normal": 3},
    )
    back = apply(pos, {"type": "forces_revived", "faction": "atreides", "normal": 2})
    assert back.states["atreides"].tanks == (1, 0) and back.states["atreides"].reserves == (12, 0)
    with pytest.raises(IllegalAction):
        apply(back, {"type": "forces_revived", "faction": "atreides", "normal": 2})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_2_05_07_harkonnen_holds_eight_cards_the_others_four(ruleset: str) -> None:
    pos = in_turn(2, ruleset=ruleset, phase="bidding")
    assert (
        apply(pos, {"type": "cards_set", "faction": "harkonnen", "count": 8}).states["harkonnen"].cards == 8
    )
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "cards_set", "faction": "harkonnen", "count": 9})
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "cards_set", "faction": "atreides", "count": 5})
