"""Django's PostgreSQL backend, with a kept connection's health checked without a round trip.

Each request checks the connection its thread kept (CONN_HEALTH_CHECKS, config/env.py) before
using it. Django's check sends `SELECT 1` and waits for the answer: one more round trip on
every request, a tenth of an unchanged poll's cost. A connection the server ended (a restart,
a failover, an idle timeout, an administrator's `pg_terminate_backend`) has told the client so
by the time the next request comes: its socket holds the server's last message or the end of
the stream. So a kept connection whose socket is quiet and whose state is sound is usable
without asking; one that has anything to say, or any connection after an error, gets Django's
`SELECT 1` as before.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq


def has_nothing_pending(connection: object) -> bool:
    """True if the psycopg `connection` is open, idle between requests, and its socket has
    nothing to read (no message from the server, no end of stream)."""
    pgconn = connection.pgconn  # type: ignore[attr-defined]
    if pgconn.status != pq.ConnStatus.OK:
        return False
    if pgconn.transaction_status not in (pq.TransactionStatus.IDLE, pq.TransactionStatus.INTRANS):
        return False
    try:
        poller = select.poll()
        poller.register(pgconn.socket, select.POLLIN | select.POLLPRI)
        return not poller.poll(0)
    except (OSError, ValueError, psycopg.Error):  # the socket is already gone
        return False


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        # After an error on this connection, the full check (Django's SELECT 1).
        if self.connection is not None and not self.errors_occurred and has_nothing_pending(self.connection):
            return True
        return bool(super().is_usable())
