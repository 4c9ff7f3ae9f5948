"""One-time sign-in codes: after a restore that could not carry the judges' passwords (a laptop
that was not paired with the serving one), the head judge hands each judge a short code instead
of typing new passwords (`bin/venue sign_in_codes TOURNAMENT`). A code signs its account in once,
within `LIFE`, through every password door (the sign-in page, the phone's sign-in sheet, the API):
it is the password field's value, checked by `CodeBackend` after the accounts' own passwords.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import BaseBackend
from django.contrib.auth.hashers import check_password, make_password
from django.db import models, transaction
from django.utils import timezone

from venue.models import SignInCode

#: How long a code signs in (a day of the event).
LIFE = dt.timedelta(hours=24)
#: Letters and digits no one misreads (no 0/O, 1/l/I).
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_code() -> str:
    """Twelve characters in three groups (about 59 bits): `k7pq-m2xd-9hrt`."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(12))
    return "-".join(raw[i:i + 4] for i in range(0, 12, 4))


def judges_of(tournament: Any) -> models.QuerySet[Any]:
    """Every account with a judge's role in the tournament (head judges, table judges, tables' judges)."""
    return get_user_model().objects.filter(
        models.Q(head_judge_of=tournament)
        | models.Q(table_judge_of=tournament)
        | models.Q(judged_tables__round__tournament=tournament)
    ).distinct().order_by("username")


def give_codes(users: list[Any], *, now: dt.datetime | None = None) -> dict[str, str]:
    """A new code for each account (replacing its earlier one): {username: code}."""
    at = now or timezone.now()
    given: dict[str, str] = {}
    with transaction.atomic():
        for user in users:
            code = new_code()
            SignInCode.objects.update_or_create(user=user, defaults={
                "code_hash": make_password(_plain(code)), "expires_at": at + LIFE})
            given[user.get_username()] = code
    return given


def _plain(code: str) -> str:
    return "".join(ch for ch in code.lower() if ch.isalnum())


class CodeBackend(BaseBackend):
    """Signs an account in with its one-time code (then the code is gone)."""

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if not username or not password:
            return None
        model = get_user_model()
        try:
            user = model._default_manager.get_by_natural_key(username)
        except model.DoesNotExist:
            return None
        with transaction.atomic():
            row = SignInCode.objects.select_for_update().filter(user=user).first()
            if row is None or row.expires_at <= timezone.now() or not check_password(_plain(password), row.code_hash):
                return None
            row.delete()
        return user if getattr(user, "is_active", True) else None

    def get_user(self, user_id: Any) -> Any:
        return get_user_model()._default_manager.filter(pk=user_id).first()
