"""Who may write a table's game: its table judge and the head judges; everyone else reads."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from gameplay.models import GameEvent
from tests.factories import make_players, seat_table
from tests.gameplay.conftest import post_event

pytestmark = pytest.mark.django_db

STORM = {"type": "storm_placed", "sector": 3}


def client_for(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_table_judge_writes_to_their_table(table: Any, table_judge: Any) -> None:
    assert post_event(client_for(table_judge), table, STORM, 1).status_code == 201


def test_head_judge_writes_to_every_table(table: Any, make_user: Any) -> None:
    head = make_user("chief")
    table.round.tournament.head_judges.add(head)
    assert post_event(client_for(head), table, STORM, 1).status_code == 201


def test_superuser_head_judge_writes(table: Any, head_judge: Any) -> None:
    assert post_event(client_for(head_judge), table, STORM, 1).status_code == 201


def test_judge_of_another_table_is_403(table: Any, make_user: Any) -> None:
    """Table judges may write only to their tables (the game API)."""
    other = make_user("judge2")
    tournament = table.round.tournament
    tournament.table_judges.add(other)
    players = make_players(tournament, 5, prefix="Other")
    seat_table(table.round, players, number=2, judge=other)
    answer = post_event(client_for(other), table, STORM, 1)
    assert answer.status_code == 403
    assert not GameEvent.objects.filter(game__table=table, seq=2).exists()


def test_player_reads_but_cannot_write(table: Any, make_user: Any) -> None:
    player_user = make_user("player1")
    seat = table.seats.first()
    seat.player.user = player_user
    seat.player.save()
    client = client_for(player_user)
    assert client.get(f"/api/tables/{table.pk}/game/").status_code == 200
    assert client.get(f"/api/tables/{table.pk}/game/events/").status_code == 200
    assert post_event(client, table, STORM, 1).status_code == 403


def test_anonymous_reads_but_cannot_write(table: Any) -> None:
    client = client_for(None)
    assert client.get(f"/api/tables/{table.pk}/game/").status_code == 200
    assert post_event(client, table, STORM, 1).status_code in (401, 403)


def test_bg_prediction_hidden_from_players_until_revealed(table: Any, table_judge: Any, make_user: Any) -> None:
    """LoLV 2.02.03 / AH III.E.1.a: the prediction is secret; judges see it, players do not."""
    judge = client_for(table_judge)
    post_event(judge, table, {"type": "bg_prediction_made", "faction": "harkonnen", "turn": 5}, 1)
    player = client_for(make_user("player1"))
    public = player.get(f"/api/tables/{table.pk}/game/").json()
    assert public["position"]["bg_prediction"] == "hidden"
    log = player.get(f"/api/tables/{table.pk}/game/events/").json()["events"]
    assert log[1]["event"]["faction"] == "hidden" and log[1]["event"]["turn"] == "hidden"
    assert "author" not in log[1]
    judged = judge.get(f"/api/tables/{table.pk}/game/").json()
    assert judged["position"]["bg_prediction"] == {"faction": "harkonnen", "turn": 5}
    assert judge.get(f"/api/tables/{table.pk}/game/events/").json()["events"][1]["event"]["faction"] == "harkonnen"


def test_evaluation_does_not_give_the_prediction_away(table: Any, table_judge: Any, make_user: Any) -> None:
    """AH IV.A / LoLV 2.02.03: the BG wins alone when the predicted faction wins in the
    predicted turn. Until the prediction is revealed, a player sees the victory the board
    shows (the Harkonnen's three strongholds), not the BG's."""
    judge = client_for(table_judge)
    events = [
        {"type": "bg_prediction_made", "faction": "harkonnen", "turn": 1},
        {"type": "storm_placed", "sector": 5},
        {"type": "phase_advanced", "phase": "storm"},
        {"type": "phase_advanced", "phase": "battle"},
        {"type": "quick_record", "occupants": {"carthag": ["harkonnen"], "arrakeen": ["harkonnen"],
                                               "tueks_sietch": ["harkonnen"], "sietch_tabr": ["fremen"]}},
    ]
    for seq, event in enumerate(events, start=1):
        assert post_event(judge, table, event, seq).status_code == 201, event
    judged = judge.get(f"/api/tables/{table.pk}/game/").json()["evaluation"]["victory"]
    assert judged["kind"] == "bg_prediction" and judged["winners"] == ["bene_gesserit"]
    public = client_for(make_user("player1")).get(f"/api/tables/{table.pk}/game/").json()
    assert public["evaluation"]["victory"]["winners"] == ["harkonnen"]
    assert "bg_prediction" not in str(public["evaluation"]) and "hidden" == public["position"]["bg_prediction"]
    # Revealed at the Mentat Pause: now everyone sees it.
    assert post_event(judge, table, {"type": "phase_advanced", "phase": "mentat_pause"}, 6).status_code == 201
    revealed = post_event(judge, table, {"type": "bg_prediction_revealed"}, 7)
    assert revealed.status_code == 201, revealed.content
    player = client_for(make_user("player2"))
    public = player.get(f"/api/tables/{table.pk}/game/").json()
    assert public["position"]["bg_prediction"] == {"faction": "harkonnen", "turn": 1}
    assert public["evaluation"]["victory"]["kind"] == "bg_prediction"
    claimed = post_event(judge, table, {"type": "victory_claimed", "winners": ["bene_gesserit"]}, 8)
    assert claimed.status_code == 201, claimed.content
    public = player.get(f"/api/tables/{table.pk}/game/").json()
    assert public["evaluation"]["outcome"]["winners"] == ["bene_gesserit"]
