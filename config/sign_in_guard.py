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

A phone on which the account signed in before carries a signed cookie naming it with a
fingerprint of its current password (a known device, for `DEVICE_AGE`): its attempts for that
account are not held back by the per-address limit, so a crowd of guesses on the venue's one
address never keeps a judge on their own phone out; the per-account delay holds for it as for
any browser (a cookie is no licence to guess), and a password change forgets every device.

Every attempt is known by one name (`foundation.accounts.sign_in_name`: the account whose
name has the same key, NFKC and case-folded as `dune.text_rules.account_key` says): `ｔｖｄ`,
`TVD` and `tvd` are one account to the guard, the failure log and the authentication alike.

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
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from config.client_address import client_address
from dune.text_rules import account_key
from foundation import accounts

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
#: How long a browser stays known (an event season; it is forgotten sooner by a password change).
DEVICE_AGE = timedelta(days=30)
#: Accounts one browser remembers (a phone handed between judges at a table).
DEVICE_ACCOUNTS = 8


@dataclass(frozen=True)
class Wait:
    """An attempt refused for now: how many seconds to wait, and why, in words."""

    seconds: int
    reason: str


def _key(username: str) -> str:
    return account_key(username)


def _fingerprint(user: Any) -> str:
    """A short fingerprint of the account's current password hash: a new password, a new print."""
    return salted_hmac(DEVICE_SALT, f"{user.pk}:{user.password}").hexdigest()[:24]


def _known_devices(request: HttpRequest) -> list[list[str]]:
    """The [account key, password fingerprint] pairs this browser's signed cookie holds."""
    raw = request.COOKIES.get(DEVICE_COOKIE, "")
    try:
        known = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_AGE)
    except signing.BadSignature:
        return []
    if not isinstance(known, list):
        return []
    return [[str(k[0]), str(k[1])] for k in known if isinstance(k, list) and len(k) == 2]


def is_known_device(request: HttpRequest, username: str) -> bool:
    """The account signed in from this browser before, with the password it has now."""
    account = accounts.account_named(username)
    if account is None:
        return False
    return [_key(account.get_username()), _fingerprint(account)] in _known_devices(request)


def remember_device(request: HttpRequest, response: HttpResponse, user: Any) -> None:
    """After a successful sign-in: add the account, with its password's fingerprint, to this
    browser's known accounts (the last `DEVICE_ACCOUNTS`)."""
    key = _key(user.get_username())
    known = [k for k in _known_devices(request) if k[0] != key]
    known = [*known, [key, _fingerprint(user)]][-DEVICE_ACCOUNTS:]
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
    """Whether this sign-in attempt must wait (and how long), or None to check the password.
    `username` is the attempt's one name (`foundation.accounts.sign_in_name`)."""
    now = now or timezone.now()
    key = _key(username)
    if key:
        last_in = AccessLog.objects.filter(username__iexact=username).aggregate(t=Max("attempt_time"))["t"]
        since = max(filter(None, (last_in, now - ACCOUNT_WINDOW)))
        failed = AccessFailureLog.objects.filter(username__iexact=username, attempt_time__gt=since)
        count = failed.count()
        delay = account_delay(count)
        last = failed.aggregate(t=Max("attempt_time"))["t"] if delay else None
        if last is not None and now < last + delay:
            return Wait(
                _seconds(last + delay, now),
                _("%(count)s wrong passwords for this account; each new attempt waits a little longer"
                  " (at most %(most)s seconds)") % {"count": count, "most": int(MAX_DELAY.total_seconds())},
            )
    if is_known_device(request, username):
        return None  # a judge's own phone is not held back by what others on its network typed
    limit = int(getattr(settings, "SIGN_IN_ADDRESS_LIMIT", 50))
    recent = AccessFailureLog.objects.filter(
        ip_address=client_address(request), attempt_time__gt=now - SPRAY_WINDOW
    ).order_by("-attempt_time")
    times: list[Any] = list(recent.values_list("attempt_time", flat=True)[:limit])
    if len(times) >= limit:
        return Wait(
            _seconds(times[-1] + SPRAY_WINDOW, now),
            _("%(limit)s wrong passwords from this network within %(minutes)s minutes")
            % {"limit": limit, "minutes": int(SPRAY_WINDOW.total_seconds() // 60)},
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
        typed = request.POST.get("username", "")
        username = accounts.sign_in_name(typed)
        if typed != username:  # one name for the guard, the failure log and the authentication
            data = request.POST.copy()
            data["username"] = username
            request.POST = data
        with one_attempt_at_a_time(username):
            wait = wait_before(request, username)
            if wait is not None:
                return refusal(request, wait)
            response = view(request, *args, **kwargs)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and _key(user.get_username()) == _key(username):
            remember_device(request, response, user)
        return response

    return guarded_view
