"""The game log's writes on the path of every table judge's post, in written-out SQL.

A post locks its game's row, then appends one event and stores the new position: statements
whose ORM queries cost more CPU to build than the database spent on them, on the request an
event day sends most of at its busiest moment (every judge of the hall within two seconds).
The SQL is built once per process (`functools.cache`): one process serves one database. The
rows are the ORM's own: the instances these return behave as loaded ones (a locked game's
evaluation is deferred; its position comes with the lock, for a process whose cache does not
hold it). The append-only triggers guard these statements as any other.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection
from django.utils import timezone

from foundation.sql_rows import (
    column,
    for_update,
    json_placeholder,
    plain_fields,
    select_list,
    table_name,
)
from gameplay.models import Game, GameEvent
from tournament.models import Table


@functools.cache
def _lock_sql() -> tuple[str, list[str]]:
    fields = plain_fields(Game)
    position = f"g.{column(Game, 'position')}" + ("::text" if connection.vendor == "postgresql" else "")
    # Whether the table's report is filed rides along (a filed game's record is closed).
    filed = (
        f"(SELECT t.{column(Table, 'report_filed_at')} IS NOT NULL FROM {table_name(Table)} t "
        f"WHERE t.{column(Table, 'id')} = g.{column(Game, 'table')})"
    )
    # The last event's id names the exact record the stored position is the one after (the
    # key of the position in a process's cache: gameplay.services).
    head = (
        f"(SELECT e.{column(GameEvent, 'id')} FROM {table_name(GameEvent)} e "
        f"WHERE e.{column(GameEvent, 'game')} = g.{column(Game, 'id')} "
        f"ORDER BY e.{column(GameEvent, 'seq')} DESC LIMIT 1)"
    )
    sql = (
        f"SELECT {select_list(Game, fields, 'g')}, {head}, {filed}, {position} FROM {table_name(Game)} g "
        f"WHERE g.{column(Game, 'table')} = %s{for_update()}"
    )
    return sql, fields


def lock(table_pk: int) -> Game | None:
    """The table's game with its row locked until the transaction ends (and, as `head_event`,
    its last event's id); None before its first event. Its stored position comes along as
    text (`position_text`): a web process that did not record the game's last event (one of
    several) would otherwise load it with a query of its own."""
    sql, fields = _lock_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_pk])
        row = cursor.fetchone()
    if row is None:
        return None
    # The ORM's own loading of these columns (`foundation.sql_rows.instance`), on the database
    # the statement ran on: the evaluation and the position deferred.
    game = Game.from_db(connection.alias, fields, list(row[:-3]))
    game.head_event = row[-3]  # type: ignore[attr-defined]
    game.report_filed = bool(row[-2])  # type: ignore[attr-defined]
    # Decoded only on a miss of this process's cache (gameplay.services.position_of): a
    # retry refused as stale, and a post whose process holds the position, never read it.
    game.position_text = row[-1]  # type: ignore[attr-defined]
    return game


_EVENT_COLUMNS = ("game", "seq", "type", "body", "author", "created_at", "reason")


@functools.cache
def _append_sql() -> str:
    values = ", ".join(json_placeholder() if n == "body" else "%s" for n in _EVENT_COLUMNS)
    return (
        f"INSERT INTO {table_name(GameEvent)} ({', '.join(column(GameEvent, n) for n in _EVENT_COLUMNS)}) "
        f"VALUES ({values}) RETURNING {column(GameEvent, 'id')}"
    )


@functools.cache
def _store_sql() -> str:
    return (
        f"UPDATE {table_name(Game)} SET {column(Game, 'seq')} = %s, {column(Game, 'position')} = {json_placeholder()}, "
        f"{column(Game, 'evaluation')} = {json_placeholder()}, {column(Game, 'updated_at')} = %s "
        f"WHERE {column(Game, 'id')} = %s"
    )


@functools.cache
def _record_sql() -> str | None:
    """The update riding the insert as a data-modifying WITH (PostgreSQL); None where the
    database has no such statement (SQLite: two statements)."""
    if connection.vendor != "postgresql":
        return None
    return f"WITH stored AS ({_store_sql()}) {_append_sql()}"


def record(
    game: Game, *, seq: int, type: str, body: dict[str, Any], author: Any, reason: str,
    position: dict[str, Any], evaluation: dict[str, Any], texts: tuple[str, str, str],
) -> GameEvent:
    """Append event #`seq` of the locked `game` (an author or None) and store the game's new
    sequence number, position and evaluation, on the rows and on `game`; the event is answered
    as a saved row. `texts`: the body, the position and the evaluation as the JSON text the
    engine wrote them in (`dune.engine.recording`). One round trip on PostgreSQL: on the path
    of every table judge's post."""
    now = timezone.now()
    author_pk = author.pk if author is not None else None
    body_text, position_text, evaluation_text = texts
    stored = [seq, position_text, evaluation_text, now, game.pk]
    appended = [game.pk, seq, type, body_text, author_pk, now, reason]
    with connection.cursor() as cursor:
        if (sql := _record_sql()) is not None:
            cursor.execute(sql, stored + appended)
        else:
            cursor.execute(_store_sql(), stored)
            cursor.execute(_append_sql(), appended)
        (pk,) = cursor.fetchone()
    game.seq, game.position, game.evaluation, game.updated_at = seq, position, evaluation, now
    game.position_text = None  # type: ignore[attr-defined]  # the text read with the lock is the old position
    event = GameEvent(pk=pk, game=game, seq=seq, type=type, body=body, author=author, created_at=now, reason=reason)
    event._state.adding = False
    event._state.db = connection.alias
    return event
