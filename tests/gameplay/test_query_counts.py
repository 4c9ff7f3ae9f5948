"""Reading a table costs the same number of queries after 10 events or after 500:
the page and the API read the cached position, never the log."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from gameplay import services

pytestmark = pytest.mark.django_db


def record(table: Any, judge: Any, count: int) -> None:
    services.game_for(table)
    seq = 1
    for i in range(count - 1):
        services.append_event(table, {"type": "spice_set", "faction": "atreides", "amount": i % 40},
                              expected_seq=seq, user=judge)
        seq += 1
    assert services.current_position(table)[1] == count


@pytest.mark.parametrize("events", [10, 500])
def test_game_endpoint_queries_constant(events: int, table: Any, table_judge: Any, judge_api: Any,
                                        django_assert_max_num_queries: Any) -> None:
    record(table, table_judge, events)
    with django_assert_max_num_queries(3):
        answer = judge_api.get(f"/api/tables/{table.pk}/game/")
    assert answer.json()["seq"] == events


@pytest.mark.parametrize("events", [10, 500])
def test_table_page_queries_constant(events: int, table: Any, table_judge: Any,
                                     django_assert_max_num_queries: Any) -> None:
    record(table, table_judge, events)
    client = Client()
    client.force_login(table_judge)
    with django_assert_max_num_queries(14):
        answer = client.get(f"/tables/{table.pk}/")
    assert answer.status_code == 200
    assert f'value="{events}"' in answer.content.decode()


@pytest.mark.parametrize("events", [10, 500])
def test_event_post_queries_constant(events: int, table: Any, table_judge: Any, judge_api: Any,
                                     django_assert_max_num_queries: Any) -> None:
    record(table, table_judge, events)
    with django_assert_max_num_queries(7):
        answer = judge_api.post(f"/api/tables/{table.pk}/game/events/",
                                {"event": {"type": "spice_set", "faction": "emperor", "amount": 3},
                                 "expected_seq": events}, format="json")
    assert answer.status_code == 201


def test_same_query_count_after_10_and_after_500_events(table: Any, table_judge: Any, judge_api: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(table_judge)

    def measure() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as api:
            judge_api.get(f"/api/tables/{table.pk}/game/")
        with CaptureQueriesContext(connection) as page:
            client.get(f"/tables/{table.pk}/")
        return len(api), len(page)

    record(table, table_judge, 10)
    at_10 = measure()
    seq = 10
    for i in range(490):
        services.append_event(table, {"type": "spice_set", "faction": "guild", "amount": i % 30},
                              expected_seq=seq, user=table_judge)
        seq += 1
    assert measure() == at_10
