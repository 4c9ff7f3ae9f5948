"""What the server tells a phone's outbox (static/js/outbox_core.js): why a write was refused
(`X-Refused`: sign-in, csrf, forbidden), that a form's write was done (`X-Record`), a fresh
CSRF token (`GET /accounts/session/`) and a sign-in in place answered as JSON."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.clocks.conftest import seated
from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.django_db

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
STORM = {"action": "place_storm", "sector": "5", "expected_seq": "1"}


@pytest.fixture
def table(make_user: Any) -> Any:
    judge = make_user("judge1")
    tournament = make_tournament(format="wbc")
    return seat_table(make_round(tournament), make_players(tournament, 6), factions=SIX, judge=judge)


def test_the_session_answer_says_who_and_gives_a_fresh_token(make_user: Any) -> None:
    client = Client()
    answer = client.get("/accounts/session/")
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    body = answer.json()
    assert body["signed_in"] is False and body["username"] == "" and len(body["csrf_token"]) >= 32
    client.force_login(make_user("judge1"))
    assert client.get("/accounts/session/").json()["username"] == "judge1"


def test_a_table_write_says_whether_signing_in_would_help(table: Any, make_user: Any) -> None:
    url = f"/tables/{table.pk}/"
    anonymous = Client().post(url, STORM, HTTP_HX_REQUEST="true")
    assert anonymous.status_code == 403 and anonymous["X-Refused"] == "sign-in"
    assert "Only this table&#x27;s judge" in anonymous.content.decode()  # in words, on the page
    other = Client()
    other.force_login(make_user("judge9"))
    refused = other.post(url, STORM, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403 and refused["X-Refused"] == "forbidden"


def test_a_stale_csrf_token_is_named_as_such(table: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/session/")
    stale = client.post(f"/tables/{table.pk}/", {**STORM, "csrfmiddlewaretoken": "x" * 64})
    assert stale.status_code == 403 and stale["X-Refused"] == "csrf"
    assert "security token is out of date" in stale.content.decode()


def test_signing_in_in_place_answers_json_with_a_new_token(make_user: Any, password: str) -> None:
    make_user("judge1")
    client = Client()
    wrong = client.post("/accounts/login/", {"username": "judge1", "password": "nope"}, HTTP_ACCEPT="application/json")
    assert wrong.status_code == 400 and wrong.json()["signed_in"] is False
    assert "correct username and password" in wrong.json()["error"]
    right = client.post("/accounts/login/", {"username": "judge1", "password": password}, HTTP_ACCEPT="application/json")
    assert right.status_code == 200
    assert right.json()["signed_in"] is True and right.json()["username"] == "judge1" and right.json()["csrf_token"]


def test_a_form_write_sent_by_the_outbox_is_answered_done_where_the_page_goes(head_judge: Any) -> None:
    round_ = seated(format="wbc", size=6, tables=1)
    round_.tournament.head_judges.add(head_judge)
    table = round_.tables.get()
    client = Client()
    client.force_login(head_judge)
    answer = client.post(f"/tables/{table.pk}/clock/start/", {}, HTTP_X_OUTBOX="1")
    assert answer.status_code == 200 and answer["X-Record"] == "done"
    assert answer["X-Location"] == f"/tables/{table.pk}/clock/"
    # The same form without the outbox: the plain POST/redirect/GET.
    plain = client.post(f"/tables/{table.pk}/clock/pause/", {"reason": "lunch"})
    assert plain.status_code == 302
    # A form's refusal stays a refusal.
    again = client.post(f"/tables/{table.pk}/clock/start/", {}, HTTP_X_OUTBOX="1")
    assert again.status_code == 400 and "X-Record" not in again
    anonymous = Client().post(f"/tables/{table.pk}/clock/resume/", {}, HTTP_X_OUTBOX="1")
    assert anonymous.status_code in (401, 403) and anonymous["X-Refused"] == "sign-in"
