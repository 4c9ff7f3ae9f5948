"""The person page shows each tournament's standings points whatever they are: whole, a
fraction (an adjudicated game scores half a point, LoLV 4.01.09.10) or none yet."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from dune.points.numbers import plural_count
from scoring import services as scoring
from tests.factories import make_round, make_tournament, seat_table
from tests.ratings.helpers import play, register, report
from tournament.models import Player

pytestmark = pytest.mark.django_db

SIX = [(f"Seat {n}", f"seat{n}@example.org") for n in range(1, 7)]


def _card(page: str, tournament: Any) -> str:
    start = page.index(f'data-tournament="{tournament.pk}"')
    return page[start : page.index("</li>", start)]


def test_person_page_shows_fractional_whole_and_missing_points(head_judge: Any, client: Any) -> None:
    adjudicated = make_tournament(format="lolv", name="LoLV adjudicated", head_judge=head_judge)
    won = make_tournament(format="lolv", name="LoLV won", head_judge=head_judge)
    unplayed = make_tournament(format="lolv", name="LoLV unplayed", head_judge=head_judge)
    seated = register(adjudicated, SIX)
    table = seat_table(make_round(adjudicated, number=1), seated)
    filed = report(seated, {0: "adjudicated"}, ended_by="time_limit")
    scoring.file_report(table, filed, user=head_judge)
    play(won, 1, [(register(won, SIX), {0: "solo_stronghold"})], user=head_judge)
    register(unplayed, SIX[:1])
    seat = Player.objects.get(tournament=adjudicated, name="Seat 1")

    response = client.get(f"/people/{seat.person_id}/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "· 0.5 points" in _card(page, adjudicated)
    assert "· 3 points" in _card(page, won)
    assert "point" not in _card(page, unplayed)


@pytest.mark.parametrize(
    ("points", "count"),
    [(Fraction(0), 0), (Fraction(1), 1), (Fraction(3), 3), (Fraction(1, 2), 2), (Fraction(3, 2), 2)],
)
def test_plural_count_is_whole_and_reads_fractions_in_the_plural(points: Fraction, count: int) -> None:
    assert plural_count(points) == count
