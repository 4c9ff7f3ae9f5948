"""A judge's free-text reason can hold anything (a BG prediction, a player's remark): only the
table's judges and head judges read it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.conftest import SIX, post_event

pytestmark = pytest.mark.django_db

SECRET = "BG predicted Harkonnen on turn 4"


@pytest.fixture
def table(make_user: Any) -> Any:
    judge = make_user("judge1")
    tournament = make_tournament(format="wbc")
    tournament.table_judges.add(judge)
    table = seat_table(make_round(tournament), make_players(tournament, 6), factions=SIX, judge=judge)
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(judge)
    assert post_event(api, table, {"type": "storm_placed", "sector": 5}, 1).status_code == 201
    assert post_event(api, table, {"type": "void", "seq": 2, "reason": SECRET}, 2, reason=SECRET).status_code == 201
    table.judge_api = api
    return table


def test_the_public_event_log_hides_reasons(client: Any, table: Any) -> None:
    response = client.get(f"/api/tables/{table.pk}/game/events/")
    assert response.status_code == 200
    assert "BG predicted" not in response.content.decode()
    assert all("reason" not in e and "reason" not in e["event"] for e in response.json()["events"])


def test_the_public_table_page_hides_reasons(client: Any, table: Any) -> None:
    page = client.get(f"/tables/{table.pk}/")
    assert page.status_code == 200
    assert "BG predicted" not in page.content.decode()


def test_the_tables_judge_reads_them(table: Any) -> None:
    response = table.judge_api.get(f"/api/tables/{table.pk}/game/events/")
    assert SECRET in response.content.decode()


def test_another_tables_judge_does_not(client: Any, table: Any, make_user: Any) -> None:
    other = make_user("judge2")
    table.round.tournament.table_judges.add(other)
    client.force_login(other)
    response = client.get(f"/api/tables/{table.pk}/game/events/")
    assert "BG predicted" not in response.content.decode()
