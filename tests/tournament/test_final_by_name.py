"""The final is seated by choosing finalists and alternates by name from the qualifying order;
players who cannot be seated are left out and the reason is given; unfinished heats are named."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament.models import Player, Round, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(judge_client: Any, head_judge: Any) -> dict[str, Any]:
    """WBC, 14 players: heat 1 filed at two tables, heat 2 running, heat 3 published for tomorrow."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 14)
    heat1 = make_round(tournament, number=1)
    tables = [seat_table(heat1, players[:6], number=1), seat_table(heat1, players[6:12], number=2)]
    for table in tables:
        answer = judge_client.post(
            f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
        )
        assert answer.status_code in (200, 201), answer.content
    heat2 = make_round(tournament, number=2)
    Table.objects.filter(pk=seat_table(heat2, players[:6]).pk).update(clock_started_at=timezone.now())
    seat_table(make_round(tournament, number=3), players[6:12])
    final = make_round(tournament, number=4, kind="final", state=Round.State.PLANNED)
    return {"tournament": tournament, "players": players, "final": final}


def test_the_final_page_offers_names_in_qualifying_order_and_warns_of_unfinished_heats(
    client: Any, head_judge: Any, event: dict[str, Any]
) -> None:
    winner = event["players"][0]
    winner.status = Player.Status.DROPPED
    winner.save()
    client.force_login(head_judge)
    page = client.get(f"/rounds/{event['final'].pk}/final/").content.decode()
    warning = page.split('id="heats-unfinished"')[1].split("</div>")[0]
    assert "Heat 2 is running" in warning and "Heat 3 is published" in warning
    assert f'name="pick_{winner.pk}"' not in page  # not offered
    assert f"{winner.name} (rank 1): dropped out of the tournament" in page
    # The other winner heads the offered names, suggested as a finalist.
    other = event["players"][6]
    assert page.index(f'name="pick_{other.pk}"') < page.index("Not offered")
    assert f'aria-label="In the final: {other.name}"' in page
    assert "player numbers" not in page


def test_seating_the_final_by_the_names_chosen(client: Any, head_judge: Any, event: dict[str, Any]) -> None:
    client.force_login(head_judge)
    players = event["players"]
    chosen = {f"pick_{p.pk}": "finalist" for p in players[6:11]}
    chosen[f"pick_{players[0].pk}"] = "finalist"
    chosen[f"pick_{players[1].pk}"] = "alternate"
    answer = client.post(f"/rounds/{event['final'].pk}/final/", {"action": "seat", **chosen})
    assert answer.status_code == 302
    seated = set(Seat.objects.filter(round=event["final"]).values_list("player_id", flat=True))
    assert seated == {p.pk for p in (players[0], *players[6:11])}
    # Picks go in qualifying order: the heat winners first.
    event["final"].refresh_from_db()
    assert set(event["final"].pick_order[:2]) == {players[0].pk, players[6].pk}


def test_a_dropped_player_posted_anyway_is_refused_by_name(
    client: Any, head_judge: Any, event: dict[str, Any]
) -> None:
    players = event["players"]
    players[0].status = Player.Status.DROPPED
    players[0].save()
    client.force_login(head_judge)
    chosen = {f"pick_{p.pk}": "finalist" for p in players[:6]}
    page = client.post(f"/rounds/{event['final'].pk}/final/", {"action": "seat", **chosen}).content.decode()
    assert 'id="finalists-error"' in page and players[0].name in page
    assert not Seat.objects.filter(round=event["final"]).exists()
