"""`make venue`: the laptop serves the venue's network in production mode (gunicorn, DEBUG off,
a secret key kept under var/, hosts and CSRF origins of the laptop's addresses), web, worker
and beat stop together on Ctrl-C, and starting again continues."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.venue import sqlite_template

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nothing listens on, chosen by the system (never a fixed one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(port: int, path: str, host: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - loopback only
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def wait_for_text(log: Path, pattern: str, timeout: float = 120) -> re.Match[str] | None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = re.search(pattern, log.read_text(errors="replace"))
        if found:
            return found
        time.sleep(0.3)
    return None


def answers(port: int, host: str, timeout: float = 60) -> Any:
    """The status of the home page once the server answers (None if it never does)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            return get(port, "/", host)[0]
        except OSError:
            time.sleep(0.5)
    return None


class Venue:
    def __init__(self, tmp: Path, port: int) -> None:
        self.tmp, self.port = tmp, port
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_", "CSRF_", "SESSION_"))}
        for name in ("REDIS_URL", "CELERY_BROKER_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "VENUE_URL"):
            self.env.pop(name, None)
        self.env.update({
            "VENV_BIN": str(Path(sys.executable).parent),
            "VAR_DIR": str(tmp / "var"),
            "DATABASE_URL": f"sqlite:///{tmp / 'venue.sqlite3'}",
            "PORT": str(port),
            "VENUE_BIND": "0.0.0.0",  # noqa: S104 - the venue's network; the test talks to 127.0.0.1 only
            "WEB_WORKERS": "1",
            # No announcement on the LAN from a test in the machine's own network (the test of
            # the name runs in network namespaces of its own: tests/venue/test_follow.py).
            "VENUE_NAME": "",
        })
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, log: Path) -> None:
        self.log = log
        self.process = subprocess.Popen(
            [str(ROOT / "bin" / "venue")], cwd=ROOT, env=self.env, stdout=log.open("wb"),
            stderr=subprocess.STDOUT, start_new_session=True,
        )

    def ctrl_c(self) -> int:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGINT)  # what the terminal sends on Ctrl-C
        return self.process.wait(timeout=60)

    def group_alive(self) -> bool:
        assert self.process is not None
        try:
            os.killpg(self.process.pid, 0)
        except ProcessLookupError:
            return False
        return True

    def stop(self) -> None:
        if self.process is not None and self.group_alive():
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[Venue]:
    running = Venue(tmp_path, free_port())
    sqlite_template.migrated(tmp_path / "venue.sqlite3")  # a new laptop's database, migrated
    try:
        yield running
    finally:
        running.stop()


def test_make_venue_runs_bin_venue() -> None:
    dry = subprocess.run(["make", "--no-print-directory", "-n", "venue"], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert dry.stdout.strip().splitlines()[-1] == "bin/venue"


def test_venue_mode_serves_the_network_in_production_mode_and_stops_on_ctrl_c(venue: Venue, tmp_path: Path) -> None:
    first = tmp_path / "first.log"
    venue.start(first)
    found = wait_for_text(first, rf"open: http://([^\s/]+):{venue.port}/")
    assert found, first.read_text()[-3000:]
    address = found.group(1)
    assert address not in {"127.0.0.1", "localhost"}
    assert wait_for_text(first, "[█▀▄]{20}", timeout=20)  # the QR code in the terminal
    host = f"{address}:{venue.port}"
    assert answers(venue.port, host) == 200, first.read_text()[-3000:]
    # DEBUG off: a missing page is the platform's own 404, not Django's debug page.
    status, body = get(venue.port, "/no-such-page/", host)
    assert status == 404 and "URLconf" not in body and "DEBUG = True" not in body
    # Only the laptop's own names are served.
    assert get(venue.port, "/", "attacker.example")[0] == 400
    # Static files were collected and are served with their fingerprinted names.
    _, page = get(venue.port, "/accounts/login/", host)
    css = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', page)
    assert css and get(venue.port, css.group(1), host)[0] == 200
    key_file = tmp_path / "var" / "secret_key"
    key = key_file.read_text().strip()
    assert len(key) >= 50 and oct(key_file.stat().st_mode & 0o777) == "0o600"

    venue.ctrl_c()
    end = time.monotonic() + 30
    while venue.group_alive() and time.monotonic() < end:
        time.sleep(0.2)
    assert not venue.group_alive(), "web, worker or beat kept running after Ctrl-C"
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", venue.port)) != 0

    # The organiser's account, made with a management command in venue mode while it is stopped.
    made = subprocess.run(
        [str(ROOT / "bin" / "venue"), "createsuperuser", "--noinput", "--username", "organiser",
         "--email", "organiser@example.org"],
        cwd=ROOT, env={**venue.env, "DJANGO_SUPERUSER_PASSWORD": "a long venue password 42"},
        capture_output=True, text=True, timeout=120,
    )
    assert made.returncode == 0, made.stdout + made.stderr

    second = tmp_path / "second.log"
    venue.start(second)
    assert wait_for_text(second, r"No migrations to apply"), second.read_text()[-3000:]
    assert wait_for_text(second, rf"open: http://{re.escape(address)}:{venue.port}/")
    assert key_file.read_text().strip() == key  # the same key: sessions survive a restart
    # The same database: the organiser signs in to what was there before.
    assert answers(venue.port, host) == 200, second.read_text()[-3000:]
    login = f"http://127.0.0.1:{venue.port}/accounts/login/"
    jar = urllib.request.HTTPCookieProcessor()
    opener = urllib.request.build_opener(jar)
    form = opener.open(urllib.request.Request(login, headers={"Host": host}), timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert token
    data = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "username": "organiser",
                                   "password": "a long venue password 42"}).encode()
    signed_in = opener.open(urllib.request.Request(
        login, data=data, headers={"Host": host, "Origin": f"http://{host}", "Referer": f"http://{host}/accounts/login/"}
    ), timeout=10)
    assert signed_in.status == 200 and "sessionid" in {c.name for c in jar.cookiejar}
    venue.ctrl_c()


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (children in groups of their own included)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def worker_pid(supervisor: int) -> int:
    for pid in descendants(supervisor):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"worker" in argv and any(a.endswith(b"celery") for a in argv) and os.getpgid(pid) == pid:
            return pid
    raise AssertionError("no Celery worker under venue mode")


def serving(venue: Venue, log: Path) -> set[int]:
    venue.start(log)
    assert wait_for_text(log, rf"open: http://([^\s/]+):{venue.port}/"), log.read_text()[-3000:]
    assert answers(venue.port, f"127.0.0.1:{venue.port}") == 200, log.read_text()[-3000:]
    assert venue.process is not None
    end = time.monotonic() + 60
    while time.monotonic() < end:  # web, worker and beat with their children
        processes = descendants(venue.process.pid)
        if len(processes) >= 4:
            return processes
        time.sleep(0.3)
    raise AssertionError(f"venue mode did not start its processes: {log.read_text()[-3000:]}")


def test_ctrl_c_kills_a_worker_stuck_in_its_shutdown(venue: Venue, tmp_path: Path) -> None:
    """The supervisor does not wait on a worker that ignores its stop signal: after its grace
    (STOP_SECONDS) it kills what is left, and web, worker and beat are all gone. A supervisor
    that waited for the worker would never stop: the waits below only keep a failure from hanging."""
    log = tmp_path / "venue.log"
    processes = serving(venue, log)
    assert venue.process is not None
    # A worker that does not act on its stop signal (as one busy in a long task does not).
    os.kill(worker_pid(venue.process.pid), signal.SIGSTOP)
    os.killpg(venue.process.pid, signal.SIGINT)
    venue.process.wait(timeout=60)
    end = time.monotonic() + 30
    while any(alive(p) for p in processes) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [p for p in processes if alive(p)], "web, worker or beat kept running"
    assert "stopping web, worker and beat" in log.read_text()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", venue.port)) != 0


def test_a_second_ctrl_c_stops_at_once(venue: Venue, tmp_path: Path) -> None:
    """With a grace far longer than the test waits, only the second Ctrl-C can have stopped it."""
    venue.env["VENUE_STOP_SECONDS"] = "600"
    log = tmp_path / "venue.log"
    processes = serving(venue, log)
    assert venue.process is not None
    os.kill(worker_pid(venue.process.pid), signal.SIGSTOP)
    os.killpg(venue.process.pid, signal.SIGINT)
    assert wait_for_text(log, r"at most 600 s; Ctrl-C again stops at once", timeout=60), log.read_text()[-2000:]
    os.killpg(venue.process.pid, signal.SIGINT)
    venue.process.wait(timeout=60)
    end = time.monotonic() + 30
    while any(alive(p) for p in processes) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [p for p in processes if alive(p)]
