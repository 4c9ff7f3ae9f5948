"""Event-day API: provisional standings, publishing refused while a seat has no faction, and a
player's current table."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_cache(db: Any) -> Iterator[None]:
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def lolv_round_with_dealt_cards(head_judge: Any) -> tuple[Any, Any, list[Any]]:
    """A LoLV heat seated but not published: table 1 has kept its cards, table 2 has not."""
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    players = make_players(tournament, 10)
    heat = make_round(tournament, state="planned")
    seat_table(heat, players[:5], number=1, factions=["atreides", "emperor", "fremen", "guild", "harkonnen"])
    seat_table(heat, players[5:], number=2, factions=[""] * 5)
    for seat, dealt in zip(
        Seat.objects.filter(table__number=2, round=heat).order_by("seat"),
        [
            ["fremen", "tleilaxu"],
            ["atreides", "ixians"],
            ["emperor", "choam"],
            ["guild", "ecaz"],
            ["harkonnen", "moritani"],
        ],
        strict=True,
    ):
        seat.dealt = dealt
        seat.save()
    return tournament, heat, players


def test_publishing_with_a_seat_without_faction_answers_409_naming_table_and_players(
    judge_client: Any, head_judge: Any
) -> None:
    """A table cannot start without every faction, so the seating is not published; the answer
    names the table and the players by name and nothing changes."""
    _, heat, players = lolv_round_with_dealt_cards(head_judge)
    response = judge_client.post(f"/api/rounds/{heat.pk}/seating/publish/")
    assert response.status_code == 409
    body = response.json()
    assert "table 2" in body["detail"]
    assert all(p.name in body["detail"] for p in players[5:])
    assert not any(p.name in body["detail"] for p in players[:5])
    assert f"#{players[5].pk}" not in body["detail"]
    assert body["missing"] == [
        {
            "table": 2,
            "players": [
                {"id": p.pk, "name": p.name, "dealt": list(s.dealt)}
                for p, s in zip(
                    players[5:],
                    Seat.objects.filter(table__number=2, round=heat).order_by("seat"),
                    strict=True,
                )
            ],
        }
    ]
    heat.refresh_from_db()
    assert heat.state == "planned"


def test_publishing_once_every_seat_has_its_faction(judge_client: Any, head_judge: Any) -> None:
    _, heat, _ = lolv_round_with_dealt_cards(head_judge)
    for seat in Seat.objects.filter(round=heat, faction=""):
        seat.faction = seat.dealt[0]
        seat.save()
    response = judge_client.post(f"/api/rounds/{heat.pk}/seating/publish/")
    assert response.status_code == 200 and response.json()["state"] == "published"


def test_player_answers_their_current_table_seat_and_faction(api_client: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    heat = make_round(tournament, state="published")
    seat_table(heat, players, number=3)
    body = api_client.get(f"/api/players/{players[1].pk}/").json()
    assert body["name"] == players[1].name
    assert body["current"] == {"round": heat.pk, "table": 3, "seat": 2, "faction": "bene_gesserit"}
    assert "email" not in body


def test_player_between_rounds_has_no_current_table(api_client: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    planned = make_round(tournament, state="planned")
    seat_table(planned, players)
    assert api_client.get(f"/api/players/{players[0].pk}/").json()["current"] is None
    assert api_client.get("/api/players/999999/").status_code == 404


def test_standings_are_provisional_until_the_last_heat_is_reported(
    judge_client: Any, api_client: Any, head_judge: Any
) -> None:
    """Two heats planned: after the first heat's reports, still provisional; after the second's, not."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 12)
    heat1 = make_round(tournament, number=1)
    heat2 = make_round(tournament, number=2, state="planned")
    url = f"/api/tournaments/{tournament.pk}/standings/"
    assert api_client.get(url).json()["provisional"] is True
    table1 = seat_table(heat1, players[:6])
    assert (
        judge_client.post(
            f"/api/tables/{table1.pk}/report/", report_for(table1, {0: "solo_stronghold"}), format="json"
        ).status_code
        == 201
    )
    assert api_client.get(url).json()["provisional"] is True
    table2 = seat_table(heat2, players[6:])
    heat2.state = "published"
    heat2.save()
    assert api_client.get(url).json()["provisional"] is True
    filed = judge_client.post(
        f"/api/tables/{table2.pk}/report/", report_for(table2, {1: "solo_stronghold"}), format="json"
    )
    assert filed.status_code == 201, filed.json()
    assert api_client.get(url).json()["provisional"] is False
