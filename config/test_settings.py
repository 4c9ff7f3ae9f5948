"""Settings for the test suite: the real PostgreSQL and Redis on loopback unless told otherwise."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dune")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")


def _own_per_test_process() -> None:
    """The suite runs in two processes (pytest-xdist's gw0, gw1): each gets its own Redis
    database (broker, results, cache: one process's Celery test worker must never take the
    other's tasks) and its own var/ folder (backups, embedded databases). pytest-django gives
    each its own test database. Written into the environment, so the servers and workers the
    tests start as subprocesses inherit the same."""
    process = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not process.startswith("gw"):
        return
    number = int(process[2:])
    from pathlib import Path
    from urllib.parse import urlsplit, urlunsplit

    url = urlsplit(os.environ["REDIS_URL"])
    database = url.path.strip("/")
    index = int(database) if database.isdigit() else 0
    os.environ["REDIS_URL"] = urlunsplit(url._replace(path=f"/{(index + number) % 16}"))

    os.environ.setdefault("VAR_DIR", str(Path(__file__).resolve().parent.parent / "var" / f"test-{process}"))


_own_per_test_process()
os.environ.setdefault("SECRET_KEY", "test-suite-secret-key-not-for-production-9f8e7d6c5b4a3210fedcba")
os.environ.setdefault("DEBUG", "false")
# The live server of the browser tests speaks plain HTTP.
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("SESSION_COOKIE_SECURE", "false")
os.environ.setdefault("CSRF_COOKIE_SECURE", "false")

from config.settings import *  # noqa: E402,F403

# Emptied between committing tests with DELETE, not TRUNCATE (config/test_postgresql says why).
# A commit does not wait for the server to write it to disk (synchronous_commit off): the test
# database is thrown away, and each of the thousands of commits of the browser, live-server
# and worker tests and of the migrations would otherwise wait for the disk.
if DATABASES["default"]["ENGINE"] == "config.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "config.test_postgresql"  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405

# Hashing passwords slowly on purpose is pointless in tests.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405

# Tests that file reports would otherwise leave ratings tasks queued on the shared broker for
# the next test that starts a worker; the ratings worker test turns it on for itself.
RATINGS_RECOMPUTE_ON_CHANGE = False
# Likewise for the backup after a filing; the backup tests turn it on for themselves.
VENUE_BACKUP_ON_FILING = False

# Each test run gets its own cache namespace on the shared Redis: the test database is new
# every run (ids start again at 1), so entries left by an earlier run must never be read.
import uuid  # noqa: E402

CACHES["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex[:12]}"  # noqa: F405

# Rate counters live in this process's memory, emptied before every test (tests/conftest.py):
# a count left by one test (the same test client address) must never throttle the next one.
CACHES["counters"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "counters"}  # noqa: F405
