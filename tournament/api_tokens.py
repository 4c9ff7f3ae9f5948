"""A head judge's own API token, made and revoked on their account page (`/accounts/me/`).

The token is shown once, in the answer that made it; the page afterwards names only when it
was made. Making a new one revokes the old (one token per account: the API's token
authentication, config/token_auth.py). Who may: an account that heads a tournament or may
create one (staff); a table judge's phone signs in with its password."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from rest_framework.authtoken.models import Token


def may_hold_token(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.is_superuser or user.head_judge_of.exists())


def token_of(user: Any) -> Any:
    """The account's token row (None without one): its creation time, never shown again."""
    return Token.objects.filter(user=user).first()


def make_token(user: Any) -> str:
    """A new token for `user`, replacing any earlier one; answers the key, to be shown once."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return str(Token.objects.create(user=user).key)


def revoke_token(user: Any) -> bool:
    """Revoke the account's token; whether there was one."""
    deleted, _rows = Token.objects.filter(user=user).delete()
    return bool(deleted)
