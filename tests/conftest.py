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


def _copies_a_template(request: Any) -> bool:
    """Whether this run's test database is a copy of a migrated template (tests/template_database.py):
    on PostgreSQL with migrations, unless `--reuse-db` asks to keep a test database of its own."""
    from django.db import connection

    options = request.config.option
    return (
        connection.vendor == "postgresql"
        and not getattr(options, "nomigrations", False)
        and not getattr(options, "reuse_db", False)
    )


@pytest.fixture(scope="session")
def django_db_keepdb(request: Any) -> bool:
    """A copy of the template is already migrated: Django keeps it as it is (and the copy is
    dropped by `django_db_modify_db_settings` at the end)."""
    return bool(request.config.getvalue("reuse_db")) or _copies_a_template(request)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    request: Any, django_db_modify_db_settings_parallel_suffix: None, django_db_blocker: Any
) -> Any:
    """This process's test database starts as a new copy of the migrated template
    (`--create-db` migrates the template again)."""
    if not _copies_a_template(request):
        yield
        return
    from django.db import connection

    from tests.template_database import copy_of_template, drop_copy

    with django_db_blocker.unblock():
        name = copy_of_template(connection, rebuild=bool(request.config.getvalue("create_db")))
    yield
    with django_db_blocker.unblock():
        drop_copy(connection, name)


def pytest_collection_finish(session: Any) -> None:
    """What is loaded by now (Django, the apps, every test module) lives until the process
    ends: the garbage collector no longer walks it in every full collection, and it looks at
    the young objects the tests make less often (collections cost a test process 2-10% of
    its CPU time otherwise)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 20)


@pytest.fixture(autouse=True)
def _fresh_rate_counters() -> None:
    """Every test starts with no request counted against its address or token."""
    from django.core.cache import caches

    caches["counters"].clear()


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

    candidates = ["config.tasks", "tournament.tasks", "gameplay.tasks", "scoring.tasks", "clocks.tasks", "ratings.tasks", "venue.tasks", "mail.tasks"]
    present = [name for name in candidates if find_spec(name) is not None]
    for name in present:
        import_module(name)
    return present


@pytest.fixture(scope="session")
def celery_worker_parameters() -> dict[str, Any]:
    return {"perform_ping_check": True, "shutdown_timeout": 10.0}


@pytest.fixture(autouse=True)
def reader_language_reset() -> Any:
    """Each test starts in the site's language: a request answered in German leaves German active
    in its thread (LocaleMiddleware activates it and nothing restores it), and a later test's
    command would otherwise speak German to a terminal."""
    from django.utils import translation

    yield
    translation.deactivate()


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


class ReceivedMail:
    """What a real SMTP server on loopback received: `messages` (parsed `email.message`
    objects, in the order received) and `wait_for(count)`."""

    def __init__(self) -> None:
        import threading

        self.messages: list[Any] = []
        self.host = "127.0.0.1"
        self.port = 0
        self._arrived = threading.Condition()

    @property
    def url(self) -> str:
        """The `EMAIL_URL` of this server (for a worker or server started as a subprocess)."""
        return f"smtp://{self.host}:{self.port}/"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's hook
        import email
        from email import policy

        parsed = email.message_from_bytes(envelope.original_content or envelope.content, policy=policy.default)
        with self._arrived:
            self.messages.append(parsed)
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout: float = 20.0) -> list[Any]:
        """The first `count` messages, once they have arrived; fails after `timeout` seconds."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self.messages) >= count, timeout=timeout):
                pytest.fail(f"the SMTP server received {len(self.messages)} of {count} messages in {timeout} s")
            return list(self.messages[:count])

    def to(self, address: str) -> list[Any]:
        """The messages received for `address`."""
        return [m for m in self.messages if address in str(m["To"])]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp_server(settings: Any) -> Any:
    """A real SMTP server (aiosmtpd) on loopback, and the settings that send every message to it
    through the outbox and the worker (as `EMAIL_URL=smtp://127.0.0.1:PORT/` would)."""
    from aiosmtpd.controller import Controller

    received = ReceivedMail()
    received.port = _free_port()
    controller = Controller(received, hostname=received.host, port=received.port)
    controller.start()
    settings.EMAIL_KEEP_IN_OUTBOX = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = received.host
    settings.EMAIL_PORT = received.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    try:
        yield received
    finally:
        controller.stop()
