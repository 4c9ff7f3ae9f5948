"""The PostgreSQL backend of the test suite: config.postgresql, emptied between tests with DELETE.

A test that commits (a browser test, a live server, a worker) leaves its rows in the test
database, and Django empties every table after it (`flush`). PostgreSQL's TRUNCATE, Django's
way, gives each table and index a new file and syncs them to disk: seconds for the few rows a
test writes, after each of the suite's two hundred such tests. DELETE of those rows takes
milliseconds and leaves the same empty tables. The foreign keys are deferred (Django makes
them so), and the flush is one transaction, so the order of the tables does not matter.
A flush that restarts the id sequences or cascades to other tables keeps Django's TRUNCATE.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql.operations import DatabaseOperations as PostgreSQLOperations

from config.postgresql import base


class DatabaseOperations(PostgreSQLOperations):  # type: ignore[misc]
    def sql_flush(self, style: Any, tables: list[str], *, reset_sequences: bool = False,
                  allow_cascade: bool = False) -> list[str]:
        if reset_sequences or allow_cascade:
            return list(super().sql_flush(style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade))
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
