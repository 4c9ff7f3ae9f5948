"""Wrong passwords lock one username at one client address, never a judge everywhere.

The client address comes from the reverse proxy's header only when the app is told it runs
behind one (`BEHIND_TLS_PROXY`) and only when the request really comes from that proxy.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

PROXY = "172.30.0.10"


def _fail(client: Any, settings: Any, username: str, **meta: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": username, "password": "wrong"}, **meta)


def _sign_in(client: Any, username: str, password: str, **meta: Any) -> int:
    return client.post("/accounts/login/", {"username": username, "password": password}, **meta).status_code


def test_wrong_passwords_from_elsewhere_do_not_lock_the_judge_out(
    client: Any, make_user: Any, password: str, settings: Any
) -> None:
    make_user("judge3")
    _fail(client, settings, "judge3", REMOTE_ADDR="203.0.113.66")
    assert _sign_in(client, "judge3", password, REMOTE_ADDR="198.51.100.7") == 302


def test_wrong_passwords_for_one_name_do_not_lock_others_at_that_address(
    client: Any, make_user: Any, password: str, settings: Any
) -> None:
    make_user("judge4")
    _fail(client, settings, "nobody", REMOTE_ADDR="203.0.113.66")
    assert _sign_in(client, "judge4", password, REMOTE_ADDR="203.0.113.66") == 302


def test_the_same_name_from_the_same_address_is_locked(
    client: Any, make_user: Any, password: str, settings: Any
) -> None:
    make_user("judge5")
    _fail(client, settings, "judge5", REMOTE_ADDR="203.0.113.66")
    assert _sign_in(client, "judge5", password, REMOTE_ADDR="203.0.113.66") == 429


def test_behind_the_proxy_each_client_is_told_apart(
    client: Any, make_user: Any, password: str, settings: Any
) -> None:
    settings.BEHIND_TLS_PROXY = True
    settings.TRUSTED_PROXIES = [PROXY]
    make_user("judge6")
    _fail(client, settings, "judge6", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.66")
    assert _sign_in(client, "judge6", password, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7") == 302
    assert _sign_in(client, "judge6", password, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.66") == 429


def test_behind_the_proxy_the_address_the_proxy_saw_counts_not_what_the_client_claims(
    client: Any, make_user: Any, password: str, settings: Any
) -> None:
    """The proxy appends the address it saw; anything left of it was written by the client."""
    settings.BEHIND_TLS_PROXY = True
    settings.TRUSTED_PROXIES = [PROXY]
    make_user("judge7")
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            "/accounts/login/",
            {"username": "judge7", "password": "wrong"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 203.0.113.66",
        )
    assert _sign_in(client, "judge7", password, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.66") == 429


def test_the_header_is_ignored_when_not_behind_the_proxy(
    client: Any, make_user: Any, password: str, settings: Any
) -> None:
    settings.BEHIND_TLS_PROXY = False
    settings.TRUSTED_PROXIES = [PROXY]
    make_user("judge8")
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            "/accounts/login/",
            {"username": "judge8", "password": "wrong"},
            REMOTE_ADDR="203.0.113.66",
            HTTP_X_FORWARDED_FOR=f"10.9.9.{n}",
        )
    assert _sign_in(client, "judge8", password, REMOTE_ADDR="203.0.113.66", HTTP_X_FORWARDED_FOR="10.1.1.1") == 429


def test_the_header_is_ignored_from_a_client_that_is_not_the_proxy(
    client: Any, make_user: Any, password: str, settings: Any
) -> None:
    settings.BEHIND_TLS_PROXY = True
    settings.TRUSTED_PROXIES = [PROXY]
    make_user("judge9")
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            "/accounts/login/",
            {"username": "judge9", "password": "wrong"},
            REMOTE_ADDR="203.0.113.66",
            HTTP_X_FORWARDED_FOR=f"10.9.9.{n}",
        )
    assert _sign_in(client, "judge9", password, REMOTE_ADDR="203.0.113.66", HTTP_X_FORWARDED_FOR="10.1.1.1") == 429


def test_attempts_during_a_lockout_do_not_restart_the_cool_off(
    client: Any, make_user: Any, password: str, settings: Any
) -> None:
    """Fifteen minutes after the lockout began the judge signs in, however often someone kept
    trying the wrong password meanwhile."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    make_user("judge10")
    start = timezone.now()
    with time_machine.travel(start, tick=False) as traveller:
        _fail(client, settings, "judge10", REMOTE_ADDR="203.0.113.66")
        traveller.shift(timedelta(minutes=10))
        _fail(client, settings, "judge10", REMOTE_ADDR="203.0.113.66")
        traveller.shift(timedelta(minutes=6))
        assert _sign_in(client, "judge10", password, REMOTE_ADDR="203.0.113.66") == 302
