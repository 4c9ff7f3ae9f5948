"""Table game API under load: gunicorn + PostgreSQL, driven from this separate process.

    .venv/bin/python benchmarks/table_api.py [--duration 60] [--rate 100] [--closed-seconds 20]

1. (Re)creates the PostgreSQL database `dune_bench_table` on 127.0.0.1 (DATABASE_URL's
   server, default postgres@127.0.0.1:5432), migrates it, and seeds a WBC tournament with
   35 published six-player tables and one table judge with an API token.
2. Starts gunicorn on 127.0.0.1 with a free port (loopback only) and waits for /healthz.
3. (a) Open loop: `rate` event posts per second spread over 10 tables for `duration`
   seconds. Each post has a due time fixed in advance; a table's posts go out in order (its
   judge writes against the sequence number of its last write), each when due or as soon as
   the table's previous post is answered. Latency runs from the due time, so a slow answer
   is charged to the posts queued behind it (no coordinated omission). Prints p50/p95/p99.
   Target: p95 under 100 ms.
   (b) Closed loop: 50 clients, two per table on 25 other tables, each posting as fast as
   it can for `closed-seconds`; a stale write (409) is retried against the sequence number
   the answer names. Prints accepted events per second and the stale count.
4. Verifies for every table: the log's sequence numbers are 1..n without gaps or repeats,
   exactly the accepted posts are in it (none lost, none duplicated), and replaying the log
   through the engine gives the position the API reports.
5. Stops gunicorn (also on SIGTERM). Exits 1 if the target is missed or a check fails.

gunicorn runs `cores + 1` gthread workers with 2 threads each; BENCH_WORKERS, BENCH_THREADS
and BENCH_WORKER_CLASS override that. The CPU used per event post by the web server and by
this load generator is printed with the load average, since other processes on the machine
compete for the same cores.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DB_NAME = "dune_bench_table"
#: gunicorn's output (Django logs every 409 as a warning); read it when something fails.
SERVER_LOG = ROOT / "var" / "bench_table_api_server.log"
SERVER_URL = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
P95_TARGET_MS = 100.0
OPEN_TABLES = 10
CLOSED_CLIENTS = 50
CLOSED_TABLES = 25
FACTIONS = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")


def env(db_name: str = DB_NAME, redis_url: str | None = None) -> dict[str, str]:
    """The server's environment: production settings on the benchmark database; Redis (cache,
    Celery broker) only when `redis_url` is given."""
    out = dict(os.environ)
    out.update(
        DATABASE_URL=f"{SERVER_URL}/{db_name}",
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY="benchmark-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz-table-api",
        DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="ERROR",
    )
    out.pop("REDIS_URL", None)  # the event path needs no cache; keep the benchmark self-contained
    if redis_url:
        out["REDIS_URL"] = redis_url
    return out


def recreate_database(db_name: str = DB_NAME, environment: dict[str, str] | None = None) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER_URL}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{db_name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=environment or env(db_name), check=True)


def seed() -> tuple[str, list[int]]:
    """A tournament with published tables and a judge; returns (API token, table ids)."""
    os.environ.update(env())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournament.models import Player, Round, Seat, Table, Tournament

    judge = get_user_model().objects.create_user("bench-judge", password="bench-judge-password-not-used")
    tournament = Tournament.objects.create(name="Benchmark open", format="wbc")
    tournament.head_judges.add(judge)
    round_ = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED, seed=1)
    count = OPEN_TABLES + CLOSED_TABLES
    players = Player.objects.bulk_create(Player(tournament=tournament, name=f"Bench {i:03d}") for i in range(count * 6))
    tables = []
    for n in range(count):
        table = Table.objects.create(round=round_, number=n + 1, judge=judge)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, player=players[n * 6 + i], seat=i + 1, faction=f)
            for i, f in enumerate(FACTIONS)
        )
        tables.append(table.pk)
    token = Token.objects.create(user=judge).key
    return token, tables


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_gunicorn(
    port: int, environment: dict[str, str] | None = None, log: Path = SERVER_LOG
) -> subprocess.Popen[bytes]:
    log.parent.mkdir(parents=True, exist_ok=True)
    # The deployment's settings (config/gunicorn.conf.py: gthread, one process per core plus
    # one, two threads each); BENCH_WORKERS, BENCH_THREADS and BENCH_WORKER_CLASS override them.
    overrides = [flag for name, option in (("BENCH_WORKERS", "--workers"), ("BENCH_THREADS", "--threads"),
                                           ("BENCH_WORKER_CLASS", "--worker-class"))
                 if (value := os.environ.get(name)) for flag in (option, value)]
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", str(ROOT / "config" / "gunicorn.conf.py"),
         "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--log-level", "warning", *overrides],
        cwd=ROOT, env={**(environment or env()), "WEB_ACCESS_LOG": ""}, start_new_session=True, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            # Any answer will do: /healthz says 503 here since no Celery worker runs.
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return process
        except OSError:
            time.sleep(0.2)
    stop(process)
    raise SystemExit("gunicorn did not answer within 30 s")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)  # its own session: gunicorn's master and workers
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def cpu_seconds(process: subprocess.Popen[bytes]) -> float:
    """CPU time used so far by gunicorn's master and workers (its own process group, whose
    workers live for the whole run). PostgreSQL's backends are not counted: they come and go
    with the web server's pooled connections, so a before/after sample would miss some."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == process.pid:  # field 5 of stat: the process group id
            ticks += int(fields[11]) + int(fields[12])  # utime + stime
    return ticks / os.sysconf("SC_CLK_TCK")


def server_cpu_ms(header: str | None) -> float | None:
    """The `cpu;dur=<ms>` entry of a Server-Timing header (config/server_timing.py)."""
    for entry in (header or "").split(","):
        name, _, rest = entry.strip().partition(";")
        if name == "cpu" and rest.startswith("dur="):
            try:
                return float(rest[4:])
            except ValueError:
                return None
    return None


class Client:
    """One keep-alive HTTP connection per thread."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json",
                        "Accept": "application/json"}
        self.local = threading.local()

    def _conn(self) -> http.client.HTTPConnection:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        return conn

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        status, raw = self.send(method, path, body, headers)
        return status, json.loads(raw or b"null")

    def send(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """One request on this thread's connection (reopened once if the server closed it)."""
        status, raw, _cpu = self.timed(method, path, body, headers)
        return status, raw

    def timed(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, float | None]:
        """`send`, plus the server's CPU milliseconds for it (its `Server-Timing: cpu;dur=`
        header, None when the server does not tell)."""
        data = None if body is None else json.dumps(body)
        for attempt in (1, 2):
            conn = self._conn()
            try:
                conn.request(method, path, body=data, headers={**self.headers, **(headers or {})})
                response = conn.getresponse()
                raw = response.read()
                return response.status, raw, server_cpu_ms(response.getheader("Server-Timing"))
            except (http.client.HTTPException, OSError):
                conn.close()
                self.local.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def event_for(i: int) -> dict[str, Any]:
    faction = FACTIONS[i % len(FACTIONS)]
    if i % 3 == 2:
        return {"type": "cards_set", "faction": faction, "count": i % 4}
    return {"type": "spice_set", "faction": faction, "amount": i % 37}


class TableState:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seq = 1
        self.accepted = 0
        self.stale = 0


def post(client: Client, table: int, state: TableState, i: int) -> tuple[int, int]:
    """Post one event against the table's known seq; on 409 retry against the named seq.
    Returns (accepted 1/0, stale answers)."""
    stale = 0
    while True:
        status, body = client.call("POST", f"/api/tables/{table}/game/events/",
                                   {"event": event_for(i), "expected_seq": state.seq})
        if status == 201:
            state.seq = body["seq"]
            state.accepted += 1
            return 1, stale
        if status == 409:
            stale += 1
            state.seq = body["seq"]
            continue
        raise SystemExit(f"unexpected answer {status} for table {table}: {body}")


def open_loop(client: Client, tables: list[int], rate: float, duration: float) -> tuple[list[float], dict[int, TableState]]:
    """Post i is due at start + i/rate, on table i mod 10. Each table's posts go out in order
    from that table's own sender (a table's judge writes against the number their last write
    returned), each as soon as it is due and the table's previous post is answered; latency
    runs from the due time, so a slow answer delays, and is charged to, the posts behind it."""
    states = {t: TableState() for t in tables}
    latencies: list[float] = []
    record = threading.Lock()
    total = int(rate * duration)
    start = time.monotonic() + 0.5

    def sender(k: int) -> None:
        table = tables[k]
        state = states[table]
        for i in range(k, total, len(tables)):
            due = start + i / rate
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            _accepted, stale = post(client, table, state, i)
            state.stale += stale
            with record:
                latencies.append((time.monotonic() - due) * 1000)

    threads = [threading.Thread(target=sender, args=(k,), daemon=True) for k in range(len(tables))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, states


def closed_loop(client: Client, tables: list[int], seconds: float) -> tuple[int, int, float, dict[int, TableState]]:
    states = {t: TableState() for t in tables}
    stop_at = time.monotonic() + seconds
    totals = {"accepted": 0, "stale": 0}
    lock = threading.Lock()

    def worker(k: int) -> None:
        table = tables[k % len(tables)]
        state = states[table]
        i = k
        accepted = stale = 0
        while time.monotonic() < stop_at:
            # Two clients share each table: they race on purpose and the loser is told it is stale.
            a, s = post(client, table, state, i)
            accepted += a
            stale += s
            i += CLOSED_CLIENTS
        with lock:
            totals["accepted"] += accepted
            totals["stale"] += stale

    began = time.monotonic()
    threads = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(CLOSED_CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    return totals["accepted"], totals["stale"], elapsed, states


def verify(client: Client, states: dict[int, TableState]) -> list[str]:
    """No event lost or duplicated; every log replays to the position the API reports."""
    import dune.engine as engine
    from gameplay import engine_adapter

    problems = []
    for table, state in states.items():
        status, log = client.call("GET", f"/api/tables/{table}/game/events/")
        seqs = [e["seq"] for e in log["events"]]
        if seqs != list(range(1, len(seqs) + 1)):
            problems.append(f"table {table}: sequence numbers not 1..n: {seqs[:5]}...")
        if len(seqs) - 1 != state.accepted:
            problems.append(f"table {table}: {state.accepted} posts accepted but {len(seqs) - 1} events logged")
        _status, game = client.call("GET", f"/api/tables/{table}/game/")
        replayed = engine.replay([e["event"] for e in log["events"]])
        if engine_adapter.dump(replayed) != game["position"] or game["seq"] != len(seqs):
            problems.append(f"table {table}: the replayed log differs from the reported position")
    return problems


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _stop_on_signal(signum: int, _frame: Any) -> None:
    # A SIGTERM (a timeout, Ctrl-C from a wrapper) unwinds through `finally`, which stops gunicorn.
    raise SystemExit(f"stopped by signal {signum}")


def main() -> int:
    signal.signal(signal.SIGTERM, _stop_on_signal)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--closed-seconds", type=float, default=20.0)
    args = parser.parse_args()

    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    recreate_database()
    token, tables = seed()
    open_tables, closed_tables = tables[:OPEN_TABLES], tables[OPEN_TABLES:]
    port = free_port()
    server = start_gunicorn(port)
    ok = True
    try:
        client = Client(port, token)
        for table in tables:  # the game is created from the seating on first read
            client.call("GET", f"/api/tables/{table}/game/")

        web_before = cpu_seconds(server)
        own_before = time.process_time()
        latencies, open_states = open_loop(client, open_tables, args.rate, args.duration)
        posts = max(1, len(latencies))
        web_ms = (cpu_seconds(server) - web_before) / posts * 1000
        client_ms = (time.process_time() - own_before) / posts * 1000
        p50, p95, p99 = (percentile(latencies, p) for p in (50, 95, 99))
        print(f"(a) open loop: {len(latencies)} event posts at {args.rate:.0f}/s over {OPEN_TABLES} tables "
              f"for {args.duration:.0f} s (gunicorn, PostgreSQL, {os.cpu_count()} cores)")
        print(f"    stale writes: {sum(s.stale for s in open_states.values())} (each table has one writer: expected 0)")
        print(f"    latency p50 {p50:.1f} ms  p95 {p95:.1f} ms  p99 {p99:.1f} ms  "
              f"(mean {statistics.fmean(latencies):.1f} ms, max {max(latencies):.1f} ms)  target: p95 < {P95_TARGET_MS:.0f} ms")
        print(f"    CPU per event post: web server {web_ms:.1f} ms, load generator {client_ms:.1f} ms")
        if p95 >= P95_TARGET_MS:
            print("    TARGET MISSED")
            ok = False

        accepted, stale, elapsed, closed_states = closed_loop(client, closed_tables, args.closed_seconds)
        print(f"(b) closed loop: {CLOSED_CLIENTS} clients on {CLOSED_TABLES} tables for {elapsed:.1f} s: "
              f"{accepted} events accepted, {accepted / elapsed:.0f} events/s ({stale} stale writes refused and retried)")

        problems = verify(client, {**open_states, **closed_states})
        logged = sum(s.accepted for s in {**open_states, **closed_states}.values())
        if problems:
            ok = False
            print("verification FAILED:")
            for p in problems:
                print("   ", p)
        else:
            print(f"verified: {len(tables)} tables, {logged} events, none lost or duplicated; "
                  "every log replays to the position the API reports")
    finally:
        stop(server)
        print(f"load average after: {os.getloadavg()[0]:.2f} (1 min); other processes on this machine share "
              "its cores and its PostgreSQL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
