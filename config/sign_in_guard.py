"""Slowing down password guessing without letting anyone lock a judge out.

A venue puts every phone behind one address, so a lock keyed by the address (or by the account
at that address) hands a stranger on the same Wi-Fi a way to keep a judge out for a quarter of
an hour. Two rules instead, both read from django-axes' log of failed sign-ins:

- Per account, a progressive delay: after `FREE_FAILURES` wrong passwords for one account since
  its last sign-in (from anywhere), the next attempt waits 1 s after the latest wrong one, then
  2 s, 4 s... never more than `MAX_DELAY`. Guessing one account is slowed to one try every
  `MAX_DELAY`; the judge who types the right password waits at most that long.
- Per address, a limit for spraying (a few passwords tried on many accounts):
  `SIGN_IN_ADDRESS_LIMIT` wrong passwords from one address within `SPRAY_WINDOW` make that
  address wait until the oldest of them is older than the window.

A phone on which the account signed in before carries a signed cookie naming it (a known
device): its attempts for that account are never delayed by either rule, so a judge on their
own phone is never kept out by what someone else typed.

Every door that checks a password goes through `guarded` (the sign-in page and the admin's):
it reads the wait and checks the password while holding a lock on the account's name, so
twenty concurrent guesses are checked one after another, each seeing the failures before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import wraps
from typing import Any

from axes.models import AccessFailureLog, AccessLog
from django.conf import settings
from django.core import signing
from django.db import connection, transaction
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from config.client_address import client_address

#: Wrong passwords an account may have before attempts are spaced out.
FREE_FAILURES = 3
#: The longest an attempt ever waits for the account's sake.
MAX_DELAY = timedelta(seconds=30)
#: Failures older than this no longer count for the account.
ACCOUNT_WINDOW = timedelta(hours=1)
#: The window of the per-address limit.
SPRAY_WINDOW = timedelta(minutes=15)

DEVICE_COOKIE = "known_device"
DEVICE_SALT = "config.sign_in_guard.known-device"
DEVICE_AGE = timedelta(days=400)
#: Accounts one browser remembers (a phone handed between judges at a table).
DEVICE_ACCOUNTS = 8


@dataclass(frozen=True)
class Wait:
    """An attempt refused for now: how many seconds to wait, and why, in words."""

    seconds: int
    reason: str


def _key(username: str) -> str:
    return (username or "").strip().casefold()


def _known_accounts(request: HttpRequest) -> list[str]:
    """The accounts that signed in from this browser (its signed known-device cookie)."""
    raw = request.COOKIES.get(DEVICE_COOKIE, "")
    try:
        known = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_AGE)
    except signing.BadSignature:
        return []
    return [str(k) for k in known] if isinstance(known, list) else []


def is_known_device(request: HttpRequest, username: str) -> bool:
    """The account signed in from this browser before (a judge's own or a shared desk phone)."""
    return bool(_key(username)) and _key(username) in _known_accounts(request)


def remember_device(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a successful sign-in: add the account to this browser's known accounts (the last
    `DEVICE_ACCOUNTS`)."""
    known = [k for k in _known_accounts(request) if k != _key(username)]
    known = [*known, _key(username)][-DEVICE_ACCOUNTS:]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps(known, salt=DEVICE_SALT),
        max_age=int(DEVICE_AGE.total_seconds()),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def account_delay(failures: int) -> timedelta:
    """How long after its latest wrong password an account's next attempt waits."""
    if failures < FREE_FAILURES:
        return timedelta(0)
    return min(timedelta(seconds=2 ** min(failures - FREE_FAILURES, 16)), MAX_DELAY)


def _seconds(until: datetime, now: datetime) -> int:
    return max(1, int((until - now).total_seconds() + 0.999))


def wait_before(request: HttpRequest, username: str, *, now: datetime | None = None) -> Wait | None:
    """Whether this sign-in attempt must wait (and how long), or None to check the password."""
    if is_known_device(request, username):
        return None
    now = now or timezone.now()
    key = _key(username)
    if key:
        last_in = AccessLog.objects.filter(username__iexact=key).aggregate(t=Max("attempt_time"))["t"]
        since = max(filter(None, (last_in, now - ACCOUNT_WINDOW)))
        failed = AccessFailureLog.objects.filter(username__iexact=key, attempt_time__gt=since)
        count = failed.count()
        delay = account_delay(count)
        last = failed.aggregate(t=Max("attempt_time"))["t"] if delay else None
        if last is not None and now < last + delay:
            return Wait(
                _seconds(last + delay, now),
                f"{count} wrong passwords for this account; each new attempt waits a little longer"
                f" (at most {int(MAX_DELAY.total_seconds())} seconds)",
            )
    limit = int(getattr(settings, "SIGN_IN_ADDRESS_LIMIT", 50))
    recent = AccessFailureLog.objects.filter(
        ip_address=client_address(request), attempt_time__gt=now - SPRAY_WINDOW
    ).order_by("-attempt_time")
    times: list[Any] = list(recent.values_list("attempt_time", flat=True)[:limit])
    if len(times) >= limit:
        return Wait(
            _seconds(times[-1] + SPRAY_WINDOW, now),
            f"{limit} wrong passwords from this network within {int(SPRAY_WINDOW.total_seconds() // 60)} minutes",
        )
    return None


#: The first key of the advisory locks taken per account name (PostgreSQL).
_LOCK_CLASS = 0x5349474E  # "SIGN"


@contextmanager
def one_attempt_at_a_time(username: str) -> Iterator[None]:
    """Hold the account's sign-in lock until the attempt is over and its failure, if any, is
    logged: PostgreSQL's transaction-scoped advisory lock on the name; the embedded SQLite
    database starts every transaction IMMEDIATE, which serialises the attempts already."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [_LOCK_CLASS, _key(username)])
        yield


def refusal(request: HttpRequest, wait: Wait) -> HttpResponse:
    """429 saying how long to wait and why (the password was not checked)."""
    context = {"seconds": wait.seconds, "reason": wait.reason}
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(wait.seconds)
    return response


def guarded(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A sign-in view behind the guard: a POST waits its turn for the account, is refused with
    429 when it must wait, and a successful sign-in marks the browser as a known device."""

    @wraps(view)
    def guarded_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        username = str(request.POST.get("username", ""))
        with one_attempt_at_a_time(username):
            wait = wait_before(request, username)
            if wait is not None:
                return refusal(request, wait)
            response = view(request, *args, **kwargs)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and _key(user.get_username()) == _key(username):
            remember_device(request, response, user.get_username())
        return response

    return guarded_view
