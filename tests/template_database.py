"""Each test process's database is a copy of one migrated template, migrated once.

Migrating an empty database (every app's migrations, then the content types and permissions
they add) costs each test process several seconds of CPU. The template is a PostgreSQL
database named after the test database and a fingerprint of every migration file of every
installed app (ours, Django's and the third-party apps'), so it is made again exactly when a
migration changes, and kept between runs otherwise. Each process then starts on a new copy
(`CREATE DATABASE ... TEMPLATE`), dropped at the end: no test ever writes to the template,
and no row of an earlier run is ever seen.

The first process to need a template makes it under an advisory lock, in a database of another
name renamed once complete, so a second process waits for it, and an interrupted run never
leaves a half-migrated template. Templates of other fingerprints under the same name are
dropped when a new one is made.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

TEMPLATE_INFIX = "_template_"


def migrations_fingerprint() -> str:
    """A digest of the Django version and every installed app's migration files."""
    import django
    from django.apps import apps
    from django.db.migrations.loader import MigrationLoader

    digest = hashlib.sha256(django.get_version().encode())
    for app in sorted(apps.get_app_configs(), key=lambda app: app.label):
        module, _explicit = MigrationLoader.migrations_module(app.label)
        folder = Path(app.path) / module.rsplit(".", 1)[-1] if module else None
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.py")):
            digest.update(f"{app.label}/{path.name}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@contextmanager
def _server_cursor(connection: Any) -> Iterator[Any]:
    """A cursor on the server's maintenance database, in autocommit (CREATE/DROP DATABASE)."""
    with connection._nodb_cursor() as cursor:
        yield cursor


def _exists(cursor: Any, name: str) -> bool:
    cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
    return cursor.fetchone() is not None


def _migrate_into(connection: Any, name: str) -> None:
    """Migrate a new database `name` the way Django makes a test database, then let go of it."""
    test_settings = connection.settings_dict.setdefault("TEST", {})
    kept = test_settings.get("NAME"), connection.settings_dict["NAME"]
    test_settings["NAME"] = name
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=False)
    finally:
        connection.close()
        test_settings["NAME"] = kept[0]
        connection.settings_dict["NAME"] = kept[1]
        from django.conf import settings

        settings.DATABASES[connection.alias]["NAME"] = kept[1]


def copy_of_template(connection: Any, *, rebuild: bool = False) -> str:
    """Make this process's test database a new copy of the migrated template (made first if
    missing, or if `rebuild`); returns the test database's name."""
    test_name = connection.creation._get_test_db_name()
    # pytest-xdist's processes add `_gw0`, `_gw1` to the name: they share one template.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    base = test_name.removesuffix(f"_{worker}") if worker else test_name
    prefix = f"{base}{TEMPLATE_INFIX}"
    template = f"{prefix}{migrations_fingerprint()}"
    with _server_cursor(connection) as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtext(%s))", [prefix])
        try:
            if rebuild and _exists(cursor, template):
                cursor.execute(f"DROP DATABASE {_quote(template)} WITH (FORCE)")
            if not _exists(cursor, template):
                building = f"{prefix}building"
                cursor.execute(f"DROP DATABASE IF EXISTS {_quote(building)} WITH (FORCE)")
                _migrate_into(connection, building)
                cursor.execute(f"ALTER DATABASE {_quote(building)} RENAME TO {_quote(template)}")
                cursor.execute(
                    "SELECT datname FROM pg_database WHERE starts_with(datname, %s) AND datname <> %s",
                    [prefix, template],
                )
                for (stale,) in cursor.fetchall():
                    cursor.execute(f"DROP DATABASE IF EXISTS {_quote(stale)} WITH (FORCE)")
            cursor.execute(f"DROP DATABASE IF EXISTS {_quote(test_name)} WITH (FORCE)")
            cursor.execute(f"CREATE DATABASE {_quote(test_name)} TEMPLATE {_quote(template)}")
        finally:
            cursor.execute("SELECT pg_advisory_unlock(hashtext(%s))", [prefix])
    return test_name


def drop_copy(connection: Any, name: str) -> None:
    """Drop this process's copy at the end of the run (the template stays)."""
    connection.close()
    with _server_cursor(connection) as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {_quote(name)} WITH (FORCE)")
