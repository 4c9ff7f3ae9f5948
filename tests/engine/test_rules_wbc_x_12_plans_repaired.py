"""A bad plan repaired on the reveal where the table's rules say so (ninth edition,
`BattleRules.repairs`): the lowest value leader available added (AH X.B.2.a, WBC X.12), the
dial reduced to the most the forces and spice support (WBC X.13), an invalid element removed
(WBC X.15). The LoLV repairs nothing: the plan is refused (1.07.04.04), and so was every bad
plan before the ninth edition."""

from __future__ import annotations

import pytest

from dune.engine.battle.resolve import resolve_battle
from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction
from dune.engine.events import event_from_dict
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos, plan
from tests.engine.helpers import LOLV


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH X.B.2.a"), ("wbc2018", "WBC X.12")])
def test_wbc_x_12_ah_x_b_2_a_the_lowest_leader_available_is_added(ruleset: str, rule: str) -> None:
    pos = battle_pos(ruleset)
    body = battle(plan(ruleset, "atreides", 2, weapon="crysknife"), plan(ruleset, "harkonnen", 1, leader="piter_de_vries"))
    r = resolve_battle(pos, event_from_dict(body))
    assert r.rulings[0].rule == rule and "Dr. Wellington Yueh" in r.rulings[0].text
    after = apply(pos, body)
    assert any(row[1:3] == ("atreides", "dr_wellington_yueh") for row in after.fought)
    assert r.leaders[0].leader == "piter_de_vries"  # the crysknife kills him: the plan had a leader
    with pytest.raises(IllegalAction):
        apply(battle_pos(ruleset, edition=SEQUENCED), body)


def test_lolv_1_07_04_04_a_plan_without_its_leader_is_refused() -> None:
    pos = battle_pos(LOLV)
    body = battle(plan(LOLV, "atreides", 2), plan(LOLV, "harkonnen", 1, leader="piter_de_vries"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert (err.value.rule, err.value.field) == ("1.07.04.04", "aggressor.leader")


def test_wbc_x_13_a_dial_too_high_is_reduced() -> None:
    pos = battle_pos("wbc2018")
    body = battle(plan("wbc2018", "atreides", 5, leader="gurney_halleck", spice=2), plan("wbc2018", "harkonnen", 1, leader="piter_de_vries"))
    r = resolve_battle(pos, event_from_dict(body))
    assert r.rulings[0].rule == "WBC X.13" and r.totals["atreides"] == 4 + 3.5  # 2 paid + 3 halves
    with pytest.raises(IllegalAction) as err:
        apply(battle_pos("ah1979"), battle(plan("ah1979", "atreides", 6, leader="gurney_halleck"), plan("ah1979", "harkonnen", 1, leader="piter_de_vries")))
    assert err.value.rule == "AH X.B.1"


def test_wbc_x_15_an_invalid_element_is_removed() -> None:
    pos = battle_pos("wbc2018")
    body = battle(plan("wbc2018", "atreides", 1, leader="gurney_halleck", weapon="shield"), plan("wbc2018", "harkonnen", 1, leader="piter_de_vries"))
    r = resolve_battle(pos, event_from_dict(body))
    assert r.rulings[0].rule == "WBC X.15"
    assert apply(pos, body).states["atreides"].cards == 2  # the shield went back to the hand
    with pytest.raises(IllegalAction) as err:
        apply(battle_pos("ah1979"), battle(plan("ah1979", "atreides", 1, leader="gurney_halleck", weapon="shield"), plan("ah1979", "harkonnen", 1, leader="piter_de_vries")))
    assert (err.value.rule, err.value.field) == ("AH X.B.3", "aggressor.weapon")
