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


@pytest.fixture
def redis_counters(monkeypatch: Any) -> Any:
    """The token throttle counting on Redis, as in production (the suite's counters live in memory)."""
    import os
    import uuid

    from config.redis_cache import RedisCache
    from config.token_throttle import TokenRateThrottle

    counters = RedisCache(os.environ["REDIS_URL"], {"KEY_PREFIX": f"counters-{uuid.uuid4().hex[:8]}"})
    monkeypatch.setattr(TokenRateThrottle, "cache", counters)
    yield counters
    counters.clear()


def test_each_token_is_throttled_on_its_own_on_redis(make_user: Any, settings: Any, redis_counters: Any) -> None:
    from rest_framework.authtoken.models import Token

    settings.TOKEN_RATE = "5/min"
    first = Token.objects.create(user=make_user("a", is_staff=True)).key
    second = Token.objects.create(user=make_user("b", is_staff=True)).key
    api = Client()
    answers = [api.get("/api/account/invitations/", HTTP_AUTHORIZATION=f"Token {first}").status_code
               for _ in range(7)]
    assert answers == [200] * 5 + [429] * 2
    limited = api.get("/api/account/invitations/", HTTP_AUTHORIZATION=f"Token {first}")
    # The oldest of the five leaves the minute's window in about a minute.
    assert 55 <= int(limited["Retry-After"]) <= 60 and limited["Content-Type"].startswith("application/json")
    assert api.get("/api/account/invitations/", HTTP_AUTHORIZATION=f"Token {second}").status_code == 200


def test_a_token_counted_from_many_threads_at_once_gets_exactly_its_rate(make_user: Any, settings: Any,
                                                                          redis_counters: Any) -> None:
    """Web processes counting one token at the same moment: none of its requests goes uncounted."""
    from concurrent.futures import ThreadPoolExecutor
    from types import SimpleNamespace

    from rest_framework.authtoken.models import Token

    from config.token_throttle import TokenRateThrottle

    settings.TOKEN_RATE = "40/min"
    request = SimpleNamespace(auth=Token(key="f" * 40))
    with ThreadPoolExecutor(8) as pool:
        allowed = list(pool.map(lambda _: TokenRateThrottle().allow_request(request, None), range(100)))
    assert allowed.count(True) == 40


def test_a_window_past_its_length_lets_the_token_in_again(settings: Any, redis_counters: Any,
                                                          monkeypatch: Any) -> None:
    from types import SimpleNamespace

    from rest_framework.authtoken.models import Token

    from config.token_throttle import TokenRateThrottle

    settings.TOKEN_RATE = "2/s"
    request = SimpleNamespace(auth=Token(key="e" * 40))
    clock = [1000.0]
    monkeypatch.setattr(TokenRateThrottle, "timer", lambda self: clock[0])
    assert [TokenRateThrottle().allow_request(request, None) for _ in range(3)] == [True, True, False]
    clock[0] += 0.5
    refused = TokenRateThrottle()
    assert not refused.allow_request(request, None) and refused.wait() == 1.0  # told at least a second
    clock[0] += 0.6  # the first two left the window
    assert TokenRateThrottle().allow_request(request, None)
