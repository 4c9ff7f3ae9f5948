"""Actions that change many players or close a round ask first: checking in every active
player, withdrawing a player and closing a round each answer a confirmation page, and only
the confirmed post does it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, seat_table
from tests.scoring.db.conftest import report_for
from tournament.models import CheckIn, Player, Round

pytestmark = pytest.mark.django_db


def test_check_in_all_asks_first(client: Any, head_judge: Any, tournament: Any) -> None:
    make_players(tournament, 7)
    heat = make_round(tournament, state=Round.State.PLANNED)
    client.force_login(head_judge)
    url = f"/tournaments/{tournament.pk}/players/"
    asked = client.post(url, {"action": "check_in_all", "round": heat.pk})
    assert asked.status_code == 200
    assert "Check in all 7 active players for Heat 1?" in asked.content.decode()
    assert not CheckIn.objects.filter(round=heat).exists()
    done = client.post(url, {"action": "check_in_all", "round": heat.pk, "confirmed": "yes"})
    assert done.status_code == 302
    assert CheckIn.objects.filter(round=heat).count() == 7


def test_withdraw_asks_first(client: Any, head_judge: Any, tournament: Any) -> None:
    (player,) = make_players(tournament, 1)
    client.force_login(head_judge)
    url = f"/tournaments/{tournament.pk}/players/"
    asked = client.post(url, {"action": "withdrawn", "player": player.pk})
    assert asked.status_code == 200 and f"Withdraw {player.name}?" in asked.content.decode()
    player.refresh_from_db()
    assert player.status == Player.Status.ACTIVE
    client.post(url, {"action": "withdrawn", "player": player.pk, "confirmed": "yes"})
    player.refresh_from_db()
    assert player.status == Player.Status.WITHDRAWN


def test_closing_a_round_asks_first(client: Any, judge_client: Any, head_judge: Any, tournament: Any) -> None:
    players = make_players(tournament, 6)
    heat = make_round(tournament)
    table = seat_table(heat, players)
    judge_client.post(f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json")
    client.force_login(head_judge)
    url = f"/tournaments/{tournament.pk}/"
    asked = client.post(url, {"action": "finish_round", "round": heat.pk})
    assert asked.status_code == 200 and "Close Heat 1?" in asked.content.decode()
    heat.refresh_from_db()
    assert heat.state == Round.State.PUBLISHED
    assert client.post(url, {"action": "finish_round", "round": heat.pk, "confirmed": "yes"}).status_code == 302
    heat.refresh_from_db()
    assert heat.state == Round.State.FINISHED
