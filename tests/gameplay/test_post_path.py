"""A table judge's post, the request an event day sends most of at its busiest moment, is
written out in SQL (token, table, lock, append, position, key): it must answer and record
exactly as the ORM did, and cost a fixed handful of statements."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from foundation.models import IdempotencyRecord
from gameplay import engine_adapter, services
from gameplay.models import Game, GameEvent
from tournament.models import Round

pytestmark = pytest.mark.django_db

EVENT = {"type": "spice_set", "faction": "emperor", "amount": 7}


def token_client(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def post(client: APIClient, table: Any, seq: int, key: str | None = None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(
        f"/api/tables/{table.pk}/game/events/", {"event": EVENT, "expected_seq": seq}, format="json", **headers
    )


def test_a_token_post_records_the_event_its_position_and_its_key(table: Any, table_judge: Any) -> None:
    services.game_for(table)
    answer = post(token_client(table_judge), table, 1, key="k-1")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["seq"] == 2 and body["event"]["author"] == "judge1" and body["event"]["type"] == "spice_set"
    event = GameEvent.objects.get(game__table=table, seq=2)
    assert event.body["amount"] == 7 and event.author == table_judge and event.created_at is not None
    game = Game.objects.get(table=table)
    assert game.seq == 2 and game.position == body["position"] and game.evaluation == body["evaluation"]
    record = IdempotencyRecord.objects.get(key="k-1")
    assert record.user == table_judge and record.status == 201 and record.response == body


def test_a_repeated_key_answers_the_stored_answer_and_records_nothing(table: Any, table_judge: Any) -> None:
    services.game_for(table)
    client = token_client(table_judge)
    first = post(client, table, 1, key="again")
    repeat = post(client, table, 1, key="again")
    assert repeat.status_code == 201 and repeat["Idempotent-Replayed"] == "true" and repeat.json() == first.json()
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_a_post_with_no_position_in_this_process_reads_the_stored_one_with_its_lock(
    table: Any, table_judge: Any, django_assert_num_queries: Any
) -> None:
    """Another web process recorded the last event (or this one restarted): the position comes
    with the row's lock, no query more."""
    services.game_for(table)
    client = token_client(table_judge)
    post(client, table, 1)
    engine_adapter.forget_all()
    with django_assert_num_queries(6):  # no idempotency key: nothing stored under one
        answer = post(client, table, 2)
    assert answer.status_code == 201 and answer.json()["seq"] == 3
    assert answer.json()["position"]["factions"] == Game.objects.get(table=table).position["factions"]


def test_an_unknown_or_inactive_token_is_refused_as_before_and_records_nothing(table: Any, table_judge: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    refused = post(client, table, 1)
    assert refused.status_code == 403 and refused.json()["detail"] == "Invalid token."
    client = token_client(table_judge)
    table_judge.is_active = False
    table_judge.save()
    refused = post(client, table, 1)
    assert refused.status_code == 403 and refused.json()["detail"] == "User inactive or deleted."
    assert not GameEvent.objects.filter(game__table=table, seq=2).exists()


def test_a_post_to_no_such_table_is_a_404_naming_it(table_judge: Any) -> None:
    answer = post(token_client(table_judge), type("T", (), {"pk": 999999})(), 1)
    assert answer.status_code == 404 and "table" in str(answer.json()).lower()


def test_a_token_post_costs_six_statements_whatever_the_log(
    table: Any, table_judge: Any, django_assert_num_queries: Any
) -> None:
    """The token with its user, the key's stored answer (none) and the table with its round
    (one statement), then in one transaction: the game's lock, the event with the position
    (one statement on PostgreSQL), the key."""
    services.game_for(table)
    client = token_client(table_judge)
    for seq in range(1, 30):
        assert post(client, table, seq).status_code == 201
    with django_assert_num_queries(6):
        assert post(client, table, 30, key="counted").status_code == 201


def test_a_retry_answered_from_its_stored_answer_reads_no_events(
    table: Any, table_judge: Any, django_assert_num_queries: Any
) -> None:
    """The token with the stored answer and the table (who judges it), in one statement: a
    retry sent after its first answer neither locks the game nor opens a transaction, and
    never reads the log."""
    services.game_for(table)
    client = token_client(table_judge)
    for seq in range(1, 20):
        assert post(client, table, seq).status_code == 201
    first = post(client, table, 20, key="lost-answer")
    with django_assert_num_queries(1) as captured:
        repeat = post(client, table, 20, key="lost-answer")
    assert repeat.status_code == 201 and repeat.json() == first.json()
    statements = [q["sql"] for q in captured.captured_queries]
    assert not any("gameplay_game" in sql or "FOR UPDATE" in sql or "SAVEPOINT" in sql for sql in statements)


def whole_way(user_client: APIClient, settings: Any) -> APIClient:
    """A client of the same token through every middleware and the view (no early answer)."""
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if not m.endswith("StoredAnswerMiddleware")]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=user_client._credentials["HTTP_AUTHORIZATION"])
    return client


def test_a_retry_answered_first_is_the_answer_the_view_sends_byte_for_byte(
    table: Any, table_judge: Any, settings: Any
) -> None:
    """The retry answered before the view (web.idempotency_api.StoredAnswerMiddleware) is the
    view's own answer from the record: status, body and headers."""
    services.game_for(table)
    client = token_client(table_judge)
    first = post(client, table, 1, key="lost")
    early = post(client, table, 1, key="lost")
    late = post(whole_way(client, settings), table, 1, key="lost")
    assert early.status_code == late.status_code == 201 and early.content == late.content
    assert early.json() == first.json() and early["Idempotent-Replayed"] == "true"
    vary = {name: {v.strip() for v in answer["Vary"].split(",")} for name, answer in (("early", early), ("late", late))}
    assert vary["early"] == vary["late"]
    assert {k: v for k, v in early.headers.items() if k != "Vary"} == {k: v for k, v in late.headers.items() if k != "Vary"}
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_another_users_retry_under_the_same_key_never_gets_the_first_users_answer(
    table: Any, table_judge: Any, head_judge: Any
) -> None:
    """Keys are per user: a head judge sending the judge's key and body is a first send of
    their own (stale here: the judge's event moved the log), answered by the view."""
    services.game_for(table)
    post(token_client(table_judge), table, 1, key="shared")
    other = post(token_client(head_judge), table, 1, key="shared")
    assert other.status_code == 409 and "Idempotent-Replayed" not in other
    assert other.json()["expected_seq"] == 1 and other.json()["seq"] == 2
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_a_retry_from_a_judge_moved_off_the_table_or_of_a_round_taken_back_is_refused(
    table: Any, table_judge: Any, make_user: Any
) -> None:
    """The stored answer goes only to a judge of the table, of a published round: the retry of
    a judge moved to another table is refused 403, as any post of theirs; nothing is recorded."""
    services.game_for(table)
    client = token_client(table_judge)
    assert post(client, table, 1, key="moved").status_code == 201
    table.judge = make_user("judge2")
    table.save(update_fields=["judge"])
    refused = post(client, table, 1, key="moved")
    assert refused.status_code == 403 and "Idempotent-Replayed" not in refused
    table.judge = table_judge
    table.save(update_fields=["judge"])
    Round.objects.filter(pk=table.round_id).update(state=Round.State.PLANNED)
    refused = post(client, table, 1, key="moved")
    assert refused.status_code == 400 and refused.json()["field"] == "table"
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_a_retry_with_a_field_the_write_does_not_read_is_refused_by_name(table: Any, table_judge: Any) -> None:
    services.game_for(table)
    client = token_client(table_judge)
    assert post(client, table, 1, key="extra").status_code == 201
    refused = client.post(f"/api/tables/{table.pk}/game/events/", {"event": EVENT, "expected_seq": 1, "expected": 1},
                          format="json", HTTP_IDEMPOTENCY_KEY="extra")
    assert refused.status_code == 400 and refused.json()["field"] == "expected"


@override_settings(TOKEN_RATE="2/min")
def test_a_retry_counts_towards_its_tokens_rate_once(table: Any, table_judge: Any) -> None:
    """The first send and its retry are the token's two requests of the minute; a third
    waits (429), early answer or not."""
    services.game_for(table)
    client = token_client(table_judge)
    assert post(client, table, 1, key="paced").status_code == 201
    assert post(client, table, 1, key="paced").status_code == 201
    third = post(client, table, 1, key="paced")
    assert third.status_code == 429 and "Idempotent-Replayed" not in third and third["Retry-After"]
