"""A head judge makes and revokes their own API token on their account page (shown once), and
each token is throttled on its own."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_head_judge_makes_a_token_shown_once_and_revokes_it(make_user: Any) -> None:
    from tournament import services

    head = make_user("yhead", is_staff=True)
    services.create_tournament(name="Y Open", format="wbc", user=head)
    page = Client()
    page.force_login(head)
    made = page.post("/accounts/me/", {"action": "make_token"})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    key = re.search(r'id="new-token">([0-9a-f]{40})<', made.content.decode()).group(1)
    # Shown once on the page, in its body: the title is words only.
    assert made.content.decode().count(key) == 1
    title = re.search(r"<title>(.*?)</title>", made.content.decode(), re.S).group(1)
    assert "<" not in title and "token" not in title.lower()
    assert key not in page.get("/accounts/me/").content.decode()  # never shown again
    api = Client()
    assert api.get("/api/account/invitations/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    page.post("/accounts/me/", {"action": "revoke_token"})
    assert api.get("/api/account/invitations/", HTTP_AUTHORIZATION=f"Token {key}").status_code in (401, 403)


def test_a_table_judge_gets_no_token(make_user: Any) -> None:
    from rest_framework.authtoken.models import Token

    judge = make_user("tj")
    page = Client()
    page.force_login(judge)
    refused = page.post("/accounts/me/", {"action": "make_token"})
    assert refused.status_code == 400 and "API tokens are for head judges" in refused.content.decode()
    assert not Token.objects.exists()


def test_each_token_is_throttled_on_its_own(make_user: Any, settings: Any) -> None:
    from rest_framework.authtoken.models import Token

    settings.TOKEN_RATE = "5/min"
    cache.clear()
    first = Token.objects.create(user=make_user("a", is_staff=True)).key
    second = Token.objects.create(user=make_user("b", is_staff=True)).key
    api = Client()
    answers = [api.get("/api/account/invitations/", HTTP_AUTHORIZATION=f"Token {first}").status_code
               for _ in range(7)]
    assert answers == [200] * 5 + [429] * 2
    limited = api.get("/api/account/invitations/", HTTP_AUTHORIZATION=f"Token {first}")
    assert int(limited["Retry-After"]) >= 1 and limited["Content-Type"].startswith("application/json")
    assert api.get("/api/account/invitations/", HTTP_AUTHORIZATION=f"Token {second}").status_code == 200
    cache.clear()
