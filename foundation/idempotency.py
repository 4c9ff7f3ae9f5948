"""Exactly once across retries: the `Idempotency-Key` of an API write, the `idempotency_key`
field of a form.

A phone on venue Wi-Fi cannot tell a lost request from a lost answer, so it sends the same
write again; a person taps twice. With a key, the first successful answer is stored in an
`IdempotencyRecord` in the same transaction as what it wrote, under a unique
(user, scope, key) constraint:

- a repeat with the same body gets the stored answer back and records nothing (its write is
  refused or rolled back, then the stored answer is found);
- the same key with another body is refused (`KeyReused`, HTTP 422 naming the header);
- two repeats racing each other: the second waits for the first (the game's row lock, or
  PostgreSQL making its insert of the key wait for the first transaction), is refused as stale
  or fails on the constraint, and answers from the record the first one committed.

A refused write (400, 409...) records nothing and stores nothing, so sending it again simply
asks again. Records older than `KEEP` are removed by a periodic task (`forget_old`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.signals import request_started
from django.db import connection, transaction
from django.utils import timezone

from foundation import json_text
from foundation.models import IdempotencyRecord
from foundation.sql_rows import column, json_placeholder, table_name

__all__ = [
    "HEADER", "FORM_FIELD", "KEEP", "Answer", "KeyReused", "BadKey", "scope_for", "request_hash", "check_key",
    "once", "keep", "earlier", "replayed", "forget_lookups", "forget_old", "stored_answer_join", "read_along",
]

#: The request header that carries the client's key (the API).
HEADER = "Idempotency-Key"
#: The form field that carries it (the pages' forms, plain or htmx).
FORM_FIELD = "idempotency_key"
#: How long a key is remembered (at least; the cleanup removes only older records).
KEEP = timedelta(hours=24)
#: Longest key accepted (a UUID is 36 characters).
MAX_KEY = 200


class KeyReused(ValueError):
    """The key was already used for a different request body."""

    status = 422

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(
            f"{HEADER} {key!r} was already used for a different request; "
            "send a new key for a new action"
        )


class BadKey(ValueError):
    """The header is present but not a usable key."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(f"{HEADER}: {message}")


@dataclass(frozen=True)
class Answer:
    """A write's answer: HTTP status and JSON body; `replayed` when it came from the record."""

    status: int
    body: dict[str, Any]
    replayed: bool = False
    #: The body's JSON text when this answer wrote it (a first send's answer): sent as it is.
    text: str | None = None


def scope_for(table_pk: int, endpoint: str, *, kind: str = "table") -> str:
    """The scope of a key: one table's one endpoint (`table:12:events`), or another target's
    (`round:4:clocks`, `tournament:3:desk` with `kind`)."""
    return f"{kind}:{int(table_pk)}:{endpoint}"


def _plain(data: Any) -> Any:
    """`data` as plain JSON values (decimals and dates as strings), as it is stored."""
    return json_text.loads(json_text.dumps(data))


def request_hash(body: Any) -> str:
    """SHA-256 of the body in canonical JSON (key order and spacing do not matter)."""
    text = json.dumps(_plain(body), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def check_key(key: str | None) -> str | None:
    """The key, stripped; None when there is none. Raises BadKey (empty, too long, not text)."""
    if key is None:
        return None
    key = key.strip()
    if not key:
        raise BadKey("is empty; send a unique value per action (a UUID) or leave the header out")
    if len(key) > MAX_KEY or not key.isprintable():
        raise BadKey(f"must be printable text of at most {MAX_KEY} characters")
    return key


#: A stored answer as read back: (request hash, status, the answer's JSON text).
Stored = tuple[str, int, str]


def _replay(stored: Stored, digest: str, key: str) -> Answer:
    """The stored answer, sent again as the JSON text it was stored as (decoded once, by
    orjson, for the callers that read it): a retry on the venue's Wi-Fi costs a fraction of
    the write it repeats."""
    stored_digest, status, text = stored
    if stored_digest != digest:
        raise KeyReused(key)
    return Answer(status=status, body=json_text.loads(text), replayed=True, text=text)


def _answer_columns(alias: str) -> str:
    """The stored answer's columns as `_stored` reads them: (request hash, status, JSON text)."""
    response = f"{alias}.{column(IdempotencyRecord, 'response')}" + ("::text" if connection.vendor == "postgresql" else "")
    return (
        f"{alias}.{column(IdempotencyRecord, 'request_hash')}, {alias}.{column(IdempotencyRecord, 'status')}, {response}"
    )


@functools.cache
def _stored_sql() -> str:
    return (
        f"SELECT {_answer_columns('r')} FROM {table_name(IdempotencyRecord)} r "
        f"WHERE r.{column(IdempotencyRecord, 'user')} = %s "
        f"AND r.{column(IdempotencyRecord, 'scope')} = %s AND r.{column(IdempotencyRecord, 'key')} = %s"
    )


def stored_answer_join(user_column: str) -> tuple[str, str]:
    """(the columns, the `LEFT JOIN`) that read the answer stored under a key along with the
    statement that reads its user (`user_column`: that statement's user id, `u."id"`): its
    placeholders take the scope, then the key. The row's three columns go to `read_along`.
    A retry's door (config.token_auth) reads its token and its stored answer in one statement."""
    on = (
        f"r.{column(IdempotencyRecord, 'user')} = {user_column} AND r.{column(IdempotencyRecord, 'scope')} = %s "
        f"AND r.{column(IdempotencyRecord, 'key')} = %s"
    )
    return _answer_columns("r"), f"LEFT JOIN {table_name(IdempotencyRecord)} r ON {on}"


def _stored(user: Any, scope: str, key: str) -> Stored | None:
    """The answer stored under (user, scope, key), written out (on the path of every retry)."""
    with connection.cursor() as cursor:
        cursor.execute(_stored_sql(), [user.pk, scope, key])
        row = cursor.fetchone()
    return None if row is None else (row[0], int(row[1]), row[2])


#: The record read in this request: ((user id, scope, key), the stored answer or None). A door
#: that looks for a retry's answer before it sets up a write (web.idempotency_api, reading it
#: with the token: `read_along`) found it or found none; `replayed` and the write's `once` then
#: take that read as their own first one instead of asking again.
_looked_up = threading.local()


def forget_lookups(**_: object) -> None:
    """Forget the record read (a new request starts: `request_started`)."""
    _looked_up.read = None


request_started.connect(forget_lookups, dispatch_uid="foundation.idempotency.forget_lookups")


def read_along(user: Any, scope: str, key: str, row: Any) -> None:
    """Note the answer stored under (user, scope, key) as a statement of the request read it
    (`stored_answer_join`'s three columns, all None when there is none): `replayed` and `once`
    take it as their first read in this request."""
    stored = None if row[0] is None else (row[0], int(row[1]), row[2])
    _looked_up.read = ((user.pk, scope, key), stored)


def _read_before(user: Any, scope: str, key: str, *, take: bool) -> tuple[bool, Stored | None]:
    """(whether this request read the record under (user, scope, key) already, what it read);
    `take`: that read is forgotten (`once` takes it once)."""
    read = getattr(_looked_up, "read", None)
    if read is None or read[0] != (user.pk, scope, key):
        return False, None
    if take:
        _looked_up.read = None
    return True, read[1]


def _first_read(user: Any, scope: str, key: str) -> Stored | None:
    """`once`'s first read of the record: the one this request made already (taken once: a
    door's `read_along`, or `replayed`), else `_stored`. A twin committing in between is found
    as before: the write it races is refused (stale, already filed, the key's unique
    constraint) and the record read again."""
    known, stored = _read_before(user, scope, key, take=True)
    return stored if known else _stored(user, scope, key)


@functools.cache
def _store_sql() -> str:
    names = ("user", "scope", "key", "request_hash", "status", "response", "created_at")
    return (
        f"INSERT INTO {table_name(IdempotencyRecord)} ({', '.join(column(IdempotencyRecord, n) for n in names)}) "
        f"VALUES (%s, %s, %s, %s, %s, {json_placeholder()}, %s)"
    )


def _store(*, user: Any, scope: str, key: str, digest: str, status: int, text: str) -> None:
    """The answer (`text`, its JSON) under its key, written out: it is on the path of every
    table judge's post (foundation.sql_rows). The unique constraint refuses a second record."""
    with connection.cursor() as cursor:
        cursor.execute(_store_sql(), [user.pk, scope, key, digest, status, text, timezone.now()])


def once(
    *, user: Any, scope: str, key: str | None, body: Any, perform: Callable[[], tuple[int, dict[str, Any]]],
    plain: bool = False,
) -> Answer:
    """Run `perform` at most once per (user, scope, key) and return its answer.

    `perform` does the write (in the transaction opened here) and returns (status, body).
    Without a key it simply runs; its answer's body is made plain JSON values (decimals and
    moments as text) unless the caller says `perform` answers them already (`plain`): then it
    is the very body `perform` returned, with no JSON text written and read back. A 2xx answer is stored with the key in the same transaction,
    by one insert after the write; any other answer, or an exception, rolls the write back and
    stores nothing.

    A repeat sent after the first answer is answered from the stored record at once. A repeat
    racing the first: the writes this guards are serialised
    (a game's row lock, a table's report), so it waits for the first, then is refused as stale
    or already filed, or its insert of the key fails on the unique constraint; its own write is
    rolled back and it answers from the first one's record. Only `perform` must be a write that
    a repeat cannot silently do twice: true of every caller (they name the sequence number or
    the report they change).

    Raises BadKey, KeyReused, and whatever `perform` raises (its transaction rolled back) when
    no earlier answer is stored under the key.
    """
    key = check_key(key)
    if key is None or not getattr(user, "is_authenticated", False):
        status, data = perform()
        return Answer(status=status, body=data if plain else _plain(data))
    digest = request_hash(body)
    # A retry is answered from its record before anything is written or locked: one indexed
    # read, so a repeat on the venue's Wi-Fi costs a fraction of the write it repeats. A repeat
    # racing its first send finds no record yet; it is refused by its write (stale, already
    # filed) or by the key's unique constraint, and then finds the stored answer.
    earlier = _first_read(user, scope, key)
    if earlier is not None:
        return _replay(earlier, digest, key)
    try:
        with transaction.atomic():
            status, data = perform()
            # Once: the stored answer and the one sent are this text. Read back only when
            # something was not plain JSON (a decimal, a moment), so the first answer is the
            # very one a repeat will get from the record.
            text, converted = json_text.dumps_noting_conversions(data)
            answer = Answer(status=status, body=json_text.loads(text) if converted else data, text=text)
            if 200 <= status < 300:
                _store(user=user, scope=scope, key=key, digest=digest, status=status, text=text)
            else:
                transaction.set_rollback(True)  # nothing recorded, nothing remembered
    except Exception:
        twin = _stored(user, scope, key)  # committed while this one waited: answer as it did
        if twin is not None:
            return _replay(twin, digest, key)
        raise
    if not 200 <= answer.status < 300 and (twin := _stored(user, scope, key)) is not None:
        return _replay(twin, digest, key)
    return answer


def keep(*, user: Any, scope: str, key: str | None, body: Any, status: int, data: dict[str, Any]) -> Answer:
    """The answer of a write the caller has just done, in the transaction that did it: `once`
    without a callback, for a command that performs first and asks for an earlier answer only
    when its write is refused (`earlier`). `data` is plain JSON values (`once`'s `plain`).

    With a key, a 2xx answer is stored under (user, scope, key) by one insert and answered as
    the JSON text stored. An answer stored under the key already (a repeat, or its twin racing
    it) fails the key's unique constraint: the caller's transaction rolls back and `earlier`
    answers. A repeat sent after its first answer cannot do its write again: every caller's
    write names the sequence number or the report it changes, so it is refused as stale or
    already done. Raises BadKey (the caller's transaction rolls back too)."""
    key = check_key(key)
    if key is None or not getattr(user, "is_authenticated", False):
        return Answer(status=status, body=data)
    text, converted = json_text.dumps_noting_conversions(data)
    if 200 <= status < 300:
        _store(user=user, scope=scope, key=key, digest=request_hash(body), status=status, text=text)
    return Answer(status=status, body=json_text.loads(text) if converted else data, text=text)


def earlier(*, user: Any, scope: str, key: str | None, body: Any) -> Answer | None:
    """After a write `keep` was to store was refused or rolled back: the answer stored under
    (user, scope, key) for `body` (its first send's, committed before or while this one
    waited), or None: then the write's own refusal stands. Raises BadKey first (a malformed
    key is refused before anything the write said, as `once` refuses it before the write),
    KeyReused (another body)."""
    key = check_key(key)
    if key is None or not getattr(user, "is_authenticated", False):
        return None
    found = _stored(user, scope, key)
    return None if found is None else _replay(found, request_hash(body), key)


def replayed(*, user: Any, scope: str, key: str | None, body: Any) -> Answer | None:
    """The answer stored under (user, scope, key) for `body`, or None: for a write whose
    target is gone after its first answer (a deleted round), so that its retry finds the
    answer before it looks for the target. Raises BadKey, KeyReused (another body)."""
    key = check_key(key)
    if key is None or not getattr(user, "is_authenticated", False):
        return None
    known, record = _read_before(user, scope, key, take=False)
    if not known:
        record = _stored(user, scope, key)
        _looked_up.read = ((user.pk, scope, key), record)
    if record is None:
        return None
    return _replay(record, request_hash(body), key)


def forget_old(now: Any = None) -> int:
    """Remove records older than KEEP; returns how many."""
    cutoff = (now or timezone.now()) - KEEP
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
