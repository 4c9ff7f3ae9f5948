"""A head judge makes a table judge's account without typing a password: the page (or the
API) shows a one-time sign-in code once; the judge signs in with it and is a table judge of
that tournament, whose sign-in content may carry the account."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(make_user: Any) -> tuple[Client, Any]:
    from tournament import services

    head = make_user("yhead", is_staff=True)
    tournament = services.create_tournament(name="Y Open", format="wbc", user=head)
    client = Client()
    client.force_login(head)
    return client, tournament


def test_the_dashboard_makes_an_account_and_shows_its_code_once(desk: tuple[Client, Any]) -> None:
    from tournament.judges import sign_in_accounts

    client, tournament = desk
    made = client.post(f"/tournaments/{tournament.pk}/", {"action": "make_judge", "username": "stilgar",
                                                          "idempotency_key": "make-1"})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    code = re.search(r'id="judge-code">([a-z0-9-]+)<', made.content.decode()).group(1)
    assert list(tournament.table_judges.values_list("username", flat=True)) == ["stilgar"]
    assert list(sign_in_accounts(tournament).values_list("username", flat=True)) == ["yhead", "stilgar"]
    again = client.post(f"/tournaments/{tournament.pk}/", {"action": "make_judge", "username": "stilgar",
                                                           "idempotency_key": "make-1"}, follow=True)
    assert code not in again.content.decode()  # a retry shows no code and makes no second account
    judge = Client()
    assert judge.post("/accounts/login/", {"username": "stilgar", "password": code}).status_code == 302
    assert Client().post("/accounts/login/", {"username": "stilgar", "password": code}).status_code == 200  # once
    fresh = client.post(f"/tournaments/{tournament.pk}/", {"action": "new_code", "username": "stilgar"})
    assert re.search(r'id="judge-code">([a-z0-9-]+)<', fresh.content.decode())


@pytest.mark.parametrize("name", ["YHEAD", "stilgаr", ""])
def test_a_taken_lookalike_or_empty_name_is_refused_next_to_the_field(desk: tuple[Client, Any], name: str) -> None:
    client, tournament = desk
    refused = client.post(f"/tournaments/{tournament.pk}/", {"action": "make_judge", "username": name})
    assert refused.status_code == 200 and 'id="new-username-error"' in refused.content.decode()
    assert not tournament.table_judges.exists()


def test_a_new_code_goes_only_to_an_account_made_for_the_tournament(desk: tuple[Client, Any], make_user: Any) -> None:
    client, tournament = desk
    make_user("other")
    refused = client.post(f"/tournaments/{tournament.pk}/", {"action": "new_code", "username": "other"})
    assert "is not an account made for Y Open" in refused.content.decode()


def test_the_api_answers_the_code_once(desk: tuple[Client, Any]) -> None:
    client, tournament = desk
    url = f"/api/tournaments/{tournament.pk}/table-judge-accounts/"
    first = client.post(url, {"username": "chani"}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201 and first.json()["code"]
    again = client.post(url, {"username": "chani"}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k1")
    assert again.status_code == 201 and "code" not in again.json() and again["Idempotent-Replayed"] == "true"
