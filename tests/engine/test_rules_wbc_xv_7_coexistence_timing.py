"""WBC XV.7-9: coexistence is declared only in the movement round; a territory declared
coexisting stays so for the rest of the turn (XV.9); one announced not coexisting turns
coexisting again only once vacated by the other factions and entered by a different one
(XV.8). AH XV and the LoLV set no such timing: WBC-only rules, whose absence elsewhere
test_wbc_xv_7_other_rulesets_set_no_timing shows."""

from __future__ import annotations

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.errors import IllegalAction, WrongPhase
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import CLASSIC, at, in_turn, next_turn, position, to_phase

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


APART = {"type": "coexistence_declared", "territory": "the_great_flat", "coexisting": False}
TOGETHER = {"type": "coexistence_declared", "territory": "the_great_flat", "coexisting": True}


def _apart() -> Position:
    """The Great Flat holds the BG and the Emperor; the BG announces it not coexisting."""
    pos = position(
        ruleset="wbc2018",
        storm=2,
        phase="shipment_movement",
        forces=[at("bene_gesserit", "the_great_flat", 2, sector=14), at("emperor", "the_great_flat", 3, sector=14)],
        per_faction={f: {"tanks": 0} for f in CLASSIC},
    )
    return apply(pos, APART)


def test_wbc_xv_8_announced_apart_cannot_turn_coexisting_while_occupied() -> None:
    pos = _apart()
    with pytest.raises(IllegalAction) as info:
        apply(pos, TOGETHER)
    assert info.value.rule == "WBC XV.8"
    assert "The Great Flat was announced not coexisting this turn" in info.value.message


def test_wbc_xv_8_vacated_and_entered_by_the_same_faction_stays_apart() -> None:
    pos = apply(_apart(), {"type": "forces_removed", "faction": "emperor", "territory": "the_great_flat",
                           "sector": 14, "normal": 3, "to": "tanks"})
    pos = apply(pos, {"type": "forces_placed", "faction": "emperor", "territory": "the_great_flat",
                      "sector": 14, "normal": 1, "source": "reserves"})
    with pytest.raises(IllegalAction, match="a different faction enters"):
        apply(pos, TOGETHER)


def test_wbc_xv_8_vacated_then_entered_by_a_different_faction_may_coexist() -> None:
    pos = apply(_apart(), {"type": "forces_removed", "faction": "emperor", "territory": "the_great_flat",
                           "sector": 14, "normal": 3, "to": "tanks"})
    assert pos.declared_apart["the_great_flat"] == (frozenset({"emperor"}), True)
    pos = apply(pos, {"type": "forces_placed", "faction": "harkonnen", "territory": "the_great_flat",
                      "sector": 14, "normal": 2, "source": "reserves"})
    pos = apply(pos, TOGETHER)
    assert "the_great_flat" in pos.coexisting
    assert "the_great_flat" not in pos.declared_apart
    assert load_position(dump_position(pos)) == pos


def test_wbc_xv_8_a_new_turn_forgets_the_announcement() -> None:
    pos = _apart()
    data = dump_position(pos)
    assert data["declared_apart"] == {"the_great_flat": {"factions": ["emperor"], "vacated": False}}
    assert load_position(data) == pos
    pos = to_phase(next_turn(pos), "shipment_movement")
    assert "the_great_flat" in apply(pos, TOGETHER).coexisting


@pytest.mark.parametrize("ruleset", ["ah1979", "lolv-2.8.4"])
def test_wbc_xv_8_other_rulesets_let_the_bg_change_its_mind(ruleset: str) -> None:
    pos = position(
        ruleset=ruleset, storm=2, phase="shipment_movement",
        forces=[at("bene_gesserit", "the_great_flat", 2, sector=14), at("emperor", "the_great_flat", 3, sector=14)],
        per_faction={f: {"tanks": 0} for f in CLASSIC},
    )
    assert "the_great_flat" in apply(apply(pos, APART), TOGETHER).coexisting
