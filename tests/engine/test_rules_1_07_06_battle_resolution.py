"""The battle as the engine's own event (LoLV 1.07.04-1.07.07, AH X.B-D, WBC X, XV): two
battle plans and the traitor calls, resolved by the table's ruleset.

The golden logs (`replays/battles/*.jsonl`, written by `replays/battles/generate.py`) play a traitor, the
Kwisatz Haderach with a capture, a captive used once, two traitors and a lasgun/shield
explosion in each ruleset; `test_game_log.py` replays them to their recorded positions and the
tests below check what they say.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dune.engine.battle.resolve import resolve_battle
from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction, InvalidEvent, RuleViolation, WrongPhase
from dune.engine.events import Battle, event_from_dict
from dune.engine.game_log import apply, replay
from tests.engine.battle_helpers import DIALING, battle, battle_pos, leader, plan
from tests.engine.helpers import ALL_RULESETS, LOLV, at, snap
from tests.engine.replays.battles.generate import log_for, path_for

# --- the event itself ------------------------------------------------------------------------


def test_battle_event_round_trips_through_its_dict() -> None:
    body = battle({"faction": "atreides", "dial": 2.5, "spice": 2, "leader": "thufir_hawat", "weapon": "crysknife",
         "defense": "snooper", "kwisatz_haderach": True, "lost_normal": 3, "discard": ["snooper"]},
        {"faction": "harkonnen", "dial": 0, "leader": "lady_jessica", "leader_of": "atreides", "traitor": True},
        capture={"faction": "atreides", "leader": "duncan_idaho", "kill": True},
    )
    event = event_from_dict(body)
    assert isinstance(event, Battle)
    again = event_from_dict(json.loads(json.dumps(event.to_dict())))
    assert again == event
    assert again.to_dict() == event.to_dict()
    assert event.to_dict()["aggressor"]["dial"] == 2.5


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"dial": -1}, "aggressor.dial"),
        ({"dial": 1.25}, "aggressor.dial"),
        ({"weapon": "spoon"}, "aggressor.weapon"),
        ({"colour": "red"}, "aggressor.colour"),
    ],
)
def test_battle_plan_fields_are_checked_by_name(change: dict[str, Any], field: str) -> None:
    body = battle({"faction": "atreides", "dial": 1, **change}, {"faction": "harkonnen"})
    with pytest.raises(InvalidEvent) as err:
        event_from_dict(body)
    assert field in err.value.message


# --- an ordinary battle --------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_06_higher_total_wins_loser_loses_all_winner_what_it_dialed(ruleset: str) -> None:
    """LoLV 1.07.06.01-05, AH X.C.3-6: a weapon without its defense kills the leader, who then
    adds nothing; the winner earns the killed leader's value, loses the forces it dialed and
    keeps its weapon; the loser loses every force there and its cards."""
    pos = battle_pos(ruleset)
    body = battle(plan(ruleset, "atreides", 3, leader="thufir_hawat", weapon="crysknife", defense="shield"),
        plan(ruleset, "harkonnen", 2, leader="feyd_rautha", weapon="chaumas", defense="shield"),
    )
    r = resolve_battle(pos, event_from_dict(body))
    assert r.outcome == "won" and r.winner == "harkonnen"  # 2 + 6 against 3 (Thufir poisoned)
    after = apply(pos, body)
    assert not any(f == "atreides" for f, _t, _s in after.forces)
    assert after.forces[("harkonnen", "arrakeen", 9)] == (2, 0, 0)
    assert leader(after, "atreides", "thufir_hawat")[0] == "tanks_face_up"
    paid = 2 if ruleset in DIALING else 0
    assert after.states["harkonnen"].spice == 10 + 5 - paid  # Thufir's value
    assert after.states["harkonnen"].cards == 2  # keeps Chaumas and the shield
    assert after.states["atreides"].cards == 0  # discards both
    assert after.states["atreides"].tanks == (10, 0)
    rules = {row.rule for row in r.rulings}
    assert pos.ruleset.cite["battle_weapons"] in rules and pos.ruleset.cite["battle_killed"] in rules


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_06_00_the_aggressor_wins_a_tie(ruleset: str) -> None:
    """LoLV 1.07.06.00, AH X.C.2."""
    pos = battle_pos(ruleset)
    body = battle(plan(ruleset, "atreides", 2, leader="gurney_halleck"), plan(ruleset, "harkonnen", 3, leader="piter_de_vries"))
    r = resolve_battle(pos, event_from_dict(body))
    assert r.winner == "atreides" and r.rulings[0].rule == pos.ruleset.cite["battle_tie"]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_04_04_a_faction_with_a_leader_must_play_one(ruleset: str) -> None:
    """LoLV 1.07.04.04-05, AH X.B.2.a-b, WBC X.12: and without one, no card. (From the ninth
    edition AH and the WBC add the lowest leader instead of refusing: `test_rules_wbc_x_12_...`.)"""
    pos = battle_pos(ruleset, edition=SEQUENCED)
    body = battle(plan(ruleset, "atreides", 2), plan(ruleset, "harkonnen", 1, leader="piter_de_vries"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.rule == pos.ruleset.cite["battle_leader"] and err.value.field == "aggressor.leader"
    dead = {"leader_status": {ld: "tanks_face_up" for ld in ("thufir_hawat", "lady_jessica", "gurney_halleck", "duncan_idaho", "dr_wellington_yueh")}}
    pos = battle_pos(ruleset, per_faction={"atreides": dead}, edition=SEQUENCED)
    apply(pos, body)  # no leader left: the battle goes on without one
    body["aggressor"]["weapon"] = "stunner"
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.rule == pos.ruleset.cite["battle_no_leader"]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_04_01_the_dial_is_at_most_the_forces_there(ruleset: str) -> None:
    """LoLV 1.07.04.01 (with spice dialing 1.13.03: unpaid forces count half), AH X.B.1, WBC X.13."""
    pos = battle_pos(ruleset, edition=SEQUENCED)
    paid = {"spice": 5} if ruleset in DIALING else {}
    body = battle(plan(ruleset, "atreides", 6, leader="gurney_halleck", **paid), plan(ruleset, "harkonnen", 1, leader="piter_de_vries"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.field == "aggressor.dial"
    if ruleset in DIALING:
        body = battle(plan(ruleset, "atreides", 4, leader="gurney_halleck", spice=2), plan(ruleset, "harkonnen", 1, leader="piter_de_vries"))
        with pytest.raises(IllegalAction):
            apply(pos, body)  # 2 paid + 3 unpaid halves = 3.5
        body["aggressor"]["dial"] = 3.5
        after = apply(pos, body)
        assert after.states["atreides"].spice == 8
        assert ("atreides", "arrakeen", 9) not in after.forces  # all 5 make up the 3.5
    else:
        body = battle(plan(ruleset, "atreides", 2, leader="gurney_halleck", spice=2), plan(ruleset, "harkonnen", 1, leader="piter_de_vries"))
        with pytest.raises(IllegalAction) as err:
            apply(pos, body)
        assert err.value.field == "aggressor.spice"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_04_03_a_leader_fights_in_one_territory_a_turn(ruleset: str) -> None:
    """LoLV 1.07.04.03, AH X.C.8."""
    forces = [at("atreides", "arrakeen", 5), at("harkonnen", "arrakeen", 4), at("atreides", "carthag", 3), at("harkonnen", "carthag", 10)]
    pos = battle_pos(ruleset, forces=forces)
    first = battle(plan(ruleset, "atreides", 3, leader="gurney_halleck"), plan(ruleset, "harkonnen", 0, leader="umman_kudu"))
    pos = apply(pos, first)
    second = battle(plan(ruleset, "atreides", 1, leader="gurney_halleck"), plan(ruleset, "harkonnen", 0, leader="piter_de_vries"), territory="carthag")
    with pytest.raises(IllegalAction) as err:
        apply(pos, second)
    assert err.value.rule == pos.ruleset.cite["battle_dedicated"]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_01_a_battle_needs_both_factions_there_and_the_battle_phase(ruleset: str) -> None:
    """LoLV 1.07.01-1.07.02, AH X.A: who fights where, and the aggressor first in storm order."""
    pos = battle_pos(ruleset)
    wrong = battle(plan(ruleset, "atreides", 1, leader="gurney_halleck"), plan(ruleset, "emperor", 0, leader="caid"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, wrong)
    assert err.value.rule == pos.ruleset.cite["battle_forces"]
    swapped = battle(plan(ruleset, "harkonnen", 0, leader="umman_kudu"), plan(ruleset, "atreides", 1, leader="gurney_halleck"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, swapped)
    assert err.value.rule == pos.ruleset.cite["battle_order"]
    assert err.value.rule == {"ah1979": "AH X.A.3", "wbc2018": "WBC X.1", LOLV: "1.07.02"}[ruleset]
    moving = load_position({**dump_position(pos), "phase": "shipment_movement"})
    with pytest.raises(WrongPhase):
        apply(moving, battle(plan(ruleset, "atreides", 1, leader="gurney_halleck"), plan(ruleset, "harkonnen", 0, leader="umman_kudu")))


# --- traitors and explosions ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_06_06_a_traitor_call_wins_and_loses_nothing(ruleset: str) -> None:
    """LoLV 1.07.06.06.00-01, AH X.D.1-2: the caller wins, loses nothing and earns the traitor's
    value; the traitor goes to the tanks; the other side loses its forces and cards. A traitor
    call comes before a lasgun/shield explosion (1.07.06.06.00, WBC X.25, AH XXI.A.1.a)."""
    pos = battle_pos(ruleset)
    body = battle(plan(ruleset, "atreides", 3, leader="thufir_hawat", weapon="lasgun"),
        plan(ruleset, "harkonnen", 1, leader="feyd_rautha", defense="shield", traitor=True),
    )
    r = resolve_battle(pos, event_from_dict(body))
    assert (r.outcome, r.winner) == ("traitor", "harkonnen")
    assert pos.ruleset.cite["traitor_explosion"] in {x.rule for x in r.rulings}
    after = apply(pos, body)
    assert after.forces[("harkonnen", "arrakeen", 9)] == (4, 0, 0)
    assert ("atreides", "arrakeen", 9) not in after.forces
    assert leader(after, "atreides", "thufir_hawat")[0] == "tanks_face_up"
    assert leader(after, "harkonnen", "feyd_rautha")[0] == "active"
    assert after.states["harkonnen"].spice == 10 + 5  # keeps its dialed spice (LoLV 1.13.04)
    assert after.states["harkonnen"].cards == 2
    back = not any(row[1:3] == ("harkonnen", "feyd_rautha") for row in after.fought)
    assert back == (ruleset == LOLV)  # back in the pool under LoLV 1.07.06.06.00 only


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_06_06_02_two_traitors_nobody_wins(ruleset: str) -> None:
    """LoLV 1.07.06.06.02, AH X.D.3, WBC X.24: and nobody takes a leader after it (WBC X.24)."""
    pos = battle_pos(ruleset)
    body = battle(plan(ruleset, "atreides", 2, leader="thufir_hawat", traitor=True),
        plan(ruleset, "harkonnen", 2, leader="feyd_rautha", traitor=True),
    )
    after = apply(pos, body)
    assert not any(t == "arrakeen" for _f, t, _s in after.forces)
    assert leader(after, "atreides", "thufir_hawat")[0] == "tanks_face_up"
    assert leader(after, "harkonnen", "feyd_rautha")[0] == "tanks_face_up"
    paid = 2 if ruleset in DIALING else 0
    assert after.states["atreides"].spice == after.states["harkonnen"].spice == 10 - paid
    body["capture"] = {"faction": "atreides", "leader": "duncan_idaho"}
    with pytest.raises(IllegalAction):
        apply(pos, body)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_06_06_a_traitor_is_called_on_a_leader_disc_only(ruleset: str) -> None:
    """LoLV 1.07.06.06, AH X.D.1: not on a Cheap Hero nor a side without a leader."""
    pos = battle_pos(ruleset)
    body = battle(plan(ruleset, "atreides", 2, cheap_hero=True), plan(ruleset, "harkonnen", 1, leader="feyd_rautha", traitor=True))
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.rule == pos.ruleset.cite["traitor_call"] and err.value.field == "defender.traitor"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_3_01_14_lasgun_and_shield_explode_taking_everything_there(ruleset: str) -> None:
    """LoLV 3.01.14, AH questions A.3, WBC X.23: every force in the territory, a third party's
    and the Bene Gesserit's advisors or coexisting tokens too, and its spice; both leaders die,
    nobody earns spice for them, every card played is discarded, nobody wins."""
    bg = at("bene_gesserit", "the_great_flat", 0, 0, 1) if ruleset == LOLV else at("bene_gesserit", "the_great_flat", 1)
    forces = [at("emperor", "the_great_flat", 3), at("guild", "the_great_flat", 2), at("fremen", "the_great_flat", 3), bg]
    extra = {"coexisting": ["the_great_flat"]} if ruleset != LOLV else {}
    pos = battle_pos(ruleset, forces=forces, spice_on_board={"the_great_flat": 10}, **extra)
    body = battle(plan(ruleset, "emperor", 1, leader="burseg", weapon="lasgun"),
        plan(ruleset, "guild", 1, leader="master_bewt", defense="shield"),
        territory="the_great_flat",
    )
    r = resolve_battle(pos, event_from_dict(body))
    assert (r.outcome, r.winner) == ("explosion", None)
    after = apply(pos, body)
    assert not any(t == "the_great_flat" for _f, t, _s in after.forces)
    assert "the_great_flat" not in after.spice_on_board
    assert leader(after, "emperor", "burseg")[0] == leader(after, "guild", "master_bewt")[0] == "tanks_face_up"
    assert {row[0] for row in after.losses} == {"emperor", "guild", "fremen", "bene_gesserit"}
    assert {row[6] for row in after.losses} == {pos.ruleset.cite["explosion"]}
    assert after.spice_lost[0][2] == 10


# --- the Kwisatz Haderach ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_01_10_kwisatz_haderach_awakens_after_seven_losses(ruleset: str) -> None:
    """LoLV 2.01.10-2.01.11, AH X.B.2.a.i, WBC XV.1: asleep before seven Atreides forces are
    lost in battles; awake at once after; +2 to its leader; never alone (AH X.B.2.a.i)."""
    pos = battle_pos(ruleset, kh_losses=6, edition=SEQUENCED)
    body = battle(plan(ruleset, "atreides", 2, leader="gurney_halleck", kwisatz_haderach=True), plan(ruleset, "harkonnen", 4, leader="feyd_rautha"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.rule == pos.ruleset.cite["kh_active"]
    pos = battle_pos(ruleset, kh_losses=7)
    r = resolve_battle(pos, event_from_dict(body))
    assert r.totals == {"atreides": 8, "harkonnen": 10}
    alone = battle(plan(ruleset, "atreides", 2, kwisatz_haderach=True), plan(ruleset, "harkonnen", 4, leader="feyd_rautha"))
    dead = {"leader_status": {ld: "tanks_face_up" for ld in ("thufir_hawat", "lady_jessica", "gurney_halleck", "duncan_idaho", "dr_wellington_yueh")}}
    with pytest.raises(IllegalAction):
        apply(battle_pos(ruleset, kh_losses=7, per_faction={"atreides": dead}, edition=SEQUENCED), alone)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_01_12_a_leader_with_the_kwisatz_haderach_is_no_traitor(ruleset: str) -> None:
    """LoLV 2.01.12, AH X.D.1.b."""
    pos = battle_pos(ruleset, kh_losses=9)
    body = battle(plan(ruleset, "atreides", 2, leader="gurney_halleck", kwisatz_haderach=True),
        plan(ruleset, "harkonnen", 1, leader="feyd_rautha", traitor=True),
    )
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.rule == pos.ruleset.cite["traitor_kh"]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_01_11_kwisatz_haderach_once_a_turn(ruleset: str) -> None:
    """LoLV 2.01.11 and WBC XV.3: one territory a turn; AH X.B.2.a.i: one leader a turn."""
    forces = [at("atreides", "arrakeen", 5), at("harkonnen", "arrakeen", 4), at("atreides", "carthag", 3), at("harkonnen", "carthag", 10)]
    pos = battle_pos(ruleset, forces=forces, kh_losses=8, edition=SEQUENCED)
    pos = apply(pos, battle(plan(ruleset, "atreides", 3, leader="gurney_halleck", kwisatz_haderach=True), plan(ruleset, "harkonnen", 0, leader="umman_kudu")))
    again = battle(plan(ruleset, "atreides", 1, leader="thufir_hawat", kwisatz_haderach=True), plan(ruleset, "harkonnen", 0, leader="piter_de_vries"), territory="carthag")
    with pytest.raises(IllegalAction) as err:
        apply(pos, again)
    assert err.value.rule == pos.ruleset.cite["kh_once"]


def test_2_01_10_kwisatz_haderach_is_advanced_only_in_the_lolv() -> None:
    """LoLV 2.01.00: the Basic game plays 2.01.01-2.01.09."""
    pos = battle_pos(LOLV, kh_losses=9, options=[])
    body = battle(plan(LOLV, "atreides", 2, leader="gurney_halleck", kwisatz_haderach=True, spice=0), plan(LOLV, "harkonnen", 1, leader="feyd_rautha", spice=0))
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.rule == "2.01.00"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_01_13_the_kwisatz_haderach_dies_only_in_an_explosion(ruleset: str) -> None:
    """LoLV 2.01.13, AH X.B.2.a.i: a poisoned leader does not take it along; an explosion does."""
    pos = battle_pos(ruleset, kh_losses=9)
    body = battle(plan(ruleset, "atreides", 2, leader="gurney_halleck", kwisatz_haderach=True, defense="shield"), plan(ruleset, "harkonnen", 1, leader="feyd_rautha", weapon="lasgun"))
    after = apply(pos, body)
    assert after.kh_dead
    assert after.kh_losses == 9 + 5
    later = load_position({**dump_position(after), "turn": 4})
    assert later.kh_dead


# --- the Harkonnen capture -----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_10_harkonnen_take_a_leader_after_a_battle_won(ruleset: str) -> None:
    """LoLV 2.05.10 (02: captured, 01: killed for 2 spice), AH X.B.2.a.ii, WBC X.16, X.18."""
    pos = battle_pos(ruleset)
    won = battle(plan(ruleset, "atreides", 1, leader="duncan_idaho"), plan(ruleset, "harkonnen", 2, leader="feyd_rautha"))
    taken = apply(pos, {**won, "capture": {"faction": "atreides", "leader": "lady_jessica"}})
    assert leader(taken, "atreides", "lady_jessica") == ("captured", "harkonnen")
    killed = apply(pos, {**won, "capture": {"faction": "atreides", "leader": "lady_jessica", "kill": True}})
    assert leader(killed, "atreides", "lady_jessica") == ("tanks_face_down", None)
    paid = 2 if ruleset in DIALING else 0
    assert killed.states["harkonnen"].spice == 10 - paid + 2
    lost = battle(plan(ruleset, "atreides", 5, leader="thufir_hawat"), plan(ruleset, "harkonnen", 0, leader="umman_kudu"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, {**lost, "capture": {"faction": "atreides", "leader": "lady_jessica"}})
    assert err.value.field == "capture"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_10_only_an_active_leader_of_the_loser_is_taken(ruleset: str) -> None:
    """LoLV 2.05.10.00, AH X.B.2.a.ii: not from the tanks, not one that fought elsewhere."""
    pos = battle_pos(ruleset, per_faction={"atreides": {"leader_status": {"lady_jessica": "tanks_face_up"}}})
    won = battle(plan(ruleset, "atreides", 1, leader="duncan_idaho"), plan(ruleset, "harkonnen", 2, leader="feyd_rautha"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, {**won, "capture": {"faction": "atreides", "leader": "lady_jessica"}})
    assert err.value.rule == pos.ruleset.cite["capture"] and err.value.field == "capture.leader"
    # the leader of this battle may be taken when it survived
    after = apply(pos, {**won, "capture": {"faction": "atreides", "leader": "duncan_idaho"}})
    assert leader(after, "atreides", "duncan_idaho") == ("captured", "harkonnen")


def test_2_05_10_capture_is_advanced_only_in_the_lolv() -> None:
    """LoLV 2.05.00: the Basic game plays 2.05.01-2.05.09."""
    pos = battle_pos(LOLV, options=[])
    won = battle(plan(LOLV, "atreides", 1, leader="duncan_idaho", spice=0), plan(LOLV, "harkonnen", 2, leader="feyd_rautha", spice=0))
    with pytest.raises(IllegalAction) as err:
        apply(pos, {**won, "capture": {"faction": "atreides", "leader": "lady_jessica"}})
    assert err.value.rule == "2.05.00"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_10_02_a_captive_fights_once_and_goes_home(ruleset: str) -> None:
    """LoLV 2.05.10.02, AH X.B.2.a.ii; killed, it goes to its owner's tanks (2.05.12)."""
    held = {"atreides": {"leader_status": {"lady_jessica": "captured:harkonnen"}}}
    pos = battle_pos(ruleset, per_faction=held)
    body = battle(plan(ruleset, "atreides", 3, leader="gurney_halleck"), plan(ruleset, "harkonnen", 1, leader="lady_jessica", leader_of="atreides"))
    after = apply(pos, body)
    assert leader(after, "atreides", "lady_jessica") == ("active", None)
    poisoned = battle(plan(ruleset, "atreides", 3, leader="gurney_halleck", weapon="gom_jabbar"), plan(ruleset, "harkonnen", 1, leader="lady_jessica", leader_of="atreides"))
    after = apply(pos, poisoned)
    assert leader(after, "atreides", "lady_jessica") == ("tanks_face_up", None)
    # a leader the Harkonnen do not hold is not theirs to play
    with pytest.raises(IllegalAction):
        apply(battle_pos(ruleset), body)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_11_captives_go_home_when_every_harkonnen_leader_is_dead(ruleset: str) -> None:
    """LoLV 2.05.11, AH X.B.2.a.ii: at once, within the battle that kills the last one."""
    hark = {ld: "tanks_face_up" for ld in ("beast_rabban", "piter_de_vries", "captain_iakin_nefud", "umman_kudu")}
    per = {"harkonnen": {"leader_status": hark}, "atreides": {"leader_status": {"lady_jessica": "captured:harkonnen"}}}
    pos = battle_pos(ruleset, per_faction=per)
    body = battle(plan(ruleset, "atreides", 3, leader="gurney_halleck", weapon="stunner"), plan(ruleset, "harkonnen", 1, leader="feyd_rautha"))
    r = resolve_battle(pos, event_from_dict(body))
    assert pos.ruleset.cite["prison_break"] in {x.rule for x in r.rulings}
    after = apply(pos, body)
    assert leader(after, "atreides", "lady_jessica") == ("active", None)


# --- the golden logs -------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_battle_replays_record_each_kind_of_battle(ruleset: str) -> None:
    """The golden logs hold a traitor, the Kwisatz Haderach and a capture, a captive used once,
    two traitors and an explosion, and replay to what their generator writes today."""
    rows = [json.loads(line) for line in Path(path_for(ruleset)).read_text(encoding="utf-8").splitlines()]
    events = [r for r in rows if "type" in r]
    assert events == log_for(ruleset)
    final = replay(events)
    assert dump_position(final) == rows[-1]["snapshot"]
    atreides = dict(zip([ld.id for ld in final.sheet("atreides").leaders], final.states["atreides"].leaders, strict=True))
    assert atreides["duncan_idaho"][0] == "tanks_face_up"  # the traitor
    assert atreides["lady_jessica"] == ("active", None)  # captured, used once, home
    assert final.kh_losses == 17
    assert final.states["atreides"].tanks == (17, 0)
    for faction, name in (("emperor", "caid"), ("guild", "staban_tuek"), ("emperor", "burseg"), ("guild", "master_bewt")):
        assert leader(final, faction, name)[0] == "tanks_face_up"
    assert not any(t == "the_great_flat" for _f, t, _s in final.forces)
    harkonnen_spice = 12 if ruleset == "ah1979" else 6
    assert final.states["harkonnen"].spice == harkonnen_spice


def test_battle_refusal_names_the_rule_of_the_table() -> None:
    """A refusal cites the table's own ruleset."""
    for ruleset, rule in (("ah1979", "AH X.B.2.a"), ("wbc2018", "WBC X.12"), (LOLV, "1.07.04.04")):
        pos = battle_pos(ruleset, edition=SEQUENCED)
        body = battle(plan(ruleset, "atreides", 1), plan(ruleset, "harkonnen", 1, leader="feyd_rautha"))
        with pytest.raises(RuleViolation) as err:
            apply(pos, body)
        assert err.value.rule == rule


# --- what forces and cards are worth ------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_04_06_weapons_and_defenses_in_their_own_slots(ruleset: str) -> None:
    """LoLV 1.07.04.06, AH X.B.3: a weapon, a defense, or a worthless card in either place; no
    more cards than the hand holds."""
    pos = battle_pos(ruleset, edition=SEQUENCED)
    swapped = battle(plan(ruleset, "atreides", 1, leader="gurney_halleck", weapon="shield"), plan(ruleset, "harkonnen", 1, leader="feyd_rautha"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, swapped)
    assert err.value.rule == pos.ruleset.cite["battle_cards"] and err.value.field == "aggressor.weapon"
    worthless = battle(plan(ruleset, "atreides", 1, leader="gurney_halleck", weapon="baliset", defense="kulon"), plan(ruleset, "harkonnen", 4, leader="feyd_rautha"))
    after = apply(pos, worthless)
    assert after.states["atreides"].cards == 0
    one_card = battle_pos(ruleset, per_faction={"atreides": {"cards": 1}})
    with pytest.raises(IllegalAction):
        apply(one_card, worthless)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_06_05_a_winner_discards_worthless_cards_and_what_it_chooses(ruleset: str) -> None:
    """LoLV 1.07.06.05, AH X.C.6: worthless cards and the Cheap Hero go; the rest stays unless
    the winner discards it."""
    pos = battle_pos(ruleset)
    body = battle(plan(ruleset, "atreides", 3, cheap_hero=True, weapon="stunner", discard=["stunner"]),
        plan(ruleset, "harkonnen", 0, leader="umman_kudu"),
    )
    after = apply(pos, body)
    assert after.states["atreides"].cards == 0
    assert leader(after, "harkonnen", "umman_kudu")[0] == "tanks_face_up"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_x_c_6_b_the_winner_takes_its_losses_as_it_dialed(ruleset: str) -> None:
    """AH X.C.6.b (LoLV 1.07.04.01): a starred force counts two in taking losses (AH X.B.1.a,
    LoLV 2.04.18 Fedaykin; 2.04.21 and the WBC house rules: the Fremen need no spice); the
    losses must make up the dial and no more."""
    forces = [at("fremen", "the_great_flat", 2, 2), at("emperor", "the_great_flat", 3)]
    pos = battle_pos(ruleset, forces=forces, per_faction={"fremen": {"reserves_special": 1}})
    emperor = plan(ruleset, "emperor", 0, leader="bashar")
    default = apply(pos, battle(emperor, plan(ruleset, "fremen", 4, leader="jamis"), territory="the_great_flat"))
    assert default.forces[("fremen", "the_great_flat", 14)] == (0, 1, 0)  # 2 normal + 1 Fedaykin
    chosen = apply(pos, battle(emperor, plan(ruleset, "fremen", 4, leader="jamis", lost_normal=0, lost_special=2), territory="the_great_flat"))
    assert chosen.forces[("fremen", "the_great_flat", 14)] == (2, 0, 0)
    with pytest.raises(IllegalAction) as err:
        apply(pos, battle(emperor, plan(ruleset, "fremen", 4, leader="jamis", lost_normal=2, lost_special=2), territory="the_great_flat"))
    assert err.value.rule == pos.ruleset.cite["battle_winner_losses"]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_03_09_sardaukar_count_one_against_the_fremen(ruleset: str) -> None:
    """LoLV 2.03.08-09, AH X.B.1.b: starred Emperor forces are worth two, one against the Fremen."""
    forces = [at("fremen", "the_great_flat", 3), at("emperor", "the_great_flat", 0, 2), at("atreides", "arrakeen", 2), at("emperor", "arrakeen", 0, 2)]
    pos = battle_pos(ruleset, forces=forces, per_faction={"emperor": {"reserves_special": 1}}, storm=5, edition=SEQUENCED)
    paid = {"spice": 2} if ruleset in DIALING else {}
    against_fremen = battle(plan(ruleset, "emperor", 3, leader="bashar", **paid), plan(ruleset, "fremen", 0, leader="jamis"), territory="the_great_flat")
    with pytest.raises(IllegalAction) as err:
        apply(pos, against_fremen)
    assert err.value.field == "aggressor.dial"
    against_atreides = battle(plan(ruleset, "emperor", 4, leader="bashar", **paid), plan(ruleset, "atreides", 0, leader="gurney_halleck"))
    after = apply(pos, against_atreides)
    assert ("emperor", "arrakeen", 9) not in after.forces  # the two Sardaukar make up the 4


def test_1_13_03_02_spice_dialing_halves_unpaid_forces_and_suboids() -> None:
    """LoLV 1.13.03-1.13.03.02 (halves on the wheel), 2.07.09 (Cyborgs worth two), 2.07.23
    (Suboids always half); a traitor's winner keeps its dialed spice (1.13.04)."""
    forces = [at("ixians", "arrakeen", 4, 2), at("atreides", "arrakeen", 3)]
    factions = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "ixians")
    per = {"ixians": {"reserves": 10, "reserves_special": 5, "tanks": 4, "spice": 10, "cards": 2, "leader_status": {}}}
    data = snap(LOLV, factions=factions, forces=forces, phase="battle", per_faction=per)
    data["factions"]["atreides"].update({"spice": 10, "cards": 2, "reserves": 10, "tanks": 7, "leader_status": {}})
    pos = load_position(data)
    # 2 paid Cyborgs (4) + 4 Suboids at half (2): 6 at most
    too_much = battle(plan(LOLV, "atreides", 0, leader="gurney_halleck"), {"faction": "ixians", "dial": 6.5, "spice": 2, "leader": "cammar_pilru"})
    with pytest.raises(IllegalAction):
        apply(pos, too_much)
    ok = battle(plan(LOLV, "atreides", 0, leader="gurney_halleck"), {"faction": "ixians", "dial": 4.5, "spice": 2, "leader": "cammar_pilru"})
    assert resolve_battle(pos, event_from_dict(ok)).winner == "ixians"
    traitor = battle(plan(LOLV, "atreides", 3, leader="gurney_halleck", traitor=True), {"faction": "ixians", "dial": 1, "spice": 1, "leader": "cammar_pilru"})
    after = apply(pos, traitor)
    assert after.states["atreides"].spice == 10 + 1  # its dialed spice kept, and Cammar Pilru's value
    assert after.states["ixians"].spice == 9


def test_2_08_14_zoal_takes_his_opponents_value() -> None:
    """LoLV 2.08.14: Zoal is worth the opposing leader disc."""
    forces = [at("tleilaxu", "arrakeen", 2), at("atreides", "arrakeen", 2)]
    factions = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "tleilaxu")
    data = snap(LOLV, factions=factions, forces=forces, phase="battle")
    for f in ("atreides", "tleilaxu"):
        data["factions"][f].update({"spice": 10, "cards": 2, "reserves": 13, "tanks": 5, "leader_status": {}})
    pos = load_position(data)
    body = battle(plan(LOLV, "atreides", 1, leader="thufir_hawat"), plan(LOLV, "tleilaxu", 1, leader="zoal"))
    r = resolve_battle(pos, event_from_dict(body))
    assert r.totals == {"atreides": 6, "tleilaxu": 6} and r.winner == "atreides"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_13_a_captive_may_be_called_traitor(ruleset: str) -> None:
    """LoLV 2.05.13, AH X.D.1.c, WBC X.19: a captive the Harkonnen play may be called traitor."""
    held = {"atreides": {"leader_status": {"lady_jessica": "captured:harkonnen"}}}
    pos = battle_pos(ruleset, per_faction=held)
    body = battle(plan(ruleset, "atreides", 0, leader="gurney_halleck", traitor=True), plan(ruleset, "harkonnen", 3, leader="lady_jessica", leader_of="atreides"))
    after = apply(pos, body)
    assert leader(after, "atreides", "lady_jessica") == ("tanks_face_up", None)
    assert after.states["atreides"].spice == 10 + 5


def test_wbc_xv_2_the_kwisatz_haderach_goes_with_an_atreides_leader_only() -> None:
    """WBC XV.2 (LoLV 2.01.11, AH X.B.2.a.i): only with the Atreides' own leader or Cheap Hero."""
    pos = battle_pos("wbc2018", kh_losses=8, edition=SEQUENCED)
    body = battle(plan("wbc2018", "atreides", 0, leader="gurney_halleck", kwisatz_haderach=True), plan("wbc2018", "harkonnen", 0, leader="feyd_rautha", kwisatz_haderach=True))
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert err.value.field == "defender.kwisatz_haderach"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_10_01_a_kill_is_face_down_for_two_spice(ruleset: str) -> None:
    """LoLV 2.05.10.01, WBC X.18, AH X.B.2.a.ii."""
    pos = battle_pos(ruleset)
    won = battle(plan(ruleset, "atreides", 1, leader="duncan_idaho"), plan(ruleset, "harkonnen", 2, leader="feyd_rautha"))
    r = resolve_battle(pos, event_from_dict({**won, "capture": {"faction": "atreides", "leader": "thufir_hawat", "kill": True}}))
    assert any(f.leader == "thufir_hawat" and f.status == "tanks_face_down" for f in r.leaders)
    assert r.spice.get("harkonnen", 0) == 2 - (2 if ruleset in DIALING else 0)
