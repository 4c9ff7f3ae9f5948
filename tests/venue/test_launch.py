"""Venue mode's environment (no Django): the key is generated once and kept, the laptop's
addresses are allowed hosts and CSRF origins, the printed address is the chosen one."""

from __future__ import annotations

from pathlib import Path

from venue import launch


def test_the_secret_key_is_generated_once_and_kept_private(tmp_path: Path) -> None:
    first = launch.secret_key(tmp_path / "var")
    assert len(first) >= 50 and len(set(first)) > 20
    assert launch.secret_key(tmp_path / "var") == first
    assert oct((tmp_path / "var" / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_the_environment_serves_the_chosen_address_in_production_mode(tmp_path: Path) -> None:
    env = launch.environment({"VAR_DIR": str(tmp_path), "PORT": "8123", "VENUE_ADDRESS": "192.168.1.20",
                              "VENUE_NAME": ""})
    assert env["DEBUG"] == "false"
    assert env["VENUE_URL"] == "http://192.168.1.20:8123"
    hosts = env["ALLOWED_HOSTS"].split(",")
    assert hosts[0] == "192.168.1.20" and "127.0.0.1" in hosts
    assert "http://192.168.1.20:8123" in env["CSRF_TRUSTED_ORIGINS"].split(",")
    assert env["SECRET_KEY"] == (tmp_path / "secret_key").read_text().strip()
    # Plain HTTP on the venue's network: no HTTPS-only cookies, no redirect, no HSTS.
    assert (env["SESSION_COOKIE_SECURE"], env["SECURE_SSL_REDIRECT"], env["SECURE_HSTS_SECONDS"]) == (
        "false", "false", "0")


def test_on_port_80_the_origin_has_no_port(tmp_path: Path) -> None:
    env = launch.environment({"VAR_DIR": str(tmp_path), "PORT": "80", "VENUE_ADDRESS": "10.0.0.2", "VENUE_NAME": ""})
    assert env["VENUE_URL"] == "http://10.0.0.2"
    assert "http://10.0.0.2" in env["CSRF_TRUSTED_ORIGINS"].split(",")


def test_loopback_and_link_local_addresses_are_not_offered_to_phones() -> None:
    assert all(not a.startswith(("127.", "169.254.")) for a in launch.lan_addresses())


def test_links_and_qr_codes_use_the_announced_event_name(tmp_path: Path) -> None:
    env = launch.environment({"VAR_DIR": str(tmp_path), "PORT": "8123", "VENUE_ADDRESS": "192.168.1.20"})
    assert env["VENUE_URL"] == "http://dune-event.local:8123"
    assert env["VENUE_ADDRESS_URL"] == "http://192.168.1.20:8123"
    hosts = env["ALLOWED_HOSTS"].split(",")
    assert hosts[:2] == ["dune-event.local", "192.168.1.20"]
    assert "http://dune-event.local:8123" in env["CSRF_TRUSTED_ORIGINS"].split(",")
    named = launch.environment({"VAR_DIR": str(tmp_path), "PORT": "80", "VENUE_NAME": "Open-2026.local."})
    assert named["VENUE_URL"] == "http://open-2026.local"
