"""Quick tracking on a phone: the usual answer of two steps in one tap. The storm moved and no
worm in the spice blow, on to the battle phase (phases may be skipped, never gone back to:
LoLV 1.00.00, AH V); the Mentat Pause with nobody winning and the next turn (LoLV 1.09.04).
Each pair is one request under one key: both records or neither."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import GameEvent
from tests.e2e.test_table_venue import seeded_table
from tests.gameplay.table_page import form_of, seq_of, url, web

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def types_after(table: Any, seq: int) -> list[str]:
    return list(GameEvent.objects.filter(game__table=table, seq__gt=seq).order_by("seq").values_list("type", flat=True))


def test_rule_ah_v_the_storm_and_no_worm_are_two_records_in_one_request(make_user: Any) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=6)  # turn 7, storm phase
    client = web(judge)
    html = client.get(url(table)).content.decode()
    # The pair takes the focus and sends the storm's form; the single "Move storm" stays for a worm.
    assert '<button type="submit" class="after">Move storm</button>' in form_of(html, "move_storm")
    assert ('<button type="submit" form="next-move-storm" name="then" value="battle" class="primary"'
            ' data-next-control>Move, no worm: battle phase</button>') in html
    seq = seq_of(table)
    body = {"action": "move_storm", "sectors": "3", "then": "battle", "expected_seq": str(seq),
            "idempotency_key": "qs-1"}
    answer = client.post(url(table), body, **HTMX)
    assert answer.status_code == 200 and answer["X-Record"] == str(seq + 1)
    assert types_after(table, seq) == ["storm_moved", "phase_advanced"]
    moved, advanced = GameEvent.objects.filter(game__table=table, seq__gt=seq).order_by("seq")
    assert moved.body["sectors"] == 3 and advanced.body["phase"] == "battle"
    html = answer.content.decode()
    assert "then Battle phase (record #" in html and 'data-step="strongholds"' in html
    again = client.post(url(table), body, **HTMX)  # the same key: recorded once
    assert again.status_code == 200 and types_after(table, seq) == ["storm_moved", "phase_advanced"]


def test_the_single_storm_control_still_records_the_storm_alone(make_user: Any) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=6)
    client = web(judge)
    seq = seq_of(table)
    answer = client.post(url(table), {"action": "move_storm", "sectors": "3", "expected_seq": str(seq),
                                      "idempotency_key": "qs-2"}, **HTMX)
    assert answer.status_code == 200 and types_after(table, seq) == ["storm_moved"]
    assert 'data-step="storm_done"' in answer.content.decode()  # a worm: the spice blow is one tap away


def test_a_refused_storm_records_neither(make_user: Any) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=6)
    client = web(judge)
    seq = seq_of(table)
    answer = client.post(url(table), {"action": "move_storm", "sectors": "19", "then": "battle",
                                      "expected_seq": str(seq), "idempotency_key": "qs-3"}, **HTMX)
    assert answer.status_code == 400 and 'id="refusal"' in answer.content.decode()
    assert types_after(table, seq) == []


def test_rule_1_09_04_the_mentat_pause_and_the_next_turn_are_two_records_in_one_request(make_user: Any) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="quick_record", occurrence=6)  # turn 6, battle phase recorded
    client = web(judge)
    html = client.get(url(table)).content.decode()
    assert 'data-step="battle_done"' in html
    form = form_of(html, "then-advance_phase")
    assert 'name="then" value="next_turn" class="primary" data-next-control>Nobody wins: next turn (7)<' in form
    assert '<button type="submit" class="after">Mentat Pause</button>' in form_of(html, "next-advance_phase")
    seq = seq_of(table)
    body = {"action": "advance_phase", "phase": "mentat_pause", "then": "next_turn", "expected_seq": str(seq),
            "idempotency_key": "qm-1"}
    answer = client.post(url(table), body, **HTMX)
    assert answer.status_code == 200 and answer["X-Record"] == str(seq + 1)
    assert types_after(table, seq) == ["phase_advanced", "turn_advanced"]
    text = answer.content.decode()
    assert "then turn 7 (record #" in text and 'data-step="move_storm"' in text
    again = client.post(url(table), body, **HTMX)
    assert again.status_code == 200 and types_after(table, seq) == ["phase_advanced", "turn_advanced"]


def test_rule_1_09_04_a_victory_that_stands_refuses_the_next_turn_and_records_neither(make_user: Any) -> None:
    judge = make_user("judge1")
    # Turn 10, the last: the Atreides and Fremen hold four strongholds, their attempt confirmed.
    table = seeded_table(judge, until="win_attempt_confirmed")
    client = web(judge)
    html = client.get(url(table)).content.decode()
    assert 'data-action="then-advance_phase"' not in html  # not offered where the engine refuses it
    seq = seq_of(table)
    answer = client.post(url(table), {"action": "advance_phase", "phase": "mentat_pause", "then": "next_turn",
                                      "expected_seq": str(seq), "idempotency_key": "qm-2"}, **HTMX)
    assert answer.status_code == 400 and 'id="refusal"' in answer.content.decode()
    assert types_after(table, seq) == []
