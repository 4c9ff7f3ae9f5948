"""A database connection ended in the middle of a request (an administrator's
`pg_terminate_backend`, a failover) answers 503 with Retry-After, JSON for the API and a short
page for people, not 500; the next request reconnects and is answered as usual."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.signals import request_started
from django.db import close_old_connections, connection, connections
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def ending_the_connection_mid_request() -> Iterator[None]:
    """Once the request has checked its kept connection, the server ends it (one request)."""
    fired = []

    def end(**_: Any) -> None:
        if fired:
            return
        fired.append(True)
        connection.close()
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        finally:
            other.close()

    request_started.connect(end, dispatch_uid="test-end-connection")
    try:
        yield
    finally:
        request_started.disconnect(dispatch_uid="test-end-connection")


@pytest.mark.parametrize("kind", ["api", "page"])
def test_a_connection_ended_mid_request_answers_503_then_the_next_request_works(kind: str) -> None:
    from tests.factories import make_tournament

    tournament = make_tournament()
    path = f"/api/tournaments/{tournament.pk}/" if kind == "api" else f"/tournaments/{tournament.pk}/standings/"
    client = Client(raise_request_exception=False)
    with ending_the_connection_mid_request():
        answer = client.get(path)
    assert answer.status_code == 503, answer.content[:200]
    assert int(answer["Retry-After"]) >= 1
    if path.startswith("/api/"):
        assert "database" in answer.json()["detail"]
    # What Django does at the end of every request (the test client leaves it out): a
    # connection that had an error and no longer answers is closed, the next one reconnects.
    close_old_connections()
    assert client.get(path).status_code == 200
