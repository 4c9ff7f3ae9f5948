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
