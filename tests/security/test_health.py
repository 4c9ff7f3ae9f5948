"""`GET /healthz` answers quickly and tells only staff how the services are doing."""

from __future__ import annotations

import time
from typing import Any

import pytest


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_at_the_first_workers_reply_not_at_the_probes_timeout(
    client: Any, celery_worker: Any
) -> None:
    """Compared within this run: a probe that collects every reply waits out its whole
    timeout; /healthz, which stops at the first reply, answers sooner than that."""
    from config.celery import app

    assert client.get("/healthz").status_code == 200  # connections warmed up
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        response = client.get("/healthz")
        timings.append(time.perf_counter() - start)
        assert response.status_code == 200
    start = time.perf_counter()
    assert app.control.ping(timeout=1.0)  # no limit: waits the full timeout collecting replies
    waiting_out = time.perf_counter() - start
    assert min(timings) < waiting_out, (min(timings), waiting_out)


@pytest.mark.django_db
def test_anonymous_callers_get_no_details(client: Any, settings: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1: a raw error to hide
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body == {"status": "down", "down": ["redis", "celery"]}
    assert "postgresql" not in response.content.decode() and "127.0.0.1" not in response.content.decode()


@pytest.mark.django_db
def test_staff_see_the_details(client: Any, head_judge: Any, settings: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    client.force_login(head_judge)
    body = client.get("/healthz").json()
    assert body["checks"]["database"] == {"ok": True, "engine": "postgresql"}
    assert body["checks"]["redis"]["ok"] is False and body["checks"]["redis"]["error"]


@pytest.mark.django_db
def test_a_judge_who_is_not_staff_gets_no_details(client: Any, make_user: Any) -> None:
    client.force_login(make_user("judge1"))
    assert "checks" not in client.get("/healthz").json()
