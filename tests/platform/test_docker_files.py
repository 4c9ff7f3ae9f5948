"""The deployment files parse, name the services the platform needs, copy every package into
the image and keep var/ (backups, their key) on one volume that web and worker share.

The files are read as text and YAML; `docker compose config` checks them too where a Docker
client is installed (the parse checks run everywhere)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import tomllib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

from config import healthcheck

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"
VAR = "/app/var"  # VAR_DIR in the image: WORKDIR /app, var/ beside manage.py


def _compose() -> dict[str, Any]:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def _packages() -> list[str]:
    """The top-level package directories pyproject.toml installs."""
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    return sorted(pattern.rstrip("*") for pattern in found["include"])


def _copied(dockerfile: str) -> set[str]:
    """Directories copied into the image before `pip install .` (what the install sees)."""
    before_install = dockerfile.split("RUN pip install .", 1)[0]
    return {m[1] for m in re.finditer(r"^COPY\s+(\S+)\s+\./\1/?\s*$", before_install, re.MULTILINE)}


def _var_volume(service: dict[str, Any], named: set[str]) -> str | None:
    """The named volume the service mounts at var/, if any."""
    for mount in service.get("volumes", []):
        if isinstance(mount, str):
            source, _, rest = mount.partition(":")
            target = rest.split(":")[0]
        else:
            source, target = mount.get("source", ""), mount.get("target", "")
        if target.rstrip("/") == VAR and source in named:
            return source
    return None


def test_compose_has_every_service_with_a_health_check() -> None:
    services = _compose()["services"]
    assert set(services) == {"proxy", "migrate", "web", "worker", "beat", "postgres", "redis"}
    for name, service in services.items():
        assert "healthcheck" in service, f"{name} has no health check"
    assert "gunicorn" in services["web"]["command"]
    assert services["beat"]["deploy"]["replicas"] == 1


def test_web_and_worker_share_one_named_volume_at_var() -> None:
    """The worker writes the backups and the key; web's dashboard and downloads read them."""
    compose = _compose()
    named = set(compose.get("volumes") or {})
    web = _var_volume(compose["services"]["web"], named)
    worker = _var_volume(compose["services"]["worker"], named)
    assert web is not None, f"web mounts no named volume at {VAR}"
    assert worker == web, f"the worker's {VAR} ({worker}) is not web's ({web})"
    assert _var_volume(compose["services"]["beat"], named) == web  # its schedule survives too


def test_web_health_does_not_depend_on_the_worker_which_has_its_own() -> None:
    services = _compose()["services"]
    web = services["web"]["healthcheck"]["test"]
    assert web[:4] == ["CMD", "python", "-m", "config.healthcheck"] and "--ignore" in web
    assert web[web.index("--ignore") + 1] == "celery"
    assert "inspect ping" in " ".join(services["worker"]["healthcheck"]["test"])


def test_dockerfile_copies_every_package_and_serves_gunicorn() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    missing = [package for package in _packages() if package not in _copied(text)]
    assert not missing, f"the Dockerfile does not copy {missing} before `pip install .`"
    assert "gunicorn" in text and "HEALTHCHECK" in text
    # Static files are collected outside the var/ volume, which would keep an old image's.
    static = re.search(r"STATIC_ROOT=(\S+)", text)
    assert static and not static[1].rstrip("/").startswith(VAR)


def test_the_check_sees_a_package_left_out() -> None:
    text = (DOCKER / "Dockerfile").read_text().replace("COPY venue ./venue\n", "")
    assert "venue" in _packages() and "venue" not in _copied(text)


def test_docker_compose_config_accepts_the_file_where_docker_compose_is_installed(tmp_path: Path) -> None:
    """Where no Docker client with its compose plugin is installed the checks above are the test."""
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "compose", "version"], capture_output=True).returncode:
        return
    env_file = tmp_path / "test.env"
    names = ("DUNE_APP_PASSWORD", "DUNE_OWNER_PASSWORD", "POSTGRES_PASSWORD", "SECRET_KEY")
    env_file.write_text("".join(f"{name}=x\n" for name in names))
    result = subprocess.run(
        [docker, "compose", "-f", str(DOCKER / "compose.yaml"), "--env-file", str(env_file), "config", "--quiet"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr


@pytest.fixture
def healthz() -> Iterator[tuple[str, list[tuple[int, dict[str, Any]]]]]:
    """A stand-in for /healthz answering what the test puts in `answers`."""
    answers: list[tuple[int, dict[str, Any]]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            status, body = answers[-1]
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps(body).encode())

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/healthz", answers
    finally:
        server.shutdown()


def test_the_web_probe_passes_with_only_the_worker_down(healthz: Any) -> None:
    url, answers = healthz
    answers.append((503, {"status": "down", "down": ["celery"]}))
    assert healthcheck.main(["--ignore", "celery", url]) == 0
    assert healthcheck.main([url]) == 1  # without --ignore the worker counts
    answers.append((503, {"status": "down", "down": ["redis", "celery"]}))
    assert healthcheck.main(["--ignore", "celery", url]) == 1
    answers.append((503, {"status": "failing", "down": [], "failing": ["backups"]}))
    assert healthcheck.main(["--ignore", "celery", url]) == 1
    answers.append((200, {"status": "ok", "down": []}))
    assert healthcheck.main(["--ignore", "celery", url]) == 0
