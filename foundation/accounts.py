"""Accounts by the name a person types: one key for every door and every guard.

`dune.text_rules.account_key` says what two names are compared by; this module finds the
account a typed name means (`account_named`), the one name the sign-in doors, their guard and
the failure log then all see (`sign_in_name`), and refuses a new name that mixes scripts or
looks like an existing account's (`username_problem`).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from dune.text_rules import account_key


def account_named(typed: Any) -> Any:
    """The account whose name has the same key as `typed` (its exact name first), or None."""
    key = account_key(typed)
    if not key:
        return None
    users = get_user_model().objects
    folded = unicodedata.normalize("NFKC", str(typed).strip())
    exact = users.filter(username=folded).first()
    if exact is not None:
        return exact
    for candidate in users.filter(username__iexact=folded).order_by("pk"):
        if account_key(candidate.get_username()) == key:
            return candidate
    # A name the database's case rule does not fold the way Python does (ß, ς): compare keys.
    for candidate in users.filter(username__iexact=key).order_by("pk"):
        if account_key(candidate.get_username()) == key:
            return candidate
    return None


def sign_in_name(typed: Any) -> str:
    """The one name an attempt to sign in as `typed` is guarded, logged and authenticated
    under: the account's own name when a name of the same key exists, else the key itself (so
    that every variant of a name nobody holds counts as one)."""
    account = account_named(typed)
    return account.get_username() if account is not None else account_key(typed)


def username_problem(name: Any) -> str | None:
    """Why `name` cannot be a new account's name, in words; None when it can. Refused: a name
    whose letters mix scripts with lookalikes (Cyrillic `а` among Latin letters), and a name of
    the same key as an existing account's (`Tvd`, `ｔｖｄ` beside `tvd`)."""
    if not isinstance(name, str) or not name.strip():
        return _("an account needs a name")
    if confusables.is_dangerous(name) or confusables.is_mixed_script(name, allowed_aliases=["COMMON"]):
        return _("%(name)r mixes letters of several scripts that look alike; use the letters of one script")% {
            "name": name}
    existing = account_named(name)
    if existing is not None:
        return _("%(name)r looks like the existing account %(existing)r; choose another name") % {
            "name": name, "existing": existing.get_username()}
    return None
