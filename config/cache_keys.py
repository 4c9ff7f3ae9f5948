"""Every cache key carries this installation's identity (CACHES' KEY_FUNCTION).

The cache outlives its database: the file cache under `var/` stays when the database is reset
or restored, and a Redis may serve several databases. A key names the installation (an id
written once into the database, `venue.models.Installation`) and its imports so far, so a new
or restored database never reads an answer cached for another, and an import makes every
answer cached before it unreachable (they expire in their time).

The identity is read once per request or task (one small query, on the first cache use) and
kept for the rest of it.
"""

from __future__ import annotations

from typing import Any

from celery.signals import task_prerun
from django.core.signals import request_started
from django.db import DatabaseError

from venue import installation

#: The key part used when the database cannot be read (nothing read from it is cached then).
NO_DATABASE = "no-database"


def current_version() -> str:
    try:
        return installation.cache_version()
    except (DatabaseError, RuntimeError):  # no database (down, or a test without one)
        return NO_DATABASE


def make_key(key: str, key_prefix: str, version: Any) -> str:
    return f"{key_prefix}:{version}:{current_version()}:{key}"


request_started.connect(installation.forget, dispatch_uid="config.cache_keys.forget")
task_prerun.connect(installation.forget, dispatch_uid="config.cache_keys.forget", weak=False)
