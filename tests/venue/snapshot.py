"""A whole test database kept in memory and put back (PostgreSQL): every table's rows (COPY) and
every sequence's position. A fixture whose data takes seconds to build (the venue kit's full
event) builds it once per test process and restores the copy for each later test, which then
starts from the very database the build left: the same rows, ids and next ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Snapshot:
    tables: dict[str, bytes]
    sequences: dict[str, tuple[int, bool]]


def _quote(connection: Any, name: str) -> str:
    return connection.ops.quote_name(name)


def _tables(cursor: Any) -> list[str]:
    cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
    return [row[0] for row in cursor.fetchall()]


def _sequences(cursor: Any) -> list[str]:
    cursor.execute("SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema() ORDER BY 1")
    return [row[0] for row in cursor.fetchall()]


def take(connection: Any) -> Snapshot:
    """Every table's rows and every sequence's position, as committed now."""
    tables: dict[str, bytes] = {}
    sequences: dict[str, tuple[int, bool]] = {}
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor: COPY
        for table in _tables(cursor):
            data = bytearray()
            with raw.copy(f"COPY {_quote(connection, table)} TO STDOUT") as copy:
                for chunk in copy:
                    data += chunk
            tables[table] = bytes(data)
        for sequence in _sequences(cursor):
            cursor.execute(f"SELECT last_value, is_called FROM {_quote(connection, sequence)}")  # noqa: S608
            last, called = cursor.fetchone()
            sequences[sequence] = (int(last), bool(called))
    return Snapshot(tables, sequences)


def restore(connection: Any, snapshot: Snapshot) -> None:
    """The database exactly as `snapshot` saw it (whatever is in it now goes)."""
    from django.db import transaction

    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        names = ", ".join(_quote(connection, t) for t in snapshot.tables)
        cursor.execute(f"TRUNCATE {names} CASCADE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        raw = cursor.cursor
        for table, data in snapshot.tables.items():
            if data:
                with raw.copy(f"COPY {_quote(connection, table)} FROM STDIN") as copy:
                    copy.write(data)
        for sequence, (last, called) in snapshot.sequences.items():
            cursor.execute("SELECT setval(%s, %s, %s)", [_quote(connection, sequence), last, called])
