"""A table judge's own tables: one tap after sign-in, and each table's printed personal link."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rounds(table_judge: Any, head_judge: Any) -> tuple[Any, Any]:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    tournament.table_judges.add(table_judge)
    players = make_players(tournament, 6)
    old = seat_table(make_round(tournament, number=1), players, number=3, judge=table_judge)
    old.round.state = "finished"
    old.round.save(update_fields=["state"])
    current = seat_table(make_round(tournament, number=2), players, number=5, judge=table_judge)
    return old, current


def test_signing_in_leads_a_table_judge_to_their_tables_current_round_first(
    two_rounds: tuple[Any, Any], password: str
) -> None:
    old, current = two_rounds
    client = Client()
    answer = client.post("/accounts/login/", {"username": "judge1", "password": password}, follow=True)
    assert answer.redirect_chain[-1][0] == "/my/tables/"
    html = answer.content.decode()
    assert html.index(f'href="/tables/{current.pk}/"') < html.index(f'href="/tables/{old.pk}/"')
    assert 'href="/my/tables/"' in html  # in the header, one tap from anywhere


def test_others_land_on_the_home_page(head_judge: Any, password: str) -> None:
    answer = Client().post("/accounts/login/", {"username": "head", "password": password})
    assert answer["Location"] == "/signed-in/"
    assert Client().get("/signed-in/")["Location"] == "/"


def test_signing_in_leads_a_head_judge_to_the_newest_tournament_they_run(head_judge: Any, password: str) -> None:
    from tests.factories import make_tournament

    make_tournament(format="wbc", head_judge=head_judge)
    newest = make_tournament(format="wbc", head_judge=head_judge)
    client = Client()
    answer = client.post("/accounts/login/", {"username": head_judge.username, "password": password}, follow=True)
    assert answer.redirect_chain[-1][0] == f"/tournaments/{newest.pk}/"


def test_the_personal_link_signs_in_first_then_opens_the_table(two_rounds: tuple[Any, Any], password: str) -> None:
    _, current = two_rounds
    client = Client()
    link = f"/tables/{current.pk}/judge/"
    first = client.get(link)
    assert first.status_code == 302 and first["Location"].startswith("/accounts/login/?next=")
    answer = client.post(first["Location"], {"username": "judge1", "password": password})
    assert answer["Location"] == link
    assert client.get(link)["Location"] == f"/tables/{current.pk}/"


def test_report_and_seating_sheets_print_each_tables_link_as_a_qr_code(
    two_rounds: tuple[Any, Any], head_judge: Any
) -> None:
    _, current = two_rounds
    client = Client()
    client.force_login(head_judge)
    for sheet in ("reports", "seating"):
        html = client.get(f"/rounds/{current.round.pk}/print/{sheet}/").content.decode()
        assert html.count("<svg") == 1, sheet
        assert f"http://testserver/tables/{current.pk}/judge/" in html
        assert "<script" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]


def test_each_begun_game_shows_its_turn_and_phase(two_rounds: tuple[Any, Any], table_judge: Any) -> None:
    """The list reads each game's stored position through the typed read model."""
    from gameplay import services

    _, current = two_rounds
    services.game_for(current)
    client = Client()
    client.force_login(table_judge)
    html = client.get("/my/tables/").content.decode()
    assert "turn 1, " in html
