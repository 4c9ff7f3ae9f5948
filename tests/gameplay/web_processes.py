"""Real web processes for tests of what one process cannot show: gunicorn (the deployment's
config/gunicorn.conf.py, production settings) on the test database, spoken to over HTTP.

The tests using these commit their rows (`django_db(transaction=True)`) so the servers see
them; a signed-in judge is a session row written by the test client, its cookie sent along
with a CSRF cookie and the matching header (as the page's own scripts send them).
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nothing listens on, chosen by the system."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_env(var_dir: Path) -> dict[str, str]:
    """Production settings on this test run's database; the same secret key as the tests, so
    the sessions the test client writes are the servers' too. No Redis: a file cache and the
    file-system broker under `var_dir`, shared by the servers of one test."""
    url = urlsplit(os.environ["DATABASE_URL"])
    database = urlunsplit(url._replace(path=f"/{connection.settings_dict['NAME']}"))
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("DJANGO_", "SECURE_", "CSRF_", "SESSION_", "REDIS_", "CELERY_"))}
    return {
        **keep,
        "DATABASE_URL": database,
        "DJANGO_SETTINGS_MODULE": "tests.gameplay.server_settings",
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "VAR_DIR": str(var_dir),
        "LOG_LEVEL": "ERROR",
        "WEB_ACCESS_LOG": "",
    }


class Gunicorn:
    """One gunicorn (its master and `workers` processes) on a port of its own."""

    def __init__(self, var_dir: Path, *, workers: int = 1, threads: int = 1) -> None:
        self.port = free_port()
        self.log = var_dir / f"gunicorn-{self.port}.log"
        var_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "-c", str(ROOT / "config" / "gunicorn.conf.py"),
             "config.wsgi:application", "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers),
             "--threads", str(threads), "--log-level", "warning"],
            cwd=ROOT, env=server_env(var_dir), start_new_session=True, stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"gunicorn stopped: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise AssertionError("gunicorn did not answer within 60 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # its own session: master and workers
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Judge:
    """A judge's requests to one server: the API with a token, the table page with a session."""

    def __init__(self, server: Gunicorn, user: Any) -> None:
        from django.test import Client
        from rest_framework.authtoken.models import Token

        self.port = server.port
        self.token = Token.objects.get_or_create(user=user)[0].key
        client = Client()
        client.force_login(user)
        self.session = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.csrf = secrets.token_hex(16)  # 32 characters: a CSRF secret as the cookie holds it

    def _send(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            return answer.status, answer.read()
        finally:
            conn.close()

    def api(self, method: str, path: str, body: Any = None, *, key: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json",
                   "Accept": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        status, raw = self._send(method, path, None if body is None else json.dumps(body).encode(), headers)
        return status, json.loads(raw or b"null")

    def page_post(self, path: str, form: dict[str, str]) -> tuple[int, str]:
        headers = {
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session}; {settings.CSRF_COOKIE_NAME}={self.csrf}",
            "X-CSRFToken": self.csrf, "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
        }
        status, raw = self._send("POST", path, urlencode(form).encode(), headers)
        return status, raw.decode(errors="replace")
