"""A battle recorded through `POST /api/tables/{id}/game/events/` as the engine's `battle`
event (LoLV 1.07.06, AH X.C-D, WBC X), and its resolution shown before it is recorded."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay import engine_adapter
from gameplay.models import Game, GameEvent
from tests.gameplay.conftest import post_event
from tests.gameplay.full_game import final_table

pytestmark = pytest.mark.django_db

#: Turn 1 up to the battle phase: three Harkonnen forces shipped into Arrakeen beside the
#: Atreides' ten; the storm in sector 10 puts the Harkonnen first in storm order.
TO_BATTLE = [
    {"type": "phase_advanced", "phase": "storm"},
    {"type": "storm_placed", "sector": 10},
    {"type": "phase_advanced", "phase": "shipment_movement"},
    {"type": "forces_placed", "faction": "harkonnen", "territory": "arrakeen", "sector": 9, "normal": 3},
    {"type": "phase_advanced", "phase": "battle"},
]

#: The Atreides call Feyd-Rautha a traitor (WBC X, AH X.D.2: the caller wins and loses nothing).
BATTLE = {
    "type": "battle",
    "territory": "arrakeen",
    "aggressor": {"faction": "harkonnen", "dial": 2, "spice": 2, "leader": "feyd_rautha"},
    "defender": {"faction": "atreides", "dial": 1, "spice": 1, "leader": "duncan_idaho", "traitor": True},
}


def _to_battle(judge_api: Any, table: Any) -> int:
    seq = 1
    for event in TO_BATTLE:
        answer = post_event(judge_api, table, event, seq)
        assert answer.status_code == 201, answer.content
        seq += 1
    return seq


def test_x_d_2_a_battle_is_recorded_in_one_request(judge_api: Any, table_judge: Any) -> None:
    table = final_table(table_judge)
    seq = _to_battle(judge_api, table)
    position = engine_adapter.replay_bodies(e.body for e in GameEvent.objects.filter(game__table=table).order_by("seq"))
    offered = engine_adapter.battles_to_fight(position)
    assert [(b["territory"], b["aggressor"], b["defender"]) for b in offered] == [("arrakeen", "harkonnen", "atreides")]
    shown = engine_adapter.battle_resolution(position, BATTLE)
    assert (shown["outcome"], shown["winner"]) == ("traitor", "atreides")
    answer = post_event(judge_api, table, BATTLE, seq)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["event"]["type"] == "battle"
    forces = {(f["faction"], f["territory"]): f["normal"] for f in body["position"]["forces"]}
    assert ("harkonnen", "arrakeen") not in forces and forces[("atreides", "arrakeen")] == 10
    assert body["position"]["factions"]["harkonnen"]["leader_status"]["feyd_rautha"] == "tanks_face_up"
    assert [row["rule"] for row in body["position"]["losses"]] == ["AH X.D.2"]


def test_a_refused_battle_names_its_field_and_records_nothing(judge_api: Any, table_judge: Any) -> None:
    table = final_table(table_judge)
    seq = _to_battle(judge_api, table)
    wrong = {**BATTLE, "defender": {**BATTLE["defender"], "dial": 1, "spice": 40}}
    before = Game.objects.get(table=table).seq
    answer = post_event(judge_api, table, wrong, seq)
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == "defender.spice" and body["rule"] == "WBC Rule Set (AH Advanced rules)"
    assert Game.objects.get(table=table).seq == before
