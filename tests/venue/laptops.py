"""Two laptops in venue mode as real processes, for the failover test and its benchmark
(tests/venue/test_follow.py, benchmarks/venue_follow.py): laptop A serving the demo event,
laptop B following it (`bin/venue follow`) and taking over (`bin/venue take-over`), judges
posting records to A's API. Standard library only (no Django): each laptop is its own
installation (SQLite file, var/ folder, port chosen by the system)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nothing listens on, chosen by the system."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def descendants(pid: int) -> set[int]:
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


class Laptop:
    """One installation in venue mode: `bin/venue` with its own database, var/ and port."""

    def __init__(self, folder: Path, name: str = "") -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.port = folder, free_port()
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("DJANGO_", "SECURE_", "CSRF_", "SESSION_", "DUNE_FOLLOW_"))}
        for variable in ("REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "SECRET_KEY", "DEBUG",
                         "ALLOWED_HOSTS", "VENUE_URL", "DATABASE_URL"):
            self.env.pop(variable, None)
        self.env.update({
            "VENV_BIN": str(Path(sys.executable).parent), "VAR_DIR": str(folder / "var"),
            "DATABASE_URL": f"sqlite:///{folder / 'venue.sqlite3'}", "PORT": str(self.port),
            "VENUE_BIND": "127.0.0.1", "WEB_WORKERS": "2", "VENUE_NAME": name, "VERBOSITY": "0",
        })
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def database(self) -> Path:
        return self.folder / "venue.sqlite3"

    def run(self, *args: str, timeout: float = 300, env: dict[str, str] | None = None) -> str:
        done = subprocess.run([str(ROOT / "bin" / "venue"), *args], cwd=ROOT, env={**self.env, **(env or {})},
                              capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise AssertionError(f"bin/venue {' '.join(args)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        return done.stdout + done.stderr

    def start(self, *args: str, log_name: str = "serve.log", env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        log = self.folder / log_name
        process = subprocess.Popen([str(ROOT / "bin" / "venue"), *args], cwd=ROOT, env={**self.env, **(env or {})},
                                   stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append(process)
        return process

    def log(self, log_name: str = "serve.log") -> str:
        path = self.folder / log_name
        return path.read_text(errors="replace") if path.exists() else ""

    def wait_for_log(self, pattern: str, log_name: str = "serve.log", timeout: float = 180) -> re.Match[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = re.search(pattern, self.log(log_name))
            if found:
                return found
            time.sleep(0.3)
        raise AssertionError(f"{pattern!r} never appeared in {log_name}:\n{self.log(log_name)[-3000:]}")

    def wait_serving(self, timeout: float = 180) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(f"{self.url}/accounts/login/", timeout=5) as answer:  # noqa: S310 - loopback
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        raise AssertionError(f"{self.url} never answered:\n{self.log()[-3000:]}")

    def kill(self) -> None:
        """What a laptop's power cut does: every process at once, with SIGKILL."""
        for process in self.processes:
            for pid in [process.pid, *descendants(process.pid)]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for process in self.processes:
            process.wait(timeout=10)

    def stop(self) -> None:
        self.kill()

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.database, timeout=30) as db:
            return db.execute(sql, params).fetchall()

    def records(self) -> dict[int, list[tuple[int, str, Any]]]:
        """Per table id: every record (number, kind, body) in order."""
        rows = self.query("SELECT g.table_id, e.seq, e.type, e.body FROM gameplay_gameevent e "
                          "JOIN gameplay_game g ON g.id = e.game_id ORDER BY g.table_id, e.seq")
        found: dict[int, list[tuple[int, str, Any]]] = {}
        for table, seq, kind, body in rows:
            found.setdefault(table, []).append((seq, kind, json.loads(body)))
        return found


def demo_password(output: str, username: str = "headjudge") -> str:
    found = re.search(rf"{username}\s+password: (\S+)", output)
    assert found, output[-2000:]
    return found.group(1)


class Session:
    """A signed-in browser session on one laptop's API (cookies and the CSRF token)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def sign_in(self, username: str, password: str) -> None:
        form = self.opener.open(f"{self.url}/accounts/login/", timeout=20).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
        assert token, form[:500]
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "username": username,
                                       "password": password}).encode()
        self.opener.open(urllib.request.Request(f"{self.url}/accounts/login/", data=data, headers={
            "Origin": self.url, "Referer": f"{self.url}/accounts/login/"}), timeout=20)
        assert "sessionid" in {c.name for c in self.jar}, f"{username} could not sign in at {self.url}"

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        csrf = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRFToken": csrf, "Origin": self.url,
                     "Referer": f"{self.url}/", **(headers or {})})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


@dataclass
class Judges:
    """Table judges posting records to the serving laptop, one thread per table, each record
    sent with its idempotency key and retried against the number a 409 names."""

    session: Session
    tables: dict[int, int]  # table id -> the record number it stands at
    every: float = 0.5  # seconds between two records of one table
    acknowledged: dict[int, list[tuple[int, float]]] = field(default_factory=dict)  # table -> (seq, when)
    errors: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)

    def _post(self, table: int, i: int) -> None:
        event = {"type": "spice_set", "faction": "atreides", "amount": i % 37}
        key = f"judge-{table}-{i}"
        for _ in range(5):
            status, body = self.session.call("POST", f"/api/tables/{table}/game/events/",
                                             {"event": event, "expected_seq": self.tables[table]},
                                             {"Idempotency-Key": key})
            if status == 201:
                self.tables[table] = body["seq"]
                self.acknowledged.setdefault(table, []).append((body["seq"], time.time()))
                return
            if status == 409:
                self.tables[table] = body.get("seq") or max(c["seq"] for c in body["changes"])
                continue
            self.errors.append(f"table {table}: {status} {str(body)[:200]}")
            return

    def _loop(self, table: int) -> None:
        i = 0
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                self._post(table, i)
            except OSError as exc:
                self.errors.append(f"table {table}: {exc}")
                return
            i += 1
            self._stop.wait(max(0.0, self.every - (time.monotonic() - began)))

    def count(self) -> int:
        """Records acknowledged so far, over every table."""
        return sum(len(acks) for acks in list(self.acknowledged.values()))

    def start(self) -> None:
        self._threads = [threading.Thread(target=self._loop, args=(t,), daemon=True) for t in self.tables]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)


def running_tables(laptop: Laptop) -> dict[int, int]:
    """Heat 2's tables of the demo (their games running) and the record number each stands at."""
    return dict(laptop.query("SELECT t.id, g.seq FROM tournament_table t JOIN tournament_round r ON r.id = t.round_id "
                             "JOIN gameplay_game g ON g.table_id = t.id WHERE r.number = 2 ORDER BY t.id"))


def held(laptop: Laptop) -> dict[int, int]:
    """Per table id: the highest record number the laptop holds."""
    return dict(laptop.query("SELECT g.table_id, MAX(e.seq) FROM gameplay_gameevent e "
                             "JOIN gameplay_game g ON g.id = e.game_id GROUP BY g.table_id"))


class LagWatch(threading.Thread):
    """Watches B's database while the judges post to A: for every record A acknowledged, the
    seconds until B holds it."""

    def __init__(self, judges: Judges, b: Laptop) -> None:
        super().__init__(daemon=True)
        self.judges, self.b = judges, b
        self.lags: list[float] = []
        #: When B was first seen holding each record (the clock the acknowledgements read).
        self.seen: list[float] = []
        self.done = threading.Event()
        self._next: dict[int, int] = {}

    def _check(self) -> int:
        now, have, pending = time.time(), held(self.b), 0
        for table, acks in list(self.judges.acknowledged.items()):
            start = self._next.get(table, 0)
            for seq, at in acks[start:]:
                if have.get(table, 0) < seq:
                    break
                self.lags.append(max(0.0, now - at))
                self.seen.append(now)
                start += 1
            self._next[table] = start
            pending += len(acks) - start
        return pending

    def run(self) -> None:
        while not self.done.is_set():
            self._check()
            time.sleep(0.1)

    def finish(self, timeout: float = 60) -> int:
        """Stop watching once B holds everything (or `timeout` passes); returns what B still lacks."""
        self.done.set()
        self.join()
        end = time.monotonic() + timeout
        while (pending := self._check()) and time.monotonic() < end:
            time.sleep(0.1)
        return pending
