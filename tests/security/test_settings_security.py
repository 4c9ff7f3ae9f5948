"""Production refuses a guessable secret key, and HSTS preload is only sent when asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import ConfigError, check_secret_key

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "x7#Kp2!vQ9zL@m4R$w8TnB6&yE3uJ5hD1cF0gA-sZ_oP+iU(qW)eX*rV%tY^lN"


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("secret", "too short"),
        ("changeme" * 3, "too short"),
        ("a" * 60, "fewer than 5 different characters"),
        ("django-insecure-" + "k3y" * 20, "development key"),
    ],
)
def test_weak_keys_are_refused(key: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        check_secret_key(key)


def test_a_strong_key_is_kept() -> None:
    assert check_secret_key(STRONG_KEY) == STRONG_KEY


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: os.environ[k] for k in ("PATH", "HOME", "DATABASE_URL", "REDIS_URL") if k in os.environ}
    base.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "false", **env})
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True, timeout=60)


def test_production_start_up_stops_on_a_weak_key() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], "DEBUG": "false", "SECRET_KEY": "hunter2"},
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode != 0
    assert "configuration error: SECRET_KEY is too short (7 characters" in result.stderr


def test_hsts_preload_only_when_asked_for() -> None:
    code = "from django.conf import settings; print(settings.SECURE_HSTS_PRELOAD, settings.SECURE_HSTS_SECONDS > 0)"
    assert _python(code, SECRET_KEY=STRONG_KEY).stdout.split() == ["False", "True"]
    assert _python(code, SECRET_KEY=STRONG_KEY, SECURE_HSTS_PRELOAD="true").stdout.split() == ["True", "True"]
