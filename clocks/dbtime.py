"""The database's clock: every deadline is compared with the server's `now()` (time is the server's)."""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.utils import timezone


def db_now() -> datetime:
    """The database's `now()`: the same moment the conditional updates compare with."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT now()")
            moment: datetime = cursor.fetchone()[0]
            return moment
    return timezone.now()  # the embedded SQLite default has no server clock of its own
