"""Fixtures shared by the Django-layer tests.

Pure-core tests (tests/engine, tests/seating, tests/scoring unit tests) use none of these
and run without a database.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

PASSWORD = "correct horse battery staple"


def pytest_configure(config: Any) -> None:
    """The translation catalogues are built, not committed: compile them when a .po is newer
    than its .mo (once, in the controlling process, before any worker reads them)."""
    if hasattr(config, "workerinput"):
        return
    from pathlib import Path

    locale = Path(__file__).resolve().parent.parent / "locale"
    stale = [
        po for po in locale.glob("*/LC_MESSAGES/*.po")
        if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]
    if stale:
        import subprocess

        for po in stale:
            subprocess.run(["msgfmt", "--check-format", "-o", str(po.with_suffix(".mo")), str(po)], check=True)


@pytest.fixture(scope="session")
def celery_config() -> dict[str, Any]:
    """The Celery worker fixture runs on the real Redis (never eager: it ignores countdowns)."""
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    return {"broker_url": url, "result_backend": url, "task_acks_late": True, "timezone": "UTC"}


@pytest.fixture(scope="session", autouse=True)
def celery_includes() -> list[str]:
    """Every task module, imported before any test makes a Celery app: a test app knows the
    shared tasks declared before it was made, so a worker started by a test must not depend
    on which tests happened to import which module earlier in this process."""
    from importlib import import_module
    from importlib.util import find_spec

    candidates = ["config.tasks", "tournament.tasks", "gameplay.tasks", "scoring.tasks", "clocks.tasks", "ratings.tasks", "venue.tasks"]
    present = [name for name in candidates if find_spec(name) is not None]
    for name in present:
        import_module(name)
    return present


@pytest.fixture(scope="session")
def celery_worker_parameters() -> dict[str, Any]:
    return {"perform_ping_check": True, "shutdown_timeout": 10.0}


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def make_user(db: Any) -> Any:
    from django.contrib.auth import get_user_model

    def make(username: str, **extra: Any) -> Any:
        return get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)

    return make


@pytest.fixture
def head_judge(make_user: Any) -> Any:
    return make_user("head", is_staff=True, is_superuser=True)


@pytest.fixture
def api_client() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def judge_client(api_client: Any, head_judge: Any) -> Any:
    api_client.force_authenticate(head_judge)
    return api_client
