"""A table with its round in one written-out query: what a command on the table needs first
(who judges it, whether its round is published), on the path every table judge's post takes."""

from __future__ import annotations

import functools

from django.db import connection

from foundation.sql_rows import column, instance, plain_fields, select_list, table_name
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


def table_with_round(pk: int) -> Table | None:
    """The table and its round (their JSON columns deferred); None if there is no such table."""
    sql, table_fields, round_fields = _query()
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(table_fields)
    table = instance(Table, table_fields, row[:split])
    table.round = instance(Round, round_fields, row[split:])
    return table
