"""Standings keep serving when the filed reports disagree with each other (a player in two
reports of one round): the head judge sees the problem, everyone else the rest."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from tests.factories import make_players, make_round
from tests.scoring.db.conftest import report_for
from tournament.models import Seat

pytestmark = pytest.mark.django_db


def _file(client: Any, table: Any) -> Any:
    return client.post(f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json")


def _move_behind_the_services_back(first: Seat, second: Seat) -> None:
    """Swap two seated players directly in the database, as data from before the seating
    freeze (or a hand edit) can have it."""
    with transaction.atomic():
        a, b = first.player_id, second.player_id
        spare = make_players(first.table.round.tournament, 1, prefix="Spare")[0]
        Seat.objects.filter(pk=first.pk).update(player_id=spare.pk)
        Seat.objects.filter(pk=second.pk).update(player_id=a)
        Seat.objects.filter(pk=first.pk).update(player_id=b)


@pytest.fixture
def inconsistent(judge_client: Any, wbc_heat: Any) -> Any:
    tournament, players, heat, (t1, t2) = wbc_heat
    assert _file(judge_client, t1).status_code == 201
    _move_behind_the_services_back(t1.seats.get(seat=1), t2.seats.get(seat=1))
    assert _file(judge_client, t2).status_code == 201  # players[0] is now in both reports of heat 1
    return tournament, players


@pytest.mark.parametrize(
    "url",
    [
        "/api/tournaments/{t}/standings/",
        "/api/tournaments/{t}/finalists/",
        "/tournaments/{t}/standings/",
        "/tournaments/{t}/standings.csv",
        "/tournaments/{t}/players/{p}/",
    ],
)
def test_every_standings_answer_keeps_serving(client: Any, inconsistent: Any, url: str) -> None:
    tournament, players = inconsistent
    response = client.get(url.format(t=tournament.pk, p=players[3].pk))
    assert response.status_code == 200


def test_the_head_judge_is_shown_the_problem(client: Any, head_judge: Any, inconsistent: Any) -> None:
    tournament, _ = inconsistent
    client.force_login(head_judge)
    body = client.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert any("Player 001" in problem and "table 1" in problem and "table 2" in problem for problem in body["problems"])
    page = client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert "Player 001" in page and "left out of the standings" in page


def test_the_public_does_not_see_the_problem_list(client: Any, inconsistent: Any) -> None:
    tournament, _ = inconsistent
    body = client.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert "problems" not in body
    assert "left out of the standings" not in client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()


def test_reports_are_filed_only_for_published_rounds(judge_client: Any, wbc_heat: Any) -> None:
    tournament, players, _, _ = wbc_heat
    from tests.factories import seat_table

    planned = make_round(tournament, number=2, state="planned")
    table = seat_table(planned, players[:6], number=1)
    refused = _file(judge_client, table)
    assert refused.status_code == 400
    assert "published" in refused.json()["detail"]
    assert not hasattr(type(table).objects.get(pk=table.pk), "report") or table.report_filed_at is None


def test_the_event_report_shows_the_standings_pages_points_with_a_screened_report(
    client: Any, judge_client: Any, inconsistent: Any
) -> None:
    """The event report's finalists carry the points and tiebreaks the standings page shows:
    one computation, with the reports that contradict each other left out of both."""
    from tests.factories import seat_table

    tournament, players = inconsistent
    heat2 = make_round(tournament, number=2)
    for number, seated in ((1, players[:6]), (2, players[6:])):
        assert _file(judge_client, seat_table(heat2, seated, number=number)).status_code == 201
    standings = client.get(f"/api/tournaments/{tournament.pk}/standings/").json()["standings"]
    shown = {row["player"]: (row["points"], row["tiebreak"]) for row in standings}
    finalists = client.get(f"/api/tournaments/{tournament.pk}/event-report/").json()["finalists"]
    assert len(finalists) == 6
    for finalist in finalists:
        assert (finalist["points"], finalist["tiebreak"]) == shown[finalist["player"]]
    # Player 001 won at both tables of heat 1 (left out) and at a table of heat 2: one win counts.
    assert shown[players[0].pk][0] == shown[players[6].pk][0]
