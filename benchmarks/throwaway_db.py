"""A throwaway test database for the benchmarks' database parts.

Django is set up with the test settings (DATABASE_URL's server, by default a benchmark's own
database name), the cache kept in memory unless a Redis database is named, and a test
database created for the run and dropped after it, whatever happens in between.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class _NoMigrations(dict[str, Any]):
    """Every app without migrations: tables straight from the models, as pytest-django's
    --no-migrations does (a benchmark measures its own work, not migrating)."""

    def __contains__(self, item: object) -> bool:
        return True

    def __getitem__(self, item: str) -> None:
        return None


@contextmanager
def throwaway_database(*, migrate: bool = False) -> Iterator[Any]:
    """Set Django up and yield the connection to a new test database, dropped afterwards."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    import django
    from django.conf import settings

    django.setup()
    if "REDIS_URL" not in os.environ:
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    if not migrate:
        settings.MIGRATION_MODULES = _NoMigrations()
    from django.db import connection

    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield connection
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
