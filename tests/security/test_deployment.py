"""The deployment keeps secrets out of the image, exposes only the proxy, runs the app as a
role that owns nothing, and its health probe passes under production settings."""

from __future__ import annotations

import fnmatch
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"
STRONG_KEY = "x7#Kp2!vQ9zL@m4R$w8TnB6&yE3uJ5hD1cF0gA-sZ_oP+iU(qW)eX*rV%tY^lN"


def _compose() -> dict[str, Any]:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def test_the_env_file_never_enters_the_image() -> None:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert any(fnmatch.fnmatch("docker/.env", p) for p in patterns)
    assert not any(fnmatch.fnmatch("docker/env.example", p) for p in patterns)


def test_only_the_proxy_publishes_ports_and_gunicorn_sits_on_an_internal_network() -> None:
    compose = _compose()
    services = compose["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    assert compose["networks"]["backend"]["internal"] is True
    assert services["web"]["networks"] == ["backend"]
    proxy_address = services["proxy"]["networks"]["backend"]["ipv4_address"]
    assert services["web"]["environment"]["TRUSTED_PROXIES"] == proxy_address
    assert services["web"]["environment"]["BEHIND_TLS_PROXY"] == "true"


def test_the_app_connects_as_its_own_role_and_migrations_run_as_the_owner() -> None:
    services = _compose()["services"]
    for name in ("web", "worker", "beat"):
        assert services[name]["environment"]["DATABASE_URL"].startswith("postgres://dune_app:")
    assert services["migrate"]["environment"]["DATABASE_URL"].startswith("postgres://dune_owner:")
    assert "POSTGRES_USER" not in services["postgres"]["environment"]  # the superuser stays `postgres`
    mounts = " ".join(services["postgres"]["volumes"])
    assert "docker-entrypoint-initdb.d/10-app-roles.sh" in mounts


def _psql(*args: str, user: str = "postgres", password: str = "", db: str = "postgres") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PGPASSWORD": password}
    return subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", user, "-d", db, "-v", "ON_ERROR_STOP=1", "-qAt", *args],
        env=env, capture_output=True, text=True, timeout=60,
    )


@pytest.fixture
def app_roles() -> Iterator[dict[str, str]]:
    """The compose setup's roles script, run on the local server under fresh names."""
    suffix = uuid.uuid4().hex[:8]
    names = {
        "owner_role": f"dune_owner_{suffix}", "owner_password": uuid.uuid4().hex,
        "app_role": f"dune_app_{suffix}", "app_password": uuid.uuid4().hex,
        "db_name": f"dune_roles_{suffix}",
    }
    variables = [arg for key, value in names.items() for arg in ("-v", f"{key}={value}")]
    created = _psql(*variables, "-f", str(DOCKER / "postgres" / "app-roles.sql"))
    try:
        assert created.returncode == 0, created.stderr
        yield names
    finally:
        _psql("-c", f'DROP DATABASE IF EXISTS "{names["db_name"]}" WITH (FORCE)')
        _psql("-c", f'DROP ROLE IF EXISTS "{names["app_role"]}"')
        _psql("-c", f'DROP ROLE IF EXISTS "{names["owner_role"]}"')


def test_the_app_role_writes_rows_but_cannot_truncate_drop_or_disable_triggers(app_roles: dict[str, str]) -> None:
    as_owner = {"user": app_roles["owner_role"], "password": app_roles["owner_password"], "db": app_roles["db_name"]}
    as_app = {"user": app_roles["app_role"], "password": app_roles["app_password"], "db": app_roles["db_name"]}
    assert _psql("-c", "CREATE TABLE log (id bigserial PRIMARY KEY, body text)", **as_owner).returncode == 0
    rows = _psql("-c", "INSERT INTO log (body) VALUES ('x') RETURNING id", **as_app)
    assert rows.returncode == 0, rows.stderr
    for statement in (
        "TRUNCATE log",
        "DROP TABLE log",
        "ALTER TABLE log DISABLE TRIGGER ALL",
        "CREATE TABLE other (id int)",
    ):
        refused = _psql("-c", statement, **as_app)
        assert refused.returncode != 0, statement
    role = _psql("-c", f"SELECT rolsuper FROM pg_roles WHERE rolname = '{app_roles['app_role']}'")
    assert role.stdout.strip() == "f"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _production_environment(database_url: str) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "SECRET_KEY": STRONG_KEY,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "dune.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://dune.example.org",
        "BEHIND_TLS_PROXY": "true",
        "TRUSTED_PROXIES": "172.30.0.10",
    }


@pytest.mark.django_db(transaction=True)
def test_the_health_probe_passes_against_gunicorn_under_production_settings(celery_worker: Any) -> None:
    from django.db import connection

    db = connection.settings_dict
    database_url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
    env = _production_environment(database_url)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "1", "--preload"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
                time.sleep(0.1)  # waiting for gunicorn to listen, not for time to pass
        # A loaded test machine may take a while for the first answer; the probe's own timeout
        # is for a warm server.
        warm = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": "dune.example.org"})
        try:
            urllib.request.urlopen(warm, timeout=30).close()
        except urllib.error.HTTPError:
            pass
        command = _compose()["services"]["web"]["healthcheck"]["test"]
        assert command[:1] == ["CMD"]
        probe = subprocess.run(
            [sys.executable, *command[2:], f"http://127.0.0.1:{port}/healthz"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=30,
        )
        assert probe.returncode == 0, probe.stderr
    finally:
        server.terminate()
        server.wait(timeout=10)
