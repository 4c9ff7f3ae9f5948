"""The deployment files parse and name the services the platform needs (no Docker engine here)."""

from __future__ import annotations

from pathlib import Path

import yaml

DOCKER = Path(__file__).resolve().parents[2] / "docker"


def test_compose_has_every_service_with_a_health_check() -> None:
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"proxy", "migrate", "web", "worker", "beat", "postgres", "redis"}
    for name, service in services.items():
        assert "healthcheck" in service, f"{name} has no health check"
    assert "gunicorn" in services["web"]["command"]
    assert services["beat"]["deploy"]["replicas"] == 1


def test_dockerfile_copies_every_app_and_serves_gunicorn() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    for app in ("config", "tournament", "gameplay", "scoring", "clocks"):
        assert f"COPY {app} ./{app}" in text
    assert "gunicorn" in text and "HEALTHCHECK" in text
