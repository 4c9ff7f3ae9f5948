"""WBC XV.7-9: coexistence is declared only in the movement round, and a territory declared
coexisting stays so for the rest of the turn. AH XV and the LoLV set no such timing."""

from __future__ import annotations

import pytest

from gameplay.engine.errors import IllegalAction, WrongPhase
from gameplay.engine.game_log import apply

from .helpers import in_turn, next_turn, to_phase

DECLARE = {"type": "coexistence_declared", "territory": "arrakeen", "coexisting": True}
WITHDRAW = {"type": "coexistence_declared", "territory": "arrakeen", "coexisting": False}


def test_wbc_xv_7_declared_only_in_the_movement_round() -> None:
    pos = in_turn(2, phase="bidding")
    with pytest.raises(IllegalAction) as info:
        apply(pos, DECLARE)
    assert info.value.rule == "WBC XV.7"
    assert "arrakeen" in apply(to_phase(pos, "shipment_movement"), DECLARE).coexisting


def test_wbc_xv_9_no_withdrawal_in_the_same_turn() -> None:
    pos = apply(in_turn(2, phase="shipment_movement"), DECLARE)
    with pytest.raises(IllegalAction) as info:
        apply(pos, WITHDRAW)
    assert info.value.rule == "WBC XV.9"
    later = to_phase(next_turn(pos), "shipment_movement")
    assert "arrakeen" not in apply(later, WITHDRAW).coexisting


@pytest.mark.parametrize("ruleset", ["ah1979", "lolv-2.8.4"])
def test_wbc_xv_7_other_rulesets_set_no_timing(ruleset: str) -> None:
    pos = apply(in_turn(2, ruleset=ruleset, phase="bidding"), DECLARE)
    assert "arrakeen" not in apply(pos, WITHDRAW).coexisting


def test_wrong_phase_is_not_raised_for_coexistence() -> None:
    """The refusal is an IllegalAction citing XV.7, not a generic phase error."""
    with pytest.raises(IllegalAction) as info:
        apply(in_turn(2, phase="battle"), DECLARE)
    assert not isinstance(info.value, WrongPhase)
