"""Exactly once: writes with an `Idempotency-Key` header, retried, raced and reused."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from foundation import idempotency
from foundation.models import IdempotencyRecord
from gameplay.models import GameEvent
from gameplay.tasks import forget_old_idempotency_keys
from scoring.models import GameReport
from tests.scoring.db.conftest import report_for

STORM = {"type": "storm_placed", "sector": 5}


def events_url(table: Any) -> str:
    return f"/api/tables/{table.pk}/game/events/"


def send(client: Any, table: Any, event: dict[str, Any], expected_seq: int, key: str | None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(events_url(table), {"event": event, "expected_seq": expected_seq}, format="json", **headers)


def logged(table: Any) -> list[tuple[int, str]]:
    return list(GameEvent.objects.filter(game__table=table).order_by("seq").values_list("seq", "type"))


@pytest.mark.django_db
def test_repeat_with_the_same_key_returns_the_first_answer_and_records_nothing(judge_api: Any, table: Any) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    key = str(uuid.uuid4())
    first = send(judge_api, table, STORM, 1, key)
    assert first.status_code == 201, first.content
    again = send(judge_api, table, STORM, 1, key)
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert logged(table) == [(1, "game_setup"), (2, "storm_placed")]


@pytest.mark.django_db
def test_same_key_with_another_body_is_422_naming_the_header(judge_api: Any, table: Any) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    key = str(uuid.uuid4())
    assert send(judge_api, table, STORM, 1, key).status_code == 201
    other = send(judge_api, table, {"type": "storm_placed", "sector": 6}, 1, key)
    assert other.status_code == 422
    assert other.json()["field"] == "Idempotency-Key"
    assert "Idempotency-Key" in other.json()["detail"]
    assert logged(table) == [(1, "game_setup"), (2, "storm_placed")]


@pytest.mark.django_db
def test_key_order_in_the_body_does_not_matter(judge_api: Any, table: Any) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    key = str(uuid.uuid4())
    assert send(judge_api, table, {"type": "storm_placed", "sector": 5}, 1, key).status_code == 201
    assert send(judge_api, table, {"sector": 5, "type": "storm_placed"}, 1, key).status_code == 201
    assert len(logged(table)) == 2


@pytest.mark.django_db
def test_a_refused_write_is_not_remembered(judge_api: Any, table: Any) -> None:
    """A refusal records nothing, so sending it again asks the engine again (and a key can be
    reused once the judge fixes the write)."""
    judge_api.get(f"/api/tables/{table.pk}/game/")
    key = str(uuid.uuid4())
    stale = send(judge_api, table, STORM, 7, key)
    assert stale.status_code == 409
    assert not IdempotencyRecord.objects.exists()
    assert send(judge_api, table, STORM, 1, key).status_code == 201
    assert len(logged(table)) == 2


@pytest.mark.django_db
def test_keys_are_per_user_and_per_table(judge_api: Any, table: Any, head_judge: Any) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    key = str(uuid.uuid4())
    assert send(judge_api, table, STORM, 1, key).status_code == 201
    head = APIClient()
    head.force_authenticate(head_judge)
    # Another user's identical write under the same key is a write of its own: now stale.
    assert send(head, table, STORM, 1, key).status_code == 409
    assert IdempotencyRecord.objects.get(key=key).scope == f"table:{table.pk}:events"


@pytest.mark.django_db
def test_without_a_key_nothing_is_remembered(judge_api: Any, table: Any) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    assert send(judge_api, table, STORM, 1, None).status_code == 201
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "x" * 201])
def test_unusable_key_is_400_naming_the_header(judge_api: Any, table: Any, key: str) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    answer = send(judge_api, table, STORM, 1, key)
    assert answer.status_code == 400
    assert answer.json()["field"] == "Idempotency-Key"
    assert [t for _, t in logged(table)] in ([], ["game_setup"])  # nothing recorded by the refused post


@pytest.mark.django_db(transaction=True)
def test_concurrent_repeats_of_one_key_record_one_event(table: Any, table_judge: Any) -> None:
    """Four copies of one write sent at the same instant (a phone retrying on a flaky link):
    PostgreSQL's unique index makes them wait for the first; one event, four equal answers."""
    APIClient().get(f"/api/tables/{table.pk}/game/")
    key = str(uuid.uuid4())
    barrier = threading.Barrier(4)
    answers: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def attempt() -> None:
        client = APIClient()
        client.force_authenticate(table_judge)
        barrier.wait()
        try:
            answer = send(client, table, STORM, 1, key)
            with lock:
                answers.append((answer.status_code, answer.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in answers] == [201] * 4
    assert all(body == answers[0][1] for _, body in answers)
    assert logged(table) == [(1, "game_setup"), (2, "storm_placed")]
    assert IdempotencyRecord.objects.filter(key=key).count() == 1


@pytest.mark.django_db
def test_report_filed_once_under_a_key(judge_api: Any, table: Any) -> None:
    key = str(uuid.uuid4())
    data = report_for(table, {0: "solo_stronghold"})
    url = f"/api/tables/{table.pk}/report/"
    first = judge_api.post(url, data, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 201, first.content
    again = judge_api.post(url, data, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 201 and again.json() == first.json()
    assert GameReport.objects.get(table=table).version == 1
    other = judge_api.post(url, report_for(table, {1: "solo_stronghold"}), format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"
    # Without the key the locked report refuses a second filing as before.
    assert judge_api.post(url, data, format="json").status_code == 409


@pytest.mark.django_db
def test_keys_are_kept_a_day_then_removed_by_the_periodic_task(judge_api: Any, table: Any) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    assert send(judge_api, table, STORM, 1, "old").status_code == 201
    assert send(judge_api, table, {"type": "phase_advanced", "phase": "storm"}, 2, "recent").status_code == 201
    IdempotencyRecord.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))
    IdempotencyRecord.objects.filter(key="recent").update(created_at=timezone.now() - timedelta(hours=23))
    assert forget_old_idempotency_keys() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["recent"]
    assert idempotency.KEEP >= timedelta(hours=24)
