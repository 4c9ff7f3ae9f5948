"""Fixtures of the table-game tests: a published WBC table with its judge, and helpers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")


@pytest.fixture(autouse=True)
def _fresh_position_cache() -> None:
    from gameplay import engine_adapter

    engine_adapter.forget_all()


@pytest.fixture
def table_judge(make_user: Any) -> Any:
    return make_user("judge1")


@pytest.fixture
def table(table_judge: Any) -> Any:
    """A published WBC heat table of six classic factions, judged by `judge1`."""
    tournament = make_tournament(format="wbc")
    tournament.table_judges.add(table_judge)
    players = make_players(tournament, 6)
    round_ = make_round(tournament)
    return seat_table(round_, players, factions=SIX, judge=table_judge)


@pytest.fixture
def judge_api(table_judge: Any) -> Any:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(table_judge)
    return client


def post_event(client: Any, table: Any, event: dict[str, Any], expected_seq: int, **extra: Any) -> Any:
    return client.post(
        f"/api/tables/{table.pk}/game/events/", {"event": event, "expected_seq": expected_seq, **extra}, format="json"
    )


@pytest.fixture
def post() -> Any:
    return post_event
