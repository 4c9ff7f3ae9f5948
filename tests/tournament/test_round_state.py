"""One round state (planned, seated, published, running, finished) for every page and the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament.models import Round, Table
from tournament.round_state import STATES, state_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("stage", "tables", "started", "reported", "expected"),
    [
        ("planned", 0, 0, 0, "planned"),
        ("planned", 3, 0, 0, "seated"),
        ("published", 3, 0, 0, "published"),
        ("published", 3, 1, 0, "running"),
        ("published", 3, 0, 1, "running"),
        ("published", 3, 3, 3, "finished"),
        ("finished", 3, 2, 1, "finished"),
    ],
)
def test_state_of_reads_the_stored_step_and_the_tables(
    stage: str, tables: int, started: int, reported: int, expected: str
) -> None:
    assert state_of(stage, tables=tables, started=started, reported=reported).key == expected
    assert expected in STATES


def _states(client: Any, tournament: Any) -> dict[int, str]:
    body = client.get(f"/api/tournaments/{tournament.pk}/rounds/").json()
    return {r["id"]: r["state"] for r in body["rounds"]}


def test_api_and_every_page_show_the_same_state_for_each_round(client: Any, head_judge: Any) -> None:
    """Heat 3 published for tomorrow is "published", not running; the public page, the dashboard,
    the seating page and GET /api/rounds/{id}/ all say the same word."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 24)
    heat1 = make_round(tournament, number=1)
    heat2 = make_round(tournament, number=2)
    heat3 = make_round(tournament, number=3)
    final = make_round(tournament, number=4, kind="final", state="planned")
    seat_table(heat1, players[:6])
    t2 = seat_table(heat2, players[6:12])
    seat_table(heat3, players[12:18])
    Table.objects.filter(round=heat1).update(report_filed_at=timezone.now())
    Table.objects.filter(pk=t2.pk).update(clock_started_at=timezone.now())
    states = _states(client, tournament)
    assert states == {heat1.pk: "finished", heat2.pk: "running", heat3.pk: "published", final.pk: "planned"}
    client.force_login(head_judge)
    dashboard = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    for round_ in (heat1, heat2, heat3, final):
        word = states[round_.pk]
        assert client.get(f"/api/rounds/{round_.pk}/").json()["state"] == word
        assert f'data-round-state="{word}"' in client.get(f"/rounds/{round_.pk}/").content.decode()
        row = dashboard.split(f'data-round="{round_.pk}"')[1].split("</tr>")[0]
        assert f'data-round-state="{word}"' in row
    assert dashboard.count('data-round-state="running"') == 1


def test_a_drawn_but_unpublished_round_is_seated_everywhere(client: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    heat = make_round(tournament, number=1, state=Round.State.PLANNED)
    seat_table(heat, make_players(tournament, 6))
    assert client.get(f"/api/rounds/{heat.pk}/").json()["state"] == "seated"
    assert 'data-round-state="seated"' in client.get(f"/rounds/{heat.pk}/").content.decode()


def test_the_desk_checks_in_for_the_next_round_to_be_seated(client: Any, head_judge: Any) -> None:
    """After heat 3 is published, the desk checks in for the final, named on the page."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    for n in (1, 2, 3):
        seat_table(make_round(tournament, number=n), players)
    final = make_round(tournament, number=4, kind="final", state="planned")
    client.force_login(head_judge)
    page = client.get(f"/tournaments/{tournament.pk}/players/").content.decode()
    assert f'<p class="checking-in-for" data-round="{final.pk}" data-round-state="planned">' in page
    assert "the next round to be seated" in page
