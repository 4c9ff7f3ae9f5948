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
