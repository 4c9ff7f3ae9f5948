"""A leader killed, revived and killed again goes to the tanks face down (LoLV 1.05.04, AH
IX.D.5; ninth edition); and a capture after two traitors is refused citing the rule that no one
won (WBC X.24, AH X.D.3, LoLV 1.07.06.06.02)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.battle.resolve import resolve_battle
from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction
from dune.engine.events import event_from_dict
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos, leader, plan
from tests.engine.helpers import ALL_RULESETS

RULE = {"ah1979": "AH IX.D.5", "wbc2018": "AH IX.D.5", "lolv-2.8.4": "1.05.04"}


def _poisoned(ruleset: str) -> dict[str, Any]:
    return battle(plan(ruleset, "atreides", 1, leader="thufir_hawat"), plan(ruleset, "harkonnen", 2, leader="feyd_rautha", weapon="chaumas"))


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_05_04_ah_ix_d_5_a_leader_killed_again_goes_face_down(ruleset: str) -> None:
    """LoLV 1.05.04, AH IX.D.5: revived, then killed again."""
    dead = battle_pos(ruleset, per_faction={"atreides": {"leader_status": {"thufir_hawat": "tanks_face_up"}}}, phase="revival")
    revived = apply(dead, {"type": "leader_changed", "faction": "atreides", "leader": "thufir_hawat", "status": "active"})
    assert revived.leaders_revived == {("atreides", "thufir_hawat")}
    assert load_position(dump_position(revived)) == revived
    fighting = apply(apply(revived, {"type": "phase_advanced", "phase": "shipment_movement"}), {"type": "phase_advanced", "phase": "battle"})
    after = apply(fighting, _poisoned(ruleset))
    assert leader(after, "atreides", "thufir_hawat") == ("tanks_face_down", None)
    fates = resolve_battle(fighting, event_from_dict(_poisoned(ruleset))).leaders
    assert [(f.leader, f.status, f.rule) for f in fates] == [("thufir_hawat", "tanks_face_down", RULE[ruleset])]
    first = apply(battle_pos(ruleset), _poisoned(ruleset))
    assert leader(first, "atreides", "thufir_hawat") == ("tanks_face_up", None)  # killed once


def test_1_05_04_the_eighth_edition_put_it_face_up() -> None:
    pos = battle_pos("ah1979", edition=SEQUENCED, leaders_revived=[["atreides", "thufir_hawat"]])
    after = apply(pos, _poisoned("ah1979"))
    assert leader(after, "atreides", "thufir_hawat") == ("tanks_face_up", None)


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH X.D.3"), ("wbc2018", "WBC X.24"), ("lolv-2.8.4", "1.07.06.06.02")])
def test_wbc_x_24_no_capture_after_two_traitors(ruleset: str, rule: str) -> None:
    pos = battle_pos(ruleset)
    body = battle(
        plan(ruleset, "atreides", 2, leader="thufir_hawat", traitor=True),
        plan(ruleset, "harkonnen", 2, leader="feyd_rautha", traitor=True),
        capture={"faction": "atreides", "leader": "duncan_idaho"},
    )
    with pytest.raises(IllegalAction) as err:
        apply(pos, body)
    assert (err.value.rule, err.value.field) == (rule, "capture")
