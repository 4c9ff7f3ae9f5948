"""One module's data, built once with the services and lent to each of its committing tests.

A browser test commits, so the test database is emptied after it (config/test_postgresql), and a
module whose tests each build the same event would build it again for every test. `SharedRows`
keeps a copy of every row of the first build inside the database server (tables of a schema of
its own, which the emptying does not touch) and puts the very same rows back for the next test
with one INSERT ... SELECT per table: no Python, no services, no engine run again. Ids are those
of the first build; the id sequences are left as they are (they only grow), so rows a test adds
never take an id the copy holds. The cache is emptied with each copy put back: an earlier test's
entries under the same ids are of rows it may have changed since.

Usage, in a module (module-scoped resources are per test process under pytest-xdist):

    @pytest.fixture(scope="module")
    def _copy(django_db_blocker):
        with SharedRows.kept(django_db_blocker) as copy:
            yield copy

    @pytest.fixture
    def event(_copy, head_judge):
        ids = _copy.lend(lambda: build(head_judge))   # built once, then put back
        return load(ids)                               # the test's own objects, read anew

Whatever a test's other fixtures wrote before `lend` is gone after it (a copy replaces every
row): ask for the shared fixture before those that sign a page in.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_numbers = itertools.count(1)


class SharedRows:
    def __init__(self) -> None:
        self.schema = f"e2e_shared_{next(_numbers)}"
        self.tables: list[str] = []
        self.answer: Any = None
        self.taken = False

    @classmethod
    @contextmanager
    def kept(cls, django_db_blocker: Any) -> Iterator[SharedRows]:
        """A copy for one module; its schema is dropped when the module is done."""
        copy = cls()
        try:
            yield copy
        finally:
            if copy.taken:
                with django_db_blocker.unblock():
                    copy.drop()

    def lend(self, build: Callable[[], Any]) -> Any:
        """The first time, `build()` (it commits its rows) and keep a copy of every row; after
        that, put that copy back in place of whatever the database holds. Answers what `build`
        answered (plain values: ids, names, not model objects, which the caller reads anew)."""
        if not self.taken:
            self.answer = build()
            self._take()
        else:
            self._put_back()
        return self.answer

    def _names(self) -> list[str]:
        from django.db import connection

        return sorted(connection.introspection.django_table_names(only_existing=True, include_views=False))

    def _take(self) -> None:
        from django.db import connection, transaction

        self.tables = self._names()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f'CREATE SCHEMA "{self.schema}"')
            for table in self.tables:
                cursor.execute(f'CREATE TABLE "{self.schema}"."{table}" AS TABLE "public"."{table}"')
        self.taken = True

    def _put_back(self) -> None:
        from django.contrib.contenttypes.models import ContentType
        from django.core.cache import cache
        from django.db import connection, transaction

        assert self._names() == self.tables, "the tables changed since the copy was taken"
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            for table in self.tables:
                cursor.execute(f'DELETE FROM "public"."{table}"')
            for table in self.tables:
                cursor.execute(f'INSERT INTO "public"."{table}" SELECT * FROM "{self.schema}"."{table}"')
        ContentType.objects.clear_cache()  # the content types' ids are the copy's
        cache.clear()

    def drop(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
