"""The second expansion's battle cards in the battle event (LoLV 3.02.00): the Mirror Weapon
(3.02.04), the Portable Snooper (3.02.07) and the Stone Burner (3.02.10), each discarded after
use; no such card in the 1979 deck (AH II) nor at a WBC table (WBC Rule Set)."""

from __future__ import annotations

import pytest

from dune.engine.battle.resolve import resolve_battle
from dune.engine.errors import IllegalAction
from dune.engine.events import event_from_dict
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos, leader, plan
from tests.engine.helpers import LOLV


def test_3_02_04_the_mirror_weapon_copies_the_opponents_weapon() -> None:
    """LoLV 3.02.04: a copy of the Chaumas kills Feyd-Rautha, who had no poison defense."""
    pos = battle_pos(LOLV)
    body = battle(plan(LOLV, "atreides", 1, leader="gurney_halleck", weapon="mirror_weapon"), plan(LOLV, "harkonnen", 1, leader="feyd_rautha", weapon="chaumas"))
    after = apply(pos, body)
    assert leader(after, "harkonnen", "feyd_rautha")[0] == "tanks_face_up"
    assert leader(after, "atreides", "gurney_halleck")[0] == "tanks_face_up"
    no_weapon = battle(plan(LOLV, "atreides", 1, leader="gurney_halleck", weapon="mirror_weapon"), plan(LOLV, "harkonnen", 0, leader="feyd_rautha"))
    r = resolve_battle(pos, event_from_dict(no_weapon))
    assert r.leaders == () and r.discarded["atreides"] == ("mirror_weapon",)  # discarded after use


def test_3_02_07_the_portable_snooper_stops_poison_and_is_discarded() -> None:
    """LoLV 3.02.07."""
    pos = battle_pos(LOLV)
    body = battle(plan(LOLV, "atreides", 3, leader="gurney_halleck", defense="portable_snooper"), plan(LOLV, "harkonnen", 1, leader="feyd_rautha", weapon="chaumas"))
    after = apply(pos, body)
    assert leader(after, "atreides", "gurney_halleck") == ("active", None)
    assert after.states["atreides"].cards == 1


def test_3_02_10_the_stone_burner_counts_the_forces_left_undialed() -> None:
    """LoLV 3.02.10: 5 Atreides dial 1 (4 left) against 4 Harkonnen dialing 3 (1 left): the
    Atreides win though their total is lower; the dialed forces are lost normally; its player
    may kill both leaders whatever their defense."""
    pos = battle_pos(LOLV)
    body = battle(
        plan(LOLV, "atreides", 1, leader="duncan_idaho", weapon="stone_burner"),
        plan(LOLV, "harkonnen", 3, leader="feyd_rautha", defense="shield"),
    )
    r = resolve_battle(pos, event_from_dict(body))
    assert (r.winner, r.totals) == ("atreides", {"atreides": 4, "harkonnen": 1})
    assert r.leaders == ()
    after = apply(pos, body)
    assert after.forces[("atreides", "arrakeen", 9)] == (4, 0, 0)
    assert after.states["atreides"].cards == 1
    body["aggressor"]["stone_burner_kill"] = True
    killed = resolve_battle(pos, event_from_dict(body))
    assert {f.leader for f in killed.leaders} == {"duncan_idaho", "feyd_rautha"}
    body["aggressor"]["weapon"] = "crysknife"
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.field == "aggressor.stone_burner_kill"


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH II"), ("wbc2018", "WBC Rule Set (no expansions)")])
def test_ah_ii_no_expansion_cards_in_the_1979_deck(ruleset: str, rule: str) -> None:
    """AH II: the 1979 deck; the WBC plays no expansion cards."""
    body = battle(plan(ruleset, "atreides", 1, leader="gurney_halleck", weapon="stone_burner"), plan(ruleset, "harkonnen", 1, leader="feyd_rautha"))
    with pytest.raises(IllegalAction) as err:
        apply(battle_pos(ruleset), body)
    assert (err.value.rule, err.value.field) == (rule, "aggressor.weapon")
