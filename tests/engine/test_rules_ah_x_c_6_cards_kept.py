"""The winner's choices over the cards it played, recorded in the battle event (`keep`,
`keep_captive`): AH X.C.6 and LoLV 1.07.06.05 let a winner keep or discard any card it played
(a worthless card too; not one that says "Discard after use", LoLV 3.01.04); LoLV
1.07.06.06.00 lets a traitor's caller keep its one-time cards and consider a captive not used.
Under AH and the WBC the caller's Cheap Hero goes and a captive goes home."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos, leader, plan
from tests.engine.helpers import ALL_RULESETS, LOLV, at

HARKONNEN_LEADERS = ("feyd_rautha", "beast_rabban", "piter_de_vries", "captain_iakin_nefud", "umman_kudu")


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_x_c_6_lolv_1_07_06_05_a_winner_may_keep_a_worthless_card(ruleset: str) -> None:
    pos = battle_pos(ruleset)
    won = battle(plan(ruleset, "atreides", 3, leader="gurney_halleck", weapon="baliset"), plan(ruleset, "harkonnen", 0, leader="umman_kudu"))
    assert apply(pos, won).states["atreides"].cards == 1  # discarded unless kept, as before
    won["aggressor"]["keep"] = ["baliset"]
    assert apply(pos, won).states["atreides"].cards == 2


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_x_c_5_the_loser_keeps_nothing(ruleset: str) -> None:
    pos = battle_pos(ruleset)
    lost = battle(plan(ruleset, "atreides", 3, leader="gurney_halleck"), plan(ruleset, "harkonnen", 0, leader="umman_kudu", weapon="baliset", keep=["baliset"]))
    with pytest.raises(IllegalAction) as err:
        apply(pos, lost)
    assert (err.value.rule, err.value.field) == (pos.ruleset.cite["battle_loser"], "defender.keep")


def _called_with_cheap_hero(ruleset: str) -> dict[str, Any]:
    return battle(plan(ruleset, "atreides", 3, leader="thufir_hawat"), plan(ruleset, "harkonnen", 1, cheap_hero=True, traitor=True, keep=["cheap_hero"]))


def test_lolv_1_07_06_06_00_a_traitors_caller_may_keep_its_cheap_hero() -> None:
    pos = battle_pos(LOLV, per_faction={"harkonnen": {"leader_status": {ld: "tanks_face_up" for ld in HARKONNEN_LEADERS}}})
    assert apply(pos, _called_with_cheap_hero(LOLV)).states["harkonnen"].cards == 2
    body = _called_with_cheap_hero(LOLV)
    del body["defender"]["keep"]
    assert apply(pos, body).states["harkonnen"].cards == 1  # discarded unless kept


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_ah_x_d_2_a_traitors_caller_discards_its_cheap_hero(ruleset: str) -> None:
    pos = battle_pos(ruleset, per_faction={"harkonnen": {"leader_status": {ld: "tanks_face_up" for ld in HARKONNEN_LEADERS}}})
    with pytest.raises(IllegalAction) as err:
        apply(pos, _called_with_cheap_hero(ruleset))
    assert (err.value.rule, err.value.field) == ("AH X.C.6", "defender.keep")
    body = _called_with_cheap_hero(ruleset)
    del body["defender"]["keep"]
    assert apply(pos, body).states["harkonnen"].cards == 1


def _captive_call(ruleset: str, keep: bool) -> tuple[Any, dict[str, Any]]:
    held = {"atreides": {"leader_status": {"lady_jessica": "captured:harkonnen"}}}
    pos = battle_pos(ruleset, per_faction=held)
    body = battle(
        plan(ruleset, "atreides", 3, leader="thufir_hawat"),
        plan(ruleset, "harkonnen", 1, leader="lady_jessica", leader_of="atreides", traitor=True, keep_captive=keep),
    )
    return pos, body


def test_lolv_1_07_06_06_00_a_captive_may_be_considered_not_used() -> None:
    pos, body = _captive_call(LOLV, keep=True)
    assert leader(apply(pos, body), "atreides", "lady_jessica") == ("captured", "harkonnen")
    pos, body = _captive_call(LOLV, keep=False)
    assert leader(apply(pos, body), "atreides", "lady_jessica") == ("active", None)


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_ah_x_b_2_a_ii_a_captive_goes_home_after_its_battle(ruleset: str) -> None:
    pos, body = _captive_call(ruleset, keep=True)
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert (err.value.rule, err.value.field) == ("AH X.B.2.a.ii", "defender.keep_captive")


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH X.C.6"), ("wbc2018", "AH X.C.6"), (LOLV, "3.01.04")])
def test_ah_x_c_6_a_cheap_hero_is_not_kept_after_an_ordinary_win(ruleset: str, rule: str) -> None:
    pos = battle_pos(ruleset)
    body = battle(plan(ruleset, "atreides", 3, cheap_hero=True, keep=["cheap_hero"]), plan(ruleset, "harkonnen", 0, leader="umman_kudu"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert (err.value.rule, err.value.field) == (rule, "aggressor.keep")


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_x_c_6_b_the_winner_takes_its_losses_in_any_manner(ruleset: str) -> None:
    """AH X.C.6 (LoLV 1.07.06.05): the dialed losses come from the sectors the winner names
    (`lost_sectors`), else from the lowest sectors first."""
    forces = [at("atreides", "imperial_basin", 3, sector=8), at("atreides", "imperial_basin", 3, sector=9), at("harkonnen", "imperial_basin", 2, sector=9)]
    pos = battle_pos(ruleset, forces=forces, storm=0)
    body = battle(plan(ruleset, "atreides", 2, leader="gurney_halleck"), plan(ruleset, "harkonnen", 0, leader="umman_kudu"), territory="imperial_basin")
    default = apply(pos, body)
    assert (default.forces[("atreides", "imperial_basin", 8)], default.forces[("atreides", "imperial_basin", 9)]) == ((1, 0, 0), (3, 0, 0))
    body["aggressor"]["lost_sectors"] = [9]
    chosen = apply(pos, body)
    assert (chosen.forces[("atreides", "imperial_basin", 8)], chosen.forces[("atreides", "imperial_basin", 9)]) == ((3, 0, 0), (1, 0, 0))
    body["aggressor"]["lost_sectors"] = [10]
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.field == "aggressor.lost_sectors[0]"
