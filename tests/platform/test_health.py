"""`GET /healthz` reports the database, Redis and the Celery workers."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.django_db(transaction=True)
def test_healthz_all_up(client: Any, celery_worker: Any, head_judge: Any) -> None:
    client.force_login(head_judge)  # the details are for staff
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert body["down"] == []
    assert body["checks"]["database"] == {"ok": True, "engine": "postgresql"}
    assert body["checks"]["celery"]["workers"]


@pytest.mark.django_db
def test_healthz_names_redis_when_it_is_down(client: Any, settings: Any, head_judge: Any) -> None:
    client.force_login(head_judge)
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert "redis" in body["down"]
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.django_db
def test_healthz_names_missing_workers(client: Any) -> None:
    # No worker fixture here: Redis answers but no worker does.
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["down"] == ["celery"]


def _drop_this_connection() -> None:
    """What a database restart does to a web worker's kept connection: the server ends it."""
    import psycopg
    from django.db import connection

    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        _wait_until_gone(other, pid)


def _wait_until_gone(other: Any, pid: int) -> None:
    """Until the server process behind `pid` has ended (as a restart has, by the time the next
    request comes): the signal is sent at once, the process ends a moment later."""
    import time

    deadline = time.monotonic() + 10
    while other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
        assert time.monotonic() < deadline, f"server process {pid} still running"
        time.sleep(0.01)


def _last_statement_of_this_connection() -> str:
    """What this thread's kept connection last sent, as the server saw it (asked on another one)."""
    import psycopg
    from django.db import connection

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        row = other.execute(
            "SELECT query FROM pg_stat_activity WHERE pid = %s", [connection.connection.info.backend_pid]
        ).fetchone()
    return str(row[0])


def test_connections_are_checked_before_reuse() -> None:
    from django.conf import settings

    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


@pytest.mark.django_db(transaction=True)
def test_the_first_request_after_a_dropped_connection_gets_a_new_one(head_judge: Any) -> None:
    """Django checks a kept connection at the start of each request (CONN_HEALTH_CHECKS): the
    request after a drop runs on a new connection instead of answering 500."""
    from django.db import close_old_connections, connection

    _drop_this_connection()
    close_old_connections()  # what request_started does before every request
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.django_db(transaction=True)
def test_healthz_right_after_a_dropped_connection_says_the_database_is_up(
    client: Any, head_judge: Any
) -> None:
    client.force_login(head_judge)
    _drop_this_connection()
    body = client.get("/healthz").json()
    assert body["checks"]["database"] == {"ok": True, "engine": "postgresql"}
    assert "database" not in body["down"]


@pytest.mark.django_db(transaction=True)
def test_a_quiet_kept_connection_is_reused_without_a_round_trip() -> None:
    """The check before each request costs no round trip when the server has said nothing."""
    from django.db import close_old_connections, connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 42 AS last_thing_sent")
    close_old_connections()  # the next request begins: its first query checks the connection
    assert connection.is_usable()
    assert "last_thing_sent" in _last_statement_of_this_connection()  # no SELECT 1 came after


@pytest.mark.django_db(transaction=True)
def test_a_kept_connection_the_server_ended_is_not_usable() -> None:
    from django.db import connection

    _drop_this_connection()
    assert not connection.is_usable()
    connection.close()  # as the check's caller does: the next query opens a new one


@pytest.mark.django_db(transaction=True)
def test_after_an_error_the_check_asks_the_server() -> None:
    """A connection that saw an error gets the full check (a SELECT 1 sent and answered)."""
    from django.db import DatabaseError, close_old_connections, connection

    with pytest.raises(DatabaseError), connection.cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table_here")
    close_old_connections()  # keeps the connection once the SELECT 1 succeeds
    assert connection.connection is not None and not connection.errors_occurred
    assert _last_statement_of_this_connection() == "SELECT 1"
