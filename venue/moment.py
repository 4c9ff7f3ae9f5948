"""One moment of the database for everything a backup, an export or a pull reads.

A tournament is read model after model; a judge's record committed between two of those reads
would leave the answer kept for its idempotency key without the record itself (restored, the
server would answer "recorded" for a record it does not hold). Read inside `one_moment()`, every
query sees the same committed state:

- PostgreSQL: one REPEATABLE READ, READ ONLY transaction (a snapshot taken at its first query);
- SQLite (venue mode, write-ahead log): one deferred read transaction, which sees the database
  as it was at its first read while writers go on committing beside it. The installation's
  transactions otherwise begin IMMEDIATE (taking the write lock); this one must not, or every
  judge's write would wait for the backup.

Inside a transaction already open (a test's, a caller's), the reads belong to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def one_moment() -> Iterator[None]:
    """Every query inside reads the database as of one moment (and may not write on PostgreSQL)."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        mode = getattr(connection, "transaction_mode", None)
        connection.transaction_mode = None  # a plain (deferred) BEGIN: a reader, not a writer
        try:
            with transaction.atomic():
                connection.transaction_mode = mode
                yield
        finally:
            connection.transaction_mode = mode
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield
