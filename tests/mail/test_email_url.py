"""`EMAIL_URL` names the mail server in one variable; a bad value stops start-up in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import ConfigError, env_email_address, env_email_url

ROOT = Path(__file__).resolve().parents[2]


def test_unset_means_kept_in_the_outbox() -> None:
    assert env_email_url("EMAIL_URL", environ={}) is None
    assert env_email_url("EMAIL_URL", environ={"EMAIL_URL": "  "}) is None


def test_tls_on_the_submission_port() -> None:
    parsed = env_email_url("EMAIL_URL", environ={"EMAIL_URL": "smtp://judge%40club:p%3Ass@mail.example.org:587/?tls=true"})
    assert parsed == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "judge@club",
        "EMAIL_HOST_PASSWORD": "p:ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }


@pytest.mark.parametrize(
    ("url", "port", "tls", "ssl"),
    [
        ("smtp://mail.example.org/?ssl=true", 465, False, True),
        ("smtps://mail.example.org", 465, False, True),
        ("smtp://mail.example.org/?tls=yes", 587, True, False),
        ("smtp://127.0.0.1:2525", 2525, False, False),
        ("smtp://mail.example.org", 25, False, False),
    ],
)
def test_ports_follow_the_security_asked_for(url: str, port: int, tls: bool, ssl: bool) -> None:
    parsed = env_email_url("EMAIL_URL", environ={"EMAIL_URL": url})
    assert parsed is not None
    assert (parsed["EMAIL_PORT"], parsed["EMAIL_USE_TLS"], parsed["EMAIL_USE_SSL"]) == (port, tls, ssl)
    assert (parsed["EMAIL_HOST_USER"], parsed["EMAIL_HOST_PASSWORD"]) == ("", "")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://mail.example.org", "EMAIL_URL must be an smtp:// or smtps:// URL"),
        ("mail.example.org:587", "EMAIL_URL must be an smtp:// or smtps:// URL"),
        ("smtp://:587", "EMAIL_URL names no mail server host"),
        ("smtp://mail.example.org:port", "EMAIL_URL has a malformed port"),
        ("smtp://mail.example.org:99999", "EMAIL_URL has a malformed port"),
        ("smtp://mail.example.org/inbox", "EMAIL_URL takes no path after the host"),
        ("smtp://mail.example.org/?starttls=true", "EMAIL_URL has an unknown option 'starttls'"),
        ("smtp://mail.example.org/?tls=maybe", "EMAIL_URL: tls must be true or false \\(got 'maybe'\\)"),
        ("smtp://mail.example.org/?tls=true&ssl=true", "EMAIL_URL asks for both tls and ssl"),
    ],
)
def test_bad_values_are_refused_naming_what_is_wrong(url: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        env_email_url("EMAIL_URL", environ={"EMAIL_URL": url})


def test_a_refusal_never_shows_the_password() -> None:
    with pytest.raises(ConfigError) as refused:
        env_email_url("EMAIL_URL", environ={"EMAIL_URL": "smtp://judge:s3cret@mail.example.org/?tls=on&ssl=on"})
    assert "s3cret" not in str(refused.value)
    assert "judge:***@mail.example.org" in str(refused.value)


def test_the_sender_address() -> None:
    assert env_email_address("EMAIL_FROM", "a@b", environ={"EMAIL_FROM": "Dune event <dune@example.org>"}) == (
        "Dune event <dune@example.org>"
    )
    with pytest.raises(ConfigError, match="EMAIL_FROM must be an email address"):
        env_email_address("EMAIL_FROM", "a@b", environ={"EMAIL_FROM": "the judges"})


def test_a_bad_email_url_stops_start_up_with_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "DATABASE_URL", "REDIS_URL"}}
    env.update(EMAIL_URL="smtp://mail.example.org/?tls=true&ssl=true", DEBUG="true")
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [
        "configuration error: EMAIL_URL asks for both tls and ssl; choose one "
        "(got 'smtp://mail.example.org/?tls=true&ssl=true')"
    ]
