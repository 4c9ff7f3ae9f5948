"""Looking at a table never starts its game record: only a judge's first event does, so a
visitor reading the page cannot freeze the table's seating."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import Game
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.conftest import SIX, post_event
from tournament import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tables(head_judge: Any) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 12)
    heat = make_round(tournament)
    return heat, seat_table(heat, players[:6], number=1, factions=SIX), seat_table(heat, players[6:], number=2, factions=SIX)


@pytest.mark.parametrize(
    "url",
    ["/api/tables/{pk}/game/", "/api/tables/{pk}/game/events/", "/tables/{pk}/", "/api/tables/{pk}/clock/", "/tables/{pk}/clock/"],
)
def test_an_anonymous_read_writes_nothing(client: Any, two_tables: Any, url: str) -> None:
    _, table, _ = two_tables
    response = client.get(url.format(pk=table.pk))
    assert response.status_code == 200
    assert not Game.objects.exists()


def test_the_read_shows_the_position_the_seating_implies(client: Any, two_tables: Any) -> None:
    _, table, _ = two_tables
    body = client.get(f"/api/tables/{table.pk}/game/").json()
    assert body["seq"] == 1 and body["position"]["phase"] == "setup"
    events = client.get(f"/api/tables/{table.pk}/game/events/").json()
    assert events["seq"] == 1 and [e["type"] for e in events["events"]] == ["game_setup"]


def test_the_judge_page_read_writes_nothing_either(client: Any, two_tables: Any, head_judge: Any) -> None:
    _, table, _ = two_tables
    client.force_login(head_judge)
    assert client.get(f"/tables/{table.pk}/").status_code == 200
    assert client.get(f"/tables/{table.pk}/report/").status_code == 200
    assert not Game.objects.exists()


def test_after_reads_the_seating_can_still_change(client: Any, two_tables: Any, head_judge: Any) -> None:
    heat, table_1, table_2 = two_tables
    client.get(f"/api/tables/{table_1.pk}/game/")
    client.get(f"/tables/{table_1.pk}/")
    first = table_1.seats.get(seat=1).player_id
    second = table_2.seats.get(seat=1).player_id
    services.swap(heat, first, second, user=head_judge, reason="households apart")
    assert table_2.seats.filter(player_id=first).exists()


def test_the_game_record_begins_with_the_first_judge_event(judge_client: Any, two_tables: Any) -> None:
    _, table, _ = two_tables
    answer = post_event(judge_client, table, {"type": "storm_placed", "sector": 5}, 1)
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(table=table)
    assert game.seq == 2 and list(game.events.values_list("type", flat=True)) == ["game_setup", "storm_placed"]
