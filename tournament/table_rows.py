"""A table with its round in one written-out query: what a command on the table needs first
(who judges it, whether its round is published), on the path every table judge's post takes."""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from typing import Any

from django.core.signals import request_started
from django.db import connection

from foundation.sql_rows import Along, column, instance, plain_fields, select_list, table_name
from tournament.models import Round, Table


@functools.cache
def _query() -> tuple[str, list[str], list[str]]:
    table_fields, round_fields = plain_fields(Table), plain_fields(Round)
    sql = (
        f"SELECT {select_list(Table, table_fields, 't')}, {select_list(Round, round_fields, 'r')} "
        f"FROM {table_name(Table)} t JOIN {table_name(Round)} r ON r.{column(Round, 'id')} = t.{column(Table, 'round')} "
        f"WHERE t.{column(Table, 'id')} = %s"
    )
    return sql, table_fields, round_fields


def _built(table_fields: list[str], round_fields: list[str], values: Sequence[Any]) -> Table:
    split = len(table_fields)
    table = instance(Table, table_fields, values[:split])
    table.round = instance(Round, round_fields, values[split:])
    return table


def table_with_round(pk: int) -> Table | None:
    """The table and its round (their JSON columns deferred); None if there is no such table.
    Read by this request's first statement already (`along`): that row, taken once."""
    read = getattr(_read, "row", None)
    if read is not None and read[0] == pk:
        _read.row = None
        return read[1]
    sql, table_fields, round_fields = _query()
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    return None if row is None else _built(table_fields, round_fields, row)


#: The table (pk, Table or None) this request's first statement read along (`along`).
_read = threading.local()


def _forget(**_: object) -> None:
    _read.row = None


request_started.connect(_forget, dispatch_uid="tournament.table_rows.forget")


@functools.cache
def _along_sql() -> tuple[str, str]:
    table_fields, round_fields = plain_fields(Table), plain_fields(Round)
    columns = f"{select_list(Table, table_fields, 'tb')}, {select_list(Round, round_fields, 'rd')}"
    joins = (
        f"LEFT JOIN {table_name(Table)} tb ON tb.{column(Table, 'id')} = %s "
        f"LEFT JOIN {table_name(Round)} rd ON rd.{column(Round, 'id')} = tb.{column(Table, 'round')}"
    )
    return columns, joins


def along(pk: int) -> Along:
    """Table `pk` with its round, read along with another statement (config.token_auth: a
    table judge's post reads its token, its stored answer and its table in one statement);
    the next `table_with_round(pk)` of the request takes it."""
    columns, joins = _along_sql()
    table_fields, round_fields = plain_fields(Table), plain_fields(Round)

    def take(values: Sequence[Any]) -> None:
        found = None if values[0] is None else _built(table_fields, round_fields, values)
        _read.row = (pk, found)

    return Along(columns=columns, joins=joins, params=(pk,), take=take, width=len(table_fields) + len(round_fields))
