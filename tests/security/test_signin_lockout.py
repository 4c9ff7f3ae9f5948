"""Wrong passwords slow guessing down without letting anyone lock a judge out
(config/sign_in_guard.py): per account a progressive delay of at most 30 seconds, per client
address a limit for spraying that does not hold back a phone the account signed in on before
with the password it has now.

Everyone at a venue shares one address behind its NAT: a stranger on the same Wi-Fi typing a
judge's name with wrong passwords must never keep the judge out. The client address comes from
the reverse proxy's header only when the app is told it runs behind one (`BEHIND_TLS_PROXY`)
and only when the request really comes from that proxy.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from config.sign_in_guard import FREE_FAILURES, MAX_DELAY, account_delay

pytestmark = pytest.mark.django_db

PROXY = "172.30.0.10"
VENUE = "203.0.113.66"


@pytest.fixture
def clock() -> Iterator[Any]:
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


def _fail(client: Any, username: str, times: int, **meta: Any) -> None:
    for _ in range(times):
        client.post("/accounts/login/", {"username": username, "password": "wrong"}, **meta)


def _sign_in(client: Any, username: str, password: str, **meta: Any) -> int:
    return client.post("/accounts/login/", {"username": username, "password": password}, **meta).status_code


def test_the_delay_grows_with_each_wrong_password_and_never_passes_thirty_seconds() -> None:
    delays = [account_delay(n) for n in range(40)]
    assert delays[:FREE_FAILURES] == [timedelta(0)] * FREE_FAILURES
    assert delays[FREE_FAILURES : FREE_FAILURES + 3] == [timedelta(seconds=s) for s in (1, 2, 4)]
    assert max(delays) == MAX_DELAY == timedelta(seconds=30)


def test_a_stranger_at_the_venue_never_keeps_a_judge_on_their_own_phone_out(
    make_user: Any, password: str, clock: Any, settings: Any
) -> None:
    """The stranger's guesses fill the venue address's limit: a new browser there waits for the
    window, the judge's own phone only for the account's delay (never more than 30 s)."""
    settings.SIGN_IN_ADDRESS_LIMIT = 10
    make_user("judge3")
    phone = Client()
    assert _sign_in(phone, "judge3", password, REMOTE_ADDR=VENUE) == 302
    phone.post("/accounts/logout/")
    stranger = Client()
    for _ in range(40):  # one after another, each as soon as it is allowed
        _fail(stranger, "judge3", 1, REMOTE_ADDR=VENUE)
        clock.shift(MAX_DELAY)
    assert _sign_in(Client(), "judge3", password, REMOTE_ADDR=VENUE) == 429
    assert _sign_in(phone, "judge3", password, REMOTE_ADDR=VENUE) == 302


def test_on_a_new_phone_the_judge_waits_at_most_thirty_seconds_however_many_wrong_passwords(
    make_user: Any, password: str, clock: Any
) -> None:
    make_user("judge4")
    stranger, phone = Client(), Client()
    _fail(stranger, "judge4", 30, REMOTE_ADDR=VENUE)
    refused = phone.post("/accounts/login/", {"username": "judge4", "password": password}, REMOTE_ADDR=VENUE)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) <= 30 and "Try again in" in refused.content.decode()
    clock.shift(MAX_DELAY)
    assert _sign_in(phone, "judge4", password, REMOTE_ADDR=VENUE) == 302


def test_guessing_one_account_is_spaced_out_from_any_address(
    make_user: Any, password: str, clock: Any
) -> None:
    make_user("judge5")
    guesser = Client()
    _fail(guesser, "judge5", FREE_FAILURES, REMOTE_ADDR="198.51.100.1")
    # The next try, from another address at once, must wait a second; a second later it is checked.
    assert _sign_in(guesser, "judge5", "wrong", REMOTE_ADDR="198.51.100.2") == 429
    clock.shift(timedelta(seconds=1))
    assert _sign_in(guesser, "judge5", "wrong", REMOTE_ADDR="198.51.100.3") == 200
    assert _sign_in(guesser, "judge5", password, REMOTE_ADDR="198.51.100.4") == 429  # now 2 s
    clock.shift(timedelta(seconds=2))
    assert _sign_in(guesser, "judge5", password, REMOTE_ADDR="198.51.100.4") == 302


def test_wrong_passwords_for_one_name_do_not_slow_others(make_user: Any, password: str) -> None:
    make_user("judge6")
    _fail(Client(), "nobody", 10, REMOTE_ADDR=VENUE)
    assert _sign_in(Client(), "judge6", password, REMOTE_ADDR=VENUE) == 302


def test_spraying_from_one_address_makes_that_address_wait_but_not_a_known_phone(
    make_user: Any, password: str, settings: Any
) -> None:
    settings.SIGN_IN_ADDRESS_LIMIT = 6
    make_user("judge7")
    phone = Client()
    assert _sign_in(phone, "judge7", password, REMOTE_ADDR=VENUE) == 302
    phone.post("/accounts/logout/")
    sprayer = Client()
    for n in range(6):
        _fail(sprayer, f"someone{n}", 1, REMOTE_ADDR=VENUE)
    make_user("judge8")
    assert _sign_in(Client(), "judge8", password, REMOTE_ADDR=VENUE) == 429
    assert _sign_in(Client(), "judge8", password, REMOTE_ADDR="198.51.100.7") == 302
    assert _sign_in(phone, "judge7", password, REMOTE_ADDR=VENUE) == 302


def _spray(client: Any, **meta: Any) -> None:
    for n in range(6):
        client.post("/accounts/login/", {"username": f"someone{n}", "password": "wrong"}, **meta)


def test_behind_the_proxy_each_client_is_told_apart(make_user: Any, password: str, settings: Any) -> None:
    settings.BEHIND_TLS_PROXY = True
    settings.TRUSTED_PROXIES = [PROXY]
    settings.SIGN_IN_ADDRESS_LIMIT = 6
    make_user("judge9")
    _spray(Client(), REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=VENUE)
    assert (
        _sign_in(Client(), "judge9", password, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7") == 302
    )
    assert _sign_in(Client(), "judge9", password, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=VENUE) == 429


def test_behind_the_proxy_the_address_the_proxy_saw_counts_not_what_the_client_claims(
    make_user: Any, password: str, settings: Any
) -> None:
    """The proxy appends the address it saw; anything left of it was written by the client."""
    settings.BEHIND_TLS_PROXY = True
    settings.TRUSTED_PROXIES = [PROXY]
    settings.SIGN_IN_ADDRESS_LIMIT = 6
    make_user("judge10")
    client = Client()
    for n in range(6):
        client.post(
            "/accounts/login/",
            {"username": f"someone{n}", "password": "wrong"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, {VENUE}",
        )
    assert _sign_in(Client(), "judge10", password, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=VENUE) == 429


@pytest.mark.parametrize("behind", [False, True], ids=["not-behind-a-proxy", "not-from-the-proxy"])
def test_the_header_is_ignored_unless_the_proxy_sent_it(
    make_user: Any, password: str, settings: Any, behind: bool
) -> None:
    settings.BEHIND_TLS_PROXY = behind
    settings.TRUSTED_PROXIES = [PROXY]
    settings.SIGN_IN_ADDRESS_LIMIT = 6
    make_user("judge11")
    client = Client()
    for n in range(6):
        client.post(
            "/accounts/login/",
            {"username": f"someone{n}", "password": "wrong"},
            REMOTE_ADDR=VENUE,
            HTTP_X_FORWARDED_FOR=f"10.9.9.{n}",
        )
    assert _sign_in(Client(), "judge11", password, REMOTE_ADDR=VENUE, HTTP_X_FORWARDED_FOR="10.1.1.1") == 429


def test_the_spraying_limit_ends_with_its_window(
    make_user: Any, password: str, settings: Any, clock: Any
) -> None:
    settings.SIGN_IN_ADDRESS_LIMIT = 6
    make_user("judge12")
    _spray(Client(), REMOTE_ADDR=VENUE)
    assert _sign_in(Client(), "judge12", password, REMOTE_ADDR=VENUE) == 429
    clock.shift(timedelta(minutes=15, seconds=1))
    assert _sign_in(Client(), "judge12", password, REMOTE_ADDR=VENUE) == 302


def test_a_phone_shared_by_two_judges_knows_both(make_user: Any, password: str, settings: Any) -> None:
    settings.SIGN_IN_ADDRESS_LIMIT = 6
    make_user("judge13")
    make_user("judge14")
    phone = Client()
    for name in ("judge13", "judge14"):
        assert _sign_in(phone, name, password, REMOTE_ADDR=VENUE) == 302
        phone.post("/accounts/logout/")
    _spray(Client(), REMOTE_ADDR=VENUE)
    assert _sign_in(Client(), "judge13", password, REMOTE_ADDR=VENUE) == 429
    for name in ("judge13", "judge14"):
        assert _sign_in(phone, name, password, REMOTE_ADDR=VENUE) == 302
        phone.post("/accounts/logout/")


@pytest.mark.parametrize(("peer", "secure"), [(PROXY, True), (VENUE, False)], ids=["from-the-proxy", "from-anyone-else"])
def test_the_scheme_the_proxy_states_is_believed_only_from_the_proxy(
    settings: Any, peer: str, secure: bool
) -> None:
    settings.BEHIND_TLS_PROXY = True
    settings.TRUSTED_PROXIES = [PROXY]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    answer = Client().get("/accounts/login/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_PROTO="https")
    # Believed: served as HTTPS. Not believed: plain HTTP, sent to HTTPS first.
    assert (answer.status_code == 200) is secure
    assert (answer.status_code == 301 and answer["Location"].startswith("https://")) is not secure
