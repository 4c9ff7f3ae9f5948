"""A round's scheduled start lies between 1990 and 2100: a start in year 1 or 9999 once stored
made the tournament's pages and the round API answer 500 for everyone (a date the database
cannot hand back, an overflow in the clocks' grace arithmetic), and the dashboard could not
fix it. Such a start is refused with 400 naming the field, and the database refuses it too."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament.models import Round

pytestmark = pytest.mark.django_db

OUT_OF_WINDOW = [
    "0001-01-01T00:00+14:00",
    "9999-12-31T23:59-14:00",
    "1989-12-31T23:59:59Z",
    "2101-01-01T00:00:00Z",
]
EDGES = [datetime(1990, 1, 1, tzinfo=UTC), datetime(2100, 12, 31, 23, 59, tzinfo=UTC)]


@pytest.fixture
def tournament(head_judge: Any) -> Any:
    return make_tournament(format="wbc", head_judge=head_judge)


@pytest.mark.parametrize("starts_at", OUT_OF_WINDOW)
def test_the_api_refuses_a_start_outside_the_window_naming_the_field(
    judge_client: Any, tournament: Any, starts_at: str
) -> None:
    response = judge_client.post(
        f"/api/tournaments/{tournament.pk}/rounds/", {"kind": "heat", "starts_at": starts_at}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "starts_at" in response.content.decode()
    assert not Round.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize("starts_at", ["0001-01-01T00:00", "9999-12-31T23:59", "1900-06-01T10:00"])
def test_the_dashboard_shows_the_refusal_next_to_the_field(
    client: Any, head_judge: Any, tournament: Any, starts_at: str
) -> None:
    client.force_login(head_judge)
    response = client.post(
        f"/tournaments/{tournament.pk}/", {"action": "add_round", "kind": "heat", "starts_at": starts_at}
    )
    assert response.status_code in (200, 400), response.status_code
    assert "outside the years 1990 to 2100" in response.content.decode()
    assert not Round.objects.filter(tournament=tournament).exists()


def test_the_database_refuses_a_start_outside_the_window(tournament: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=tournament, number=1, starts_at=datetime(1, 1, 2, tzinfo=UTC))


@pytest.mark.parametrize("starts_at", EDGES)
def test_every_page_of_a_round_starting_at_either_edge_reads(
    client: Any, judge_client: Any, head_judge: Any, tournament: Any, starts_at: datetime
) -> None:
    round_ = make_round(tournament)
    Round.objects.filter(pk=round_.pk).update(starts_at=starts_at)
    table = seat_table(round_, make_players(tournament, 6))
    client.force_login(head_judge)
    for url in (
        f"/tournaments/{tournament.pk}/",
        f"/rounds/{round_.pk}/",
        f"/rounds/{round_.pk}/seat/",
        f"/rounds/{round_.pk}/clocks/",
        f"/rounds/{round_.pk}/print/seating/",
        f"/tables/{table.pk}/clock/",
        f"/tournaments/{tournament.pk}/screen/",
    ):
        assert client.get(url).status_code == 200, url
    assert judge_client.post(f"/api/tables/{table.pk}/clock/start/", {}, format="json").status_code < 500
    assert judge_client.get(f"/api/rounds/{round_.pk}/tables/").status_code == 200
