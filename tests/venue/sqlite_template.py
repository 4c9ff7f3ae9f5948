"""A venue laptop's SQLite database, migrated once and copied into each test's laptop.

Migrating an empty SQLite file costs every `bin/venue` start on a new laptop several seconds
of CPU. As with the PostgreSQL template (tests/template_database.py), the file is migrated once
by `bin/venue migrate` into the system's temporary folder, named after a fingerprint of every
migration, and kept between runs; a test's laptop starts on a copy of it that gets an identity
of its own (`venue.Installation`, which the migrations write), as a newly migrated database
would. `bin/venue` still migrates the copy at every start (nothing left to apply).

The first process to need it makes it under a file lock, in a file of another name renamed once
complete: a second process waits for it, and an interrupted run leaves no half-migrated file."""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _environment(folder: Path, database: Path) -> dict[str, str]:
    """What a laptop's `bin/venue` runs with (tests/venue/laptops.py), on `database`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "SECURE_", "CSRF_", "SESSION_", "DUNE_FOLLOW_"))}
    for variable in ("REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "SECRET_KEY", "DEBUG",
                     "ALLOWED_HOSTS", "VENUE_URL", "DATABASE_URL"):
        env.pop(variable, None)
    env.update({"VENV_BIN": str(Path(sys.executable).parent), "VAR_DIR": str(folder / "var"),
                "DATABASE_URL": f"sqlite:///{database}", "VENUE_NAME": "", "VERBOSITY": "0"})
    return env


def template() -> Path:
    """The migrated file of this checkout's migrations (made now if it is not there yet)."""
    from tests.template_database import migrations_fingerprint

    folder = Path(tempfile.gettempdir())
    path = folder / f"dune-venue-sqlite-{migrations_fingerprint()}.sqlite3"
    if path.exists():
        return path
    with open(folder / f"{path.name}.lock", "w") as lock:  # noqa: PTH123
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return path
        with tempfile.TemporaryDirectory(prefix="dune-venue-template-") as making:
            partial = Path(making) / "venue.sqlite3"
            done = subprocess.run([str(ROOT / "bin" / "venue"), "migrate", "--noinput"], cwd=ROOT,
                                  env=_environment(Path(making), partial), capture_output=True, text=True,
                                  timeout=600)
            if done.returncode != 0:
                raise AssertionError(f"bin/venue migrate failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
            with sqlite3.connect(partial) as db:  # everything in the one file, the write-ahead log emptied
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            staged = folder / f"{path.name}.{os.getpid()}.partial"
            shutil.copyfile(partial, staged)
            os.replace(staged, path)
    return path


def migrated(database: Path) -> Path:
    """`database` made a copy of the migrated template, with an installation identity of its own."""
    database.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template(), database)
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(database) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM venue_installation").fetchone()
        assert count == 1, "the migrations write the installation's identity"
        db.execute("UPDATE venue_installation SET id = ?, created_at = ?", (uuid.uuid4().hex, now))
    db.close()
    return database
