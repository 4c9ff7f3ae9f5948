"""Ending a game on time belongs to the clock and the head judge (WBC adjudication, LoLV
4.01.08): a table judge cannot declare time up, undo the head judge's decisions, or confirm
an adjudication a second time."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from gameplay import services
from gameplay.models import Game
from tests.gameplay.conftest import post_event
from tests.gameplay.recorded_game import recorded_game

pytestmark = pytest.mark.django_db

TIME_UP = {"type": "time_up", "clock": "wbc_heat"}


@pytest.fixture
def head_api(head_judge: Any, table: Any) -> APIClient:
    table.round.tournament.head_judges.add(head_judge)
    client = APIClient()
    client.force_authenticate(head_judge)
    return client


def _played(client: Any, table: Any) -> int:
    seq = 1
    for event in recorded_game()[:30]:
        seq = post_event(client, table, event, seq).json()["seq"]
    return seq


def _clock_time_up(table: Any, seq: int) -> tuple[int, list[list[str]]]:
    recorded = services.append_event(table, TIME_UP, expected_seq=seq, user=None, reason="the clock ran out")
    return recorded.game.seq, recorded.game.evaluation["adjudication"]


def test_a_table_judge_cannot_declare_time_up(judge_api: Any, table: Any) -> None:
    seq = _played(judge_api, table)
    refused = post_event(judge_api, table, TIME_UP, seq)
    assert refused.status_code == 403
    assert "time_up" in refused.json()["detail"]
    assert Game.objects.get(table=table).seq == seq


def test_a_head_judge_declares_time_up_only_with_a_reason(judge_api: Any, head_api: Any, table: Any) -> None:
    seq = _played(judge_api, table)
    missing = post_event(head_api, table, TIME_UP, seq)
    assert missing.status_code == 400 and "reason" in missing.json()
    accepted = post_event(head_api, table, TIME_UP, seq, reason="the clock's server was down; 5 h passed")
    assert accepted.status_code == 201, accepted.content


def test_the_clock_declares_time_up(judge_api: Any, table: Any) -> None:
    seq = _played(judge_api, table)
    after, _ = _clock_time_up(table, seq)
    assert after == seq + 1


def test_a_table_judge_cannot_void_time_up(judge_api: Any, table: Any) -> None:
    seq, _ = _clock_time_up(table, _played(judge_api, table))
    refused = post_event(judge_api, table, {"type": "void", "seq": seq, "reason": "more time"}, seq)
    assert refused.status_code == 403


def test_a_table_judge_cannot_void_the_head_judges_override(judge_api: Any, head_api: Any, table: Any) -> None:
    seq, ranking = _clock_time_up(table, _played(judge_api, table))
    override = {"type": "adjudication_confirmed", "winners": ranking[1], "override_reason": "miscounted spice"}
    seq = post_event(head_api, table, override, seq).json()["seq"]
    refused = post_event(judge_api, table, {"type": "void", "seq": seq, "reason": "disagree"}, seq)
    assert refused.status_code == 403
    assert "head judge" in refused.json()["detail"]
    assert Game.objects.get(table=table).seq == seq


def test_voiding_and_reconfirming_an_adjudication_are_head_judge_actions(
    judge_api: Any, head_api: Any, table: Any
) -> None:
    seq, ranking = _clock_time_up(table, _played(judge_api, table))
    confirmed = post_event(judge_api, table, {"type": "adjudication_confirmed", "winners": ranking[0]}, seq)
    assert confirmed.status_code == 201, confirmed.content  # confirming the engine's ranking: the table judge's job
    seq = confirmed.json()["seq"]
    assert post_event(judge_api, table, {"type": "void", "seq": seq, "reason": "oops"}, seq).status_code == 403
    voided = post_event(head_api, table, {"type": "void", "seq": seq, "reason": "wrong die roll recorded"}, seq)
    assert voided.status_code == 201
    seq = voided.json()["seq"]
    again = post_event(judge_api, table, {"type": "adjudication_confirmed", "winners": ranking[1]}, seq)
    assert again.status_code == 403
    assert post_event(head_api, table, {"type": "adjudication_confirmed", "winners": ranking[0]}, seq).status_code == 201
