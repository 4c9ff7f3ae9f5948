"""Settings come from the environment; a bad value stops start-up with one line naming it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import (
    ConfigError,
    env_bool,
    env_database,
    env_int,
    env_list,
    env_redis_url,
    env_str,
    env_time_zone,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("raw", "expected"), [("true", True), ("1", True), ("YES", True), ("false", False), ("0", False), ("off", False)]
)
def test_bool_values(raw: str, expected: bool) -> None:
    assert env_bool("DEBUG", not expected, environ={"DEBUG": raw}) is expected


def test_bool_default_when_unset() -> None:
    assert env_bool("DEBUG", True, environ={}) is True


def test_bool_refuses_other_words() -> None:
    with pytest.raises(ConfigError, match=r"DEBUG must be true or false \(got 'maybe'\)"):
        env_bool("DEBUG", False, environ={"DEBUG": "maybe"})


def test_int_refuses_words() -> None:
    with pytest.raises(ConfigError, match="AXES_FAILURE_LIMIT must be a whole number"):
        env_int("AXES_FAILURE_LIMIT", 5, environ={"AXES_FAILURE_LIMIT": "five"})


def test_list_splits_and_trims() -> None:
    assert env_list("ALLOWED_HOSTS", [], environ={"ALLOWED_HOSTS": " a.example, b.example ,"}) == [
        "a.example",
        "b.example",
    ]


def test_list_refuses_empty() -> None:
    with pytest.raises(ConfigError, match="ALLOWED_HOSTS must list at least one"):
        env_list("ALLOWED_HOSTS", [], environ={"ALLOWED_HOSTS": " , "})


def test_missing_required_string_names_it() -> None:
    with pytest.raises(ConfigError, match="^SECRET_KEY is not set$"):
        env_str("SECRET_KEY", None, environ={})


def test_time_zone_checked() -> None:
    assert env_time_zone("TIME_ZONE", "UTC", environ={"TIME_ZONE": "America/New_York"}) == "America/New_York"
    with pytest.raises(ConfigError, match="TIME_ZONE is not a known time zone"):
        env_time_zone("TIME_ZONE", "UTC", environ={"TIME_ZONE": "Arrakis/Arrakeen"})


def test_database_url_postgres() -> None:
    config = env_database("DATABASE_URL", "", environ={"DATABASE_URL": "postgres://u:p@db.example:6543/dune"})
    assert config["ENGINE"] == "config.postgresql"  # Django's, with a health check that sends nothing
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"]) == ("db.example", 6543, "dune", "u")


def test_database_url_default_is_sqlite() -> None:
    config = env_database("DATABASE_URL", "sqlite:////tmp/x.sqlite3", environ={})
    assert config["ENGINE"] == "django.db.backends.sqlite3"


@pytest.mark.parametrize("bad", ["mysql://u@h/db", "not a url", "postgres://u@h:5432/"])
def test_database_url_refused(bad: str) -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        env_database("DATABASE_URL", "", environ={"DATABASE_URL": bad})


def test_redis_url() -> None:
    assert env_redis_url("REDIS_URL", None, environ={}) is None
    assert env_redis_url("REDIS_URL", None, environ={"REDIS_URL": "redis://h:6379/2"}) == "redis://h:6379/2"
    with pytest.raises(ConfigError, match="REDIS_URL must be a redis://"):
        env_redis_url("REDIS_URL", None, environ={"REDIS_URL": "http://h:6379"})
    with pytest.raises(ConfigError, match="REDIS_URL has a malformed port"):
        env_redis_url("REDIS_URL", None, environ={"REDIS_URL": "redis://h:port/0"})


def _clean_environment(**env: str) -> dict[str, str]:
    """Only what a deployment would set: nothing leaks in from the test process."""
    base = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "DATABASE_URL", "REDIS_URL") if k in os.environ}
    base.update(env)
    return base


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = _clean_environment(**env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
    )


def test_bad_value_stops_start_up_with_one_line() -> None:
    result = _manage("check", DATABASE_URL="mysql://nope/db", DEBUG="true")
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == ["configuration error: DATABASE_URL must be a postgres:// or sqlite:// URL (got 'mysql://nope/db')"]


def test_production_needs_a_secret_key() -> None:
    result = _manage("check", DEBUG="false")
    assert result.returncode != 0
    assert "configuration error: SECRET_KEY is not set" in result.stderr


def test_check_deploy_is_clean_under_production_settings() -> None:
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY="x7#Kp2!vQ9zL@m4R$w8TnB6&yE3uJ5hD1cF0gA-sZ_oP+iU(qW)eX*rV%tY^lN",
        ALLOWED_HOSTS="dune.example.org",
        SECURE_SSL_REDIRECT="true",
        SESSION_COOKIE_SECURE="true",
        CSRF_COOKIE_SECURE="true",
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout
