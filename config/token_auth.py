"""Token authentication for the API, with the token and its user read in one written-out query.

Every table judge's post is authenticated by its token; building DRF's `select_related` query
through the ORM cost more CPU than the database spent answering it, on the busiest request
of an event day. The answer and the refusals are DRF's own (`Invalid token.`, `User inactive
or deleted.`).
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from foundation import idempotency
from foundation.sql_rows import Along, column, instance, plain_fields, select_list, table_name


@functools.cache
def _query(with_answer: bool = False, along: tuple[str, str] = ("", "")) -> tuple[str, list[str], list[str]]:
    """The SQL, and the token's and the user's fields in the order it reads them; `with_answer`:
    the answer stored under a key of the user's comes along (`foundation.idempotency`), its
    placeholders (scope, key) before the token's; `along`: the columns and joins of other rows
    read along (`foundation.sql_rows.Along`), their placeholders next."""
    token_model, user_model = authentication.TokenAuthentication().get_model(), get_user_model()
    token_fields, user_fields = plain_fields(token_model), plain_fields(user_model)
    user_id = f"u.{column(user_model, user_model._meta.pk.name)}"
    answer_columns, answer_join = idempotency.stored_answer_join(user_id) if with_answer else ("", "")
    along_columns, along_joins = along
    sql = (
        f"SELECT {select_list(token_model, token_fields, 't')}, {select_list(user_model, user_fields, 'u')}"
        f"{', ' + answer_columns if with_answer else ''}{', ' + along_columns if along_columns else ''} "
        f"FROM {table_name(token_model)} t JOIN {table_name(user_model)} u "
        f"ON {user_id} = t.{column(token_model, 'user')} {answer_join} {along_joins} "
        f"WHERE t.{column(token_model, 'key')} = %s"
    )
    return sql, token_fields, user_fields


#: How many columns the stored answer takes in the row (`idempotency.stored_answer_join`).
_ANSWER_WIDTH = 3


def token_user(key: str, *, answer: tuple[str, str] | None = None, along: Along | None = None) -> tuple[Any, Any] | None:
    """The user and the token of `key` (the user maybe inactive), or None for no such token.

    `answer`: (scope, idempotency key) of a write this request sends: the answer stored under
    it for the token's user is read in the same statement and noted for the write
    (`idempotency.read_along`), found or not; `along`: another row the request needs, read in
    the same statement too (the table a post writes to: `tournament.table_rows.along`). A
    retry costs one statement before its answer."""
    sql, token_fields, user_fields = _query(answer is not None, (along.columns, along.joins) if along else ("", ""))
    with connection.cursor() as cursor:
        cursor.execute(sql, [*(answer or ()), *(along.params if along else ()), key])
        row = cursor.fetchone()
    if row is None:
        return None
    split, end = len(token_fields), len(token_fields) + len(user_fields)
    user = instance(get_user_model(), user_fields, row[split:end])
    token = instance(authentication.TokenAuthentication().get_model(), token_fields, row[:split])
    token.user = user
    if answer is not None:
        idempotency.read_along(user, answer[0], answer[1], row[end:end + _ANSWER_WIDTH])
        end += _ANSWER_WIDTH
    if along is not None:
        along.take(row[end:end + along.width])
    return user, token


#: Where a request carries the user and token its door already read from its `Authorization`
#: header (web.idempotency_api, looking for a retry's answer first): read once per request.
READ = "token_read"


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        read = getattr(getattr(request, "_request", request), READ, None)
        return read if read is not None else super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        found = token_user(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not found[0].is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return found
