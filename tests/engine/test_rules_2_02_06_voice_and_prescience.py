"""The Bene Gesserit Voice and the Atreides' Prescience recorded with the battle (`voice`,
`prescience`) and the plans held to them: AH X.B.4-6 (X.B.6.a: a plan may change so long as it
obeys), WBC X.3, X.5-11, XVII.10, XVII.12; LoLV 2.01.08-09, 2.02.06-07."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos, plan
from tests.engine.helpers import ALL_RULESETS, LOLV, at

RICHESE_LEADER = "lady_helena"

VOICE_RULE = {"ah1979": "AH X.B.6.a", "wbc2018": "WBC X.3", LOLV: "2.02.06"}
ALLIED = [["atreides", "bene_gesserit"]]


def _voiced(ruleset: str, play: bool, weapon: str | None, **voice: object) -> dict[str, object]:
    return battle(
        plan(ruleset, "atreides", 2, leader="gurney_halleck"),
        plan(ruleset, "harkonnen", 1, leader="feyd_rautha", **({"weapon": weapon} if weapon else {})),
        voice={"by": "bene_gesserit", "to": "harkonnen", "card": "poison", "play": play, **voice},
    )


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_x_b_4_a_plan_obeys_the_voice(ruleset: str) -> None:
    """AH X.B.4, AH X.B.6.a, WBC X.3, WBC X.9, WBC X.11, LoLV 2.02.06: Voiced not to play a
    poison weapon, the Harkonnen's Chaumas is refused; Voiced to play one, a plan without it is
    taken as unable to comply."""
    pos = battle_pos(ruleset, alliances=ALLIED)
    with pytest.raises(IllegalAction) as err:
        apply(pos, _voiced(ruleset, False, "chaumas"))
    assert (err.value.rule, err.value.field) == (VOICE_RULE[ruleset], "defender.weapon")
    apply(pos, _voiced(ruleset, False, "crysknife"))
    apply(pos, _voiced(ruleset, True, None))


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_xvii_12_a_voice_cancelled_by_karama_binds_nothing(ruleset: str) -> None:
    """WBC XVII.12: a Karama cancels the Voice."""
    apply(battle_pos(ruleset, alliances=ALLIED), _voiced(ruleset, False, "chaumas", karama=True))


@pytest.mark.parametrize(("ruleset", "field", "rule"), [("ah1979", "voice.card", "AH X.B.4"), ("wbc2018", "voice.card", "WBC X.9")])
def test_wbc_x_10_the_voice_names_no_cheap_hero_under_the_1979_texts(ruleset: str, field: str, rule: str) -> None:
    """WBC X.10 (the BG shield, AH X.B.4): no Voice on a Cheap Hero; LoLV 2.02.06 allows it."""
    body = _voiced(ruleset, False, None, card="cheap_hero")
    with pytest.raises(IllegalAction) as err:
        apply(battle_pos(ruleset, alliances=ALLIED), body)
    assert (err.value.rule, err.value.field) == (rule, field)
    apply(battle_pos(LOLV, alliances=ALLIED), _voiced(LOLV, False, None, card="cheap_hero"))


def test_wbc_x_5_the_voice_in_an_allys_battle_only() -> None:
    """WBC X.5-6, LoLV 2.02.07: the BG Voice their ally's opponent; not a battle of strangers."""
    pos = battle_pos("wbc2018")
    body = battle(
        plan("wbc2018", "atreides", 2, leader="gurney_halleck"),
        plan("wbc2018", "harkonnen", 1, leader="feyd_rautha"),
        voice={"by": "bene_gesserit", "to": "harkonnen", "card": "lasgun", "play": False},
    )
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert (err.value.rule, err.value.field) == ("WBC X.5", "voice.by")
    allied = battle_pos("wbc2018", alliances=[["atreides", "bene_gesserit"]])
    apply(allied, body)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_x_b_5_the_plan_plays_what_the_prescience_saw(ruleset: str) -> None:
    """AH X.B.5, AH X.B.6, WBC X.7, WBC X.8, WBC XVII.10, LoLV 2.01.08, 2.01.09: the element
    shown is played; a cancelled Prescience binds nothing."""
    pos = battle_pos(ruleset)
    seen = {"by": "atreides", "of": "harkonnen", "element": "weapon", "answer": "crysknife"}
    body = battle(plan(ruleset, "atreides", 2, leader="gurney_halleck"), plan(ruleset, "harkonnen", 1, leader="feyd_rautha", weapon="chaumas"), prescience=seen)
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.field == "defender.weapon"
    assert err.value.rule == {"ah1979": "AH X.B.6.a", "wbc2018": "WBC X.3", LOLV: "2.02.06"}[ruleset]
    body["defender"]["weapon"] = "crysknife"
    apply(pos, body)
    body["defender"]["weapon"] = "chaumas"
    body["prescience"] = {**seen, "karama": True}
    apply(pos, body)
    dial = battle(
        plan(ruleset, "atreides", 2, leader="gurney_halleck"),
        plan(ruleset, "harkonnen", 1, leader="feyd_rautha"),
        prescience={"by": "atreides", "of": "harkonnen", "element": "dial", "answer": 1},
    )
    apply(pos, dial)


def test_2_10_17_no_prescience_of_the_dial_beside_a_no_field_token() -> None:
    """LoLV 2.10.17 (Blind Prescience): with a No-Field token present the Richese are not made
    to show the number dialed."""
    factions = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "richese")
    forces = [at("atreides", "arrakeen", 5), at("richese", "arrakeen", 3)]
    pos = battle_pos(LOLV, forces=forces, factions=factions, no_field=["arrakeen", 9])
    seen = {"by": "atreides", "of": "richese", "element": "dial", "answer": 1}
    body = battle(plan(LOLV, "atreides", 2, leader="gurney_halleck"), plan(LOLV, "richese", 1, leader=RICHESE_LEADER), prescience=seen)
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert (err.value.rule, err.value.field) == ("2.10.17", "prescience.element")
    body["prescience"] = {**seen, "element": "leader", "answer": RICHESE_LEADER}
    apply(pos, body)
