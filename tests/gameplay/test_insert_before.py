"""A refused action recorded before an earlier record: the table page's refusal names the record
the engine found it holds before, and its "Record it before #N" form records an `insert`
correction once per key; the API takes the same correction."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from gameplay.models import GameEvent
from gameplay.services import read_game
from tests.gameplay.full_game import BEFORE_THE_STORM, final_table, record


def _late_move(make_user: Any) -> tuple[Any, Any, dict[str, str], int]:
    """A final at turn 1's shipment: the first faction in storm order shipped, the next one
    shipped after it; the first one's move is entered now."""
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM[:3])
    first, second = [f for f in read_game(table).evaluation["storm_order"] if f not in ("fremen", "guild")][:2]
    record(table, judge, [{"type": "forces_placed", "faction": first, "territory": "the_great_flat", "sector": 14,
                           "normal": 2}])
    second_at = record(table, judge, [{"type": "forces_placed", "faction": second, "territory": "funeral_plain",
                                       "sector": 14, "normal": 1}])
    move = {"action": "move_forces", "faction": first, "from_piece": "the_great_flat@14", "to_piece": "funeral_plain@14",
            "normal": "1", "via": "move"}
    client = Client()
    client.force_login(judge)
    return table, client, move, second_at


@pytest.mark.django_db
def test_a_refused_move_is_offered_before_the_record_it_belongs_before_and_recorded_once(make_user: Any) -> None:
    table, client, move, second_at = _late_move(make_user)
    url = f"/tables/{table.pk}/"
    refused = client.post(url, {**move, "expected_seq": second_at}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    html = refused.content.decode()
    assert f'data-insert-before="{second_at}"' in html and f"Record it before #{second_at}" in html
    assert GameEvent.objects.filter(game__table=table).count() == second_at  # nothing recorded

    insert = {**move, "action": "insert", "inner_action": "move_forces", "before": str(second_at),
              "reason": "Entered late", "expected_seq": str(second_at)}
    for _ in range(2):  # a retry under the same key: one record
        answer = client.post(url, insert, HTTP_HX_REQUEST="true", HTTP_IDEMPOTENCY_KEY="late-move-1")
        assert answer.status_code == 200 and answer["X-Record"] == str(second_at + 1)
    assert f"forces moved, before record #{second_at}" in answer.content.decode()
    events = list(GameEvent.objects.filter(game__table=table, seq__gt=second_at))
    assert [(e.type, e.body["before"], e.body["event"]["type"]) for e in events] == [
        ("insert", second_at, "forces_moved")]
    assert events[0].reason == "Entered late"


@pytest.mark.django_db
def test_an_insert_that_does_not_hold_is_refused_with_its_rule_and_changes_nothing(make_user: Any) -> None:
    table, client, move, second_at = _late_move(make_user)
    # Before the first faction's own shipment, its forces are not there to move yet.
    insert = {**move, "action": "insert", "inner_action": "move_forces", "before": str(second_at - 1),
              "reason": "Entered late", "expected_seq": str(second_at)}
    answer = client.post(f"/tables/{table.pk}/", insert, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    assert f"the forces_moved inserted by event {second_at + 1} before event {second_at - 1} would be refused" \
        in answer.content.decode()
    late = client.post(f"/tables/{table.pk}/", {**insert, "before": str(second_at + 1)}, HTTP_HX_REQUEST="true")
    assert late.status_code == 400 and f"not before event {second_at + 1}" in late.content.decode()
    assert GameEvent.objects.filter(game__table=table).count() == second_at
    blank = client.post(f"/tables/{table.pk}/", {**insert, "before": str(second_at), "reason": ""},
                        HTTP_HX_REQUEST="true")
    assert blank.status_code == 400 and "a correction needs a reason" in blank.content.decode()
