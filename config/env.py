"""Reading settings from the environment.

Every reader raises `ConfigError` with one line naming the variable and what was wrong,
so a bad deployment stops at start-up instead of failing on the first request.
"""

from __future__ import annotations

import os
import zoneinfo
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class ConfigError(ImproperlyConfigured):
    """A setting read from the environment is missing or malformed."""


def env_str(name: str, default: str | None = None, *, environ: Mapping[str, str] = os.environ) -> str:
    value = environ.get(name)
    if value is None or value.strip() == "":
        if default is None:
            raise ConfigError(f"{name} is not set")
        return default
    return value.strip()


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] = os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name} must be true or false (got {raw!r})")


def env_int(name: str, default: int, *, environ: Mapping[str, str] = os.environ) -> int:
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number (got {raw!r})") from None


def env_list(name: str, default: list[str], *, environ: Mapping[str, str] = os.environ) -> list[str]:
    raw = environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ConfigError(f"{name} must list at least one comma-separated value (got {raw!r})")
    return items


def env_time_zone(name: str, default: str, *, environ: Mapping[str, str] = os.environ) -> str:
    value = env_str(name, default, environ=environ)
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"{name} is not a known time zone (got {value!r})") from None
    return value


def env_database(name: str, default: str, *, environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """A Django DATABASES entry from a URL: postgres://user@host:port/name or sqlite:///path."""
    import dj_database_url

    url = env_str(name, default, environ=environ)
    scheme = urlparse(url).scheme
    if scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ConfigError(f"{name} must be a postgres:// or sqlite:// URL (got {url!r})")
    try:
        # Connections are kept a minute between requests; each request first checks the one it
        # reuses (CONN_HEALTH_CHECKS), so a connection the database dropped meanwhile (a restart,
        # a failover, an idle timeout) is replaced instead of failing that request.
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True))
    except ValueError as exc:
        raise ConfigError(f"{name} is not a valid database URL (got {url!r}: {exc})") from None
    if scheme != "sqlite" and not config.get("NAME"):
        raise ConfigError(f"{name} names no database (got {url!r})")
    if scheme != "sqlite":
        # Django's PostgreSQL backend, checking a kept connection without a round trip.
        config["ENGINE"] = "config.postgresql"
    return config


def env_redis_url(name: str, default: str | None, *, environ: Mapping[str, str] = os.environ) -> str | None:
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    url = raw.strip()
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"} or not parsed.hostname:
        raise ConfigError(f"{name} must be a redis://host:port/db URL (got {url!r})")
    try:
        parsed.port  # noqa: B018 - raises on a malformed port
    except ValueError:
        raise ConfigError(f"{name} has a malformed port (got {url!r})") from None
    return url


#: What Django's deployment check asks of a secret key: long, varied, not a generated dev key.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE = 5


def check_secret_key(value: str, *, known_public: tuple[str, ...] = ()) -> str:
    """`value` if it is fit to sign sessions in production; ConfigError naming what is weak."""
    if value in known_public or value.startswith("django-insecure-"):
        raise ConfigError("SECRET_KEY is a published development key; set a secret value")
    if len(value) < SECRET_KEY_MIN_LENGTH:
        raise ConfigError(
            f"SECRET_KEY is too short ({len(value)} characters; at least {SECRET_KEY_MIN_LENGTH} are needed)"
        )
    if len(set(value)) < SECRET_KEY_MIN_UNIQUE:
        raise ConfigError(f"SECRET_KEY uses fewer than {SECRET_KEY_MIN_UNIQUE} different characters")
    return value
