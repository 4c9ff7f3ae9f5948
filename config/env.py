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


#: The query options an `EMAIL_URL` may carry, each true or false.
_EMAIL_OPTIONS = {"tls", "ssl"}


def env_email_url(name: str, *, environ: Mapping[str, str] = os.environ) -> dict[str, Any] | None:
    """Django's SMTP settings from one URL, `smtp://user:pass@host:587/?tls=true` (or `ssl=true`,
    or the scheme `smtps://`); None when unset (messages are kept in the outbox). The user and
    password are percent-decoded; the port defaults to 465 with SSL, 587 with TLS, else 25."""
    from urllib.parse import parse_qsl, unquote

    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    url = raw.strip()
    parsed = urlparse(url)
    shown = parsed._replace(netloc=parsed.netloc.replace(f":{parsed.password}@", ":***@")).geturl() \
        if parsed.password else url
    if parsed.scheme not in {"smtp", "smtps"}:
        raise ConfigError(f"{name} must be an smtp:// or smtps:// URL (got {shown!r})")
    if not parsed.hostname:
        raise ConfigError(f"{name} names no mail server host (got {shown!r})")
    try:
        port = parsed.port
    except ValueError:
        raise ConfigError(f"{name} has a malformed port (got {shown!r})") from None
    if parsed.path not in {"", "/"}:
        raise ConfigError(f"{name} takes no path after the host (got {shown!r})")
    options: dict[str, bool] = {}
    for key, value in parse_qsl(parsed.query, keep_blank_values=True):
        if key not in _EMAIL_OPTIONS:
            raise ConfigError(f"{name} has an unknown option {key!r} (known: tls, ssl; got {shown!r})")
        try:
            options[key] = env_bool(key, False, environ={key: value})
        except ConfigError:
            raise ConfigError(f"{name}: {key} must be true or false (got {value!r})") from None
    ssl = options.get("ssl", parsed.scheme == "smtps")
    tls = options.get("tls", False)
    if ssl and tls:
        raise ConfigError(f"{name} asks for both tls and ssl; choose one (got {shown!r})")
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parsed.hostname,
        "EMAIL_PORT": port or (465 if ssl else 587 if tls else 25),
        "EMAIL_HOST_USER": unquote(parsed.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parsed.password or ""),
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
    }


def env_email_address(name: str, default: str, *, environ: Mapping[str, str] = os.environ) -> str:
    """An address messages are sent from: `dune@example.org` or `Dune event <dune@example.org>`."""
    from email.utils import parseaddr

    value = env_str(name, default, environ=environ)
    _, address = parseaddr(value)
    local, at, domain = address.partition("@")
    if not (local and at and domain) or any(c in value for c in "\r\n"):
        raise ConfigError(f"{name} must be an email address (got {value!r})")
    return value
