"""A task goes through the real Redis broker to a real worker and back."""

from __future__ import annotations

from typing import Any

import pytest

# Imported before the worker fixture starts, so the embedded worker knows the task whichever
# tests ran first.
from config.tasks import ping


@pytest.mark.django_db(transaction=True)
def test_task_round_trip_through_a_real_worker(celery_worker: Any) -> None:
    result = ping.delay()
    assert result.get(timeout=10) == "pong"


def test_never_eager(settings: Any) -> None:
    from config.celery import app

    assert app.conf.task_always_eager is False
    assert settings.CELERY_BROKER_URL.startswith("redis://")
