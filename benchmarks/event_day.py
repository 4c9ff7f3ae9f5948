"""An event day at five (or `--scale`) times a large event, compressed: gunicorn + PostgreSQL +
a real Celery worker on Redis, driven from this separate process.

    .venv/bin/python benchmarks/event_day.py [--scale 5] [--duration 180] [--burst-every 45]
        [--instances 1] [--port 8700] [--profile var/event_day.speedscope.json]

`--scale N` sizes the day at N times a large event: 60·N phones, 8·N tables with their
judges, 48·N players (5: 300 phones, 40 judges, 240 players; 10: 600, 80, 480). Below, the
figures are those of the default scale 5. `--instances 2` runs two gunicorn instances behind
one proxy (`benchmarks/tcp_proxy.py`, spreading connections over them) on the same
PostgreSQL and Redis, as more web machines would. Servers listen on loopback from `--port`
on (the proxy there, the instances on the next ports). `--profile FILE` samples the (first)
gunicorn's processes with py-spy for the whole load and writes a speedscope profile to FILE
(open it at speedscope.app); sampling costs the server a little CPU, so read the figures of
such a run with that in mind.

1. (Re)creates the PostgreSQL database `dune_bench_event_day` (DATABASE_URL's server),
   collects the static files as a deployment does, and seeds a
   WBC tournament of 240 players: heat 1 finished and filed (so the standings have something
   to rank), heat 2 published on 40 six-player tables, each with its own table judge (an API
   token each), heat 2's clocks started (their deadlines armed on the Celery worker) and its
   games begun from the seating (a game's first record is made once per table, before play:
   the day's posts are moves in running games).
2. Starts gunicorn (production settings, Redis as cache and broker, so the embedded
   file-system worker is off) and `celery worker` on Redis (REDIS_URL, default db 2).
3. For `--duration` seconds at the real rates of the day:
   - 300 players' phones, each polling the round page every 30 s and the standings every
     60 s (10 + 5 pages a second), from a pool of client threads, each request due at a
     fixed time (latency is charged from the due time: no coordinated omission); as in the
     browser, a phone's first visit loads the whole page and later polls are the page's live
     region asking with the ETag it shows (304 when nothing changed);
   - 40 table judges, each posting one event every 20 s to its table with an
     `Idempotency-Key`, in order (against the sequence number of its last write);
   - every `--burst-every` seconds a phase change: all 40 judges post within 2 s;
   - 10 % of the posts are sent a second time with the same key and body (an answer lost
     on venue Wi-Fi): the repeat must get the same answer and record nothing.
4. Checks every table's log: the sequence numbers are 1..n, exactly the accepted posts are
   in it (none lost), and no key was recorded twice (duplicates found); then `manage.py
   check_games` replays every game's log and must find each stored position and evaluation
   equal to it (with `--instances 2`, several processes recorded each game).
5. Prints p50/p95/p99 per kind with the counts, and the web server's CPU milliseconds per kind
   of request (each answer's `Server-Timing: cpu;dur=`, config/server_timing.py): a post, a
   first visit, a poll answered 304 (unchanged) and a poll answered with the changed fragment.
   Exits 1 if a target is missed: p95 < 100 ms for posts, < 200 ms for pages, 0 lost,
   0 duplicated; mean CPU per post <= 4 ms, per retried post answered from its stored answer
   <= 1.5 ms and per unchanged poll <= 0.7 ms.

The duration keeps the run bounded; the rates, not the length, are what the targets are about.

`--venue` runs one laptop in venue mode instead (benchmarks/venue_mode.py): SQLite in WAL
mode and the file-system broker, at one large event's rates (60 phones, 8 judges), targets
p95 < 150 ms for posts and < 300 ms for pages.
"""

from __future__ import annotations

import argparse
import heapq
import html
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import venue_mode  # noqa: E402
from benchmarks.table_api import (  # noqa: E402 - the path above makes the project importable
    FACTIONS,
    ROOT,
    Client,
    event_for,
    percentile,
    recreate_database,
    start_gunicorn,
    stop,
)
from benchmarks.table_api import env as server_env  # noqa: E402

DB_NAME = os.environ.get("BENCH_EVENT_DAY_DB", "dune_bench_event_day")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2")
SERVER_LOG = ROOT / "var" / "bench_event_day_server.log"
WORKER_LOG = ROOT / "var" / "bench_event_day_worker.log"
PROXY_LOG = ROOT / "var" / "bench_event_day_proxy.log"
#: At scale 1, a large event: 8 tables (48 players) and 60 phones; `--scale` multiplies both.
TABLES_PER_SCALE = 8
PHONES_PER_SCALE = 60
ROUND_EVERY = 30.0
STANDINGS_EVERY = 60.0
POST_EVERY = 20.0
BURST_WINDOW = 2.0
RETRY_SHARE = 0.10
PAGE_THREADS_PER_SCALE = 24 / 5  # client threads sending the phones' requests when due
TARGET_MS = {"post": 100.0, "round page": 200.0, "standings page": 200.0}
STACK_LABEL = "PostgreSQL, Celery worker on Redis"
#: Mean web-server CPU milliseconds per request kind (Server-Timing), where there is a target.
TARGET_CPU_MS = {"post": 4.0, "post repeated (stored answer)": 1.5,
                 "round page unchanged (304)": 0.7, "standings page unchanged (304)": 0.7}


def env() -> dict[str, str]:
    if venue_mode.ACTIVE:
        return {**venue_mode.env(), "SERVER_TIMING": "true"}
    return {**server_env(DB_NAME, REDIS_URL), "SERVER_TIMING": "true"}


def seed(tables_count: int) -> dict[str, Any]:
    """The tournament of the day; returns the ids and tokens the load needs."""
    os.environ.update(env())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from clocks import services as clocks
    from scoring import services as scoring
    from tournament.models import Player, Round, Seat, Table, Tournament

    users = get_user_model().objects
    head = users.create_user("bench-head", password="bench-head-password-not-used", is_staff=True)
    tournament = Tournament.objects.create(name="Event day", format="wbc")
    tournament.head_judges.add(head)
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Player {i:03d}") for i in range(tables_count * 6)
    )
    judges = [users.create_user(f"judge-{n:02d}", password="bench-judge-password-not-used") for n in range(tables_count)]
    tournament.table_judges.add(*judges)
    heats = [Round.objects.create(tournament=tournament, number=n, state=Round.State.PUBLISHED, seed=n) for n in (1, 2)]
    tables: dict[int, list[Any]] = {1: [], 2: []}
    for number, heat in zip((1, 2), heats, strict=True):
        order = list(players) if number == 1 else random.Random(2).sample(players, len(players))  # heat 2 mixes
        for n in range(tables_count):
            table = Table.objects.create(round=heat, number=n + 1, judge=judges[n])
            Seat.objects.bulk_create(
                Seat(table=table, round=heat, player=order[n * 6 + i], seat=i + 1, faction=f)
                for i, f in enumerate(FACTIONS)
            )
            tables[number].append(table)
    for n, table in enumerate(tables[1]):  # heat 1 is over: one winner per table
        seats = list(table.seats.order_by("seat"))
        rows = [{"player": s.player_id, "result": "solo_stronghold" if i == n % 6 else "loss"} for i, s in enumerate(seats)]
        scoring.file_report(table, {"turns": 6, "ended_by": "victory", "results": rows}, user=head)
    heats[0].state = Round.State.FINISHED
    heats[0].save(update_fields=["state"])
    clocks.start_round(heats[1], user=head, reason="event day benchmark")
    from gameplay import services as games

    for table in tables[2]:  # every game has begun: the day's posts are moves in running games
        games.game_for(table)
    return {
        "tournament": tournament.pk,
        "round": heats[1].pk,
        "tables": [t.pk for t in tables[2]],
        "tokens": [Token.objects.create(user=j).key for j in judges],
    }


def start_worker() -> subprocess.Popen[bytes]:
    WORKER_LOG.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker", "--loglevel", "warning",
         "--concurrency", "1", "--hostname", f"event-day-{os.getpid()}@%h"],
        cwd=ROOT, env=env(), start_new_session=True, stdout=WORKER_LOG.open("wb"), stderr=subprocess.STDOUT,
    )


@dataclass
class Results:
    lock: threading.Lock = field(default_factory=threading.Lock)
    latency: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    retried: int = 0
    replay_mismatches: int = 0

    def add(self, kind: str, ms: float) -> None:
        with self.lock:
            self.latency.setdefault(kind, []).append(ms)

    def add_cpu(self, kind: str, ms: float | None) -> None:
        if ms is not None:
            with self.lock:
                self.cpu.setdefault(kind, []).append(ms)

    def error(self, text: str) -> None:
        with self.lock:
            if len(self.errors) < 20:
                self.errors.append(text)


@dataclass
class Judge:
    table: int
    client: Client
    seq: int = 1
    accepted: int = 0
    keys: list[str] = field(default_factory=list)


def post_once(judge: Judge, i: int, rng: random.Random, results: Results) -> None:
    """One event with its key; sometimes sent twice (the first answer lost on the way)."""
    key = str(uuid.uuid4())
    path = f"/api/tables/{judge.table}/game/events/"
    while True:
        body = {"event": event_for(i), "expected_seq": judge.seq}
        status, raw, cpu = judge.client.timed("POST", path, body, {"Idempotency-Key": key})
        answer = json.loads(raw or b"null")
        results.add_cpu("post", cpu)
        if status == 409:  # cannot happen with one writer per table; counted if it does
            results.error(f"table {judge.table}: stale write at {judge.seq}")
            judge.seq = answer["seq"]
            key = str(uuid.uuid4())
            continue
        if status != 201:
            results.error(f"table {judge.table}: HTTP {status}: {str(answer)[:200]}")
            return
        break
    if rng.random() < RETRY_SHARE:
        again_status, again_raw, again_cpu = judge.client.timed("POST", path, body, {"Idempotency-Key": key})
        again = json.loads(again_raw or b"null")
        results.add_cpu("post repeated (stored answer)", again_cpu)
        with results.lock:
            results.retried += 1
            if again_status != status or again != answer:
                results.replay_mismatches += 1
    judge.seq = answer["seq"]
    judge.accepted += 1
    judge.keys.append(key)


def judge_loop(judge: Judge, k: int, start: float, duration: float, burst_every: float, results: Results) -> None:
    rng = random.Random(k)
    due_times = [start + rng.uniform(0, POST_EVERY) + n * POST_EVERY for n in range(int(duration / POST_EVERY) + 1)]
    due_times += [start + b * burst_every + rng.uniform(0, BURST_WINDOW) for b in range(1, int(duration / burst_every) + 1)]
    due_times = sorted(d for d in due_times if d < start + duration)
    for i, due in enumerate(due_times):
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        post_once(judge, k * 1000 + i, rng, results)
        results.add("post", (time.monotonic() - due) * 1000)


#: The live region each page polls (its id is the htmx target the server answers a fragment for).
LIVE_TARGET = {"round page": "round-live", "standings page": "standings-live"}
ETAG_ATTRIBUTE = re.compile(r'data-etag="([^"]*)"')


def page_load(port: int, schedule: list[tuple[float, str, str, int]], results: Results, threads_count: int) -> None:
    """The phones' page requests, each sent when due by the first free client thread.

    A phone does what the page does in its browser: the first visit loads the whole page; after
    that the page's live region polls (htmx: `HX-Request`, `HX-Target`) with the ETag it shows in
    `If-None-Match`, and an unchanged region is answered 304 without rendering.
    """
    client = Client(port, "")
    client.headers = {"Accept": "text/html"}
    lock = threading.Lock()
    etags: dict[tuple[int, str], str] = {}

    def worker() -> None:
        while True:
            with lock:
                if not schedule:
                    return
                due, kind, path, phone = heapq.heappop(schedule)
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            etag = etags.get((phone, kind))
            headers = {} if etag is None else {
                "HX-Request": "true", "HX-Target": LIVE_TARGET[kind], "If-None-Match": etag,
            }
            status, body, cpu = client.timed("GET", path, headers=headers)
            answer = "first visit" if etag is None else "unchanged (304)" if status == 304 else "changed poll"
            results.add_cpu(f"{kind} {answer}", cpu)
            if status not in (200, 304) or (status == 304 and etag is None):
                results.error(f"{path}: HTTP {status}")
            elif status == 200:
                found = ETAG_ATTRIBUTE.search(body.decode("utf-8", "replace"))
                if found:
                    etags[(phone, kind)] = html.unescape(found.group(1))
            results.add(kind, (time.monotonic() - due) * 1000)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(threads_count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def phone_schedule(
    start: float, duration: float, round_pk: int, tournament_pk: int, phones: int
) -> list[tuple[float, str, str, int]]:
    rng = random.Random(7)
    schedule: list[tuple[float, str, str, int]] = []
    for phone in range(phones):
        for every, kind, path in ((ROUND_EVERY, "round page", f"/rounds/{round_pk}/"),
                                  (STANDINGS_EVERY, "standings page", f"/tournaments/{tournament_pk}/standings/")):
            t = start + rng.uniform(0, every)
            while t < start + duration:
                schedule.append((t, kind, path, phone))
                t += every
    heapq.heapify(schedule)
    return schedule


def verify(judges: list[Judge], client: Client) -> tuple[int, int, list[str]]:
    """(lost, duplicated, problems): every accepted post is in its table's log exactly once."""
    lost = duplicated = 0
    problems = []
    for judge in judges:
        status, log = client.call("GET", f"/api/tables/{judge.table}/game/events/")
        seqs = [e["seq"] for e in log["events"]]
        if seqs != list(range(1, len(seqs) + 1)):
            problems.append(f"table {judge.table}: sequence numbers are not 1..n")
        logged = len(seqs) - 1  # the setup event comes from the seating
        lost += max(0, judge.accepted - logged)
        duplicated += max(0, logged - judge.accepted)
        if len(set(judge.keys)) != len(judge.keys):
            problems.append(f"table {judge.table}: a key was reused")
    return lost, duplicated, problems


def check_games() -> list[str]:
    """What `manage.py check_games` finds once the load is over (nothing when every game's
    stored position and evaluation are what its log replays to)."""
    done = subprocess.run([sys.executable, "manage.py", "check_games"], cwd=ROOT, env=env(),
                          capture_output=True, text=True)
    lines = done.stdout.splitlines() + done.stderr.splitlines()
    if done.returncode != 0 and not lines:
        lines = [f"exited {done.returncode}"]
    return lines


def _stop_on_signal(signum: int, _frame: Any) -> None:
    raise SystemExit(f"stopped by signal {signum}")


def start_proxy(port: int, backends: list[int]) -> subprocess.Popen[bytes]:
    """The proxy in front of several instances (connections spread round-robin)."""
    PROXY_LOG.parent.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "tcp_proxy.py"), "--listen", str(port),
         *("--to", *map(str, backends))],
        cwd=ROOT, start_new_session=True, stdout=PROXY_LOG.open("wb"), stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.1)
    stop(process)
    raise SystemExit("the proxy did not listen within 10 s")


def start_profiler(server: subprocess.Popen[bytes], seconds: float, out: Path) -> subprocess.Popen[bytes]:
    """py-spy sampling gunicorn's master and workers for `seconds` (written to `out` at the end)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(server.pid), "--subprocesses",
         "--nonblocking", "--rate", "50", "--duration", str(int(seconds) + 1), "--format", "speedscope",
         "--output", str(out)],
        cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )


def print_cpu(results: Results) -> bool:
    """The web server's CPU per request kind (mean and p95 of Server-Timing); False if a mean
    misses its target."""
    ok = True
    print("  web server CPU per request (Server-Timing, this process's thread; the database's own CPU apart):")
    for kind in sorted(results.cpu):
        values = results.cpu[kind]
        mean = sum(values) / len(values)
        target = TARGET_CPU_MS.get(kind)
        missed = target is not None and mean > target
        ok = ok and not missed
        aim = f"  target mean <= {target:g} ms{'  MISSED' if missed else ''}" if target is not None else ""
        print(f"    {kind:34s} n={len(values):5d}  mean {mean:6.2f} ms  p95 {percentile(values, 95):6.2f} ms{aim}")
    if not results.cpu:
        print("    the server told no CPU time (SERVER_TIMING off?)")
        ok = False
    return ok


def main() -> int:
    signal.signal(signal.SIGTERM, _stop_on_signal)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=5,
                        help="times a large event: 60 phones, 8 judges and 48 players each (default 5)")
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of simulated day (default 180)")
    parser.add_argument("--burst-every", type=float, default=45.0, help="seconds between phase-change bursts")
    parser.add_argument("--instances", type=int, choices=(1, 2), default=1,
                        help="gunicorn instances; 2 puts them behind one proxy on the same database and Redis")
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_PORT", "8700")),
                        help="first loopback port (the proxy, then the instances); default 8700")
    parser.add_argument("--profile", type=Path, default=None,
                        help="sample the gunicorn processes with py-spy during the load; write a speedscope file here")
    parser.add_argument("--venue", action="store_true",
                        help="one laptop in venue mode (SQLite, file-system broker) at one large event's rates")
    args = parser.parse_args()
    if args.venue:
        venue_mode.activate(sys.modules[__name__])
        args.scale = 1  # one large event: 8 judges, 60 phones
        if args.port == 8700:
            args.port = venue_mode.free_port()
    if args.scale < 1:
        parser.error("--scale must be 1 or more")
    tables_count, phones = TABLES_PER_SCALE * args.scale, PHONES_PER_SCALE * args.scale

    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    if args.venue:
        venue_mode.prepare_database(env())
    else:
        recreate_database(DB_NAME, env())
    # Production settings serve hashed static files: collect them as a deployment does.
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env(),
                   check=True)
    ids = seed(tables_count)
    worker = start_worker()
    servers: list[subprocess.Popen[bytes]] = []
    ok = True
    try:
        if args.instances == 1:
            port = args.port
            servers.append(start_gunicorn(port, env(), SERVER_LOG))
        else:
            port, backends = args.port, [args.port + 1 + n for n in range(args.instances)]
            for n, backend in enumerate(backends):
                servers.append(start_gunicorn(backend, env(), SERVER_LOG.with_name(f"bench_event_day_server_{n + 1}.log")))
            servers.append(start_proxy(port, backends))
        judges = [Judge(table=t, client=Client(port, token)) for t, token in zip(ids["tables"], ids["tokens"], strict=True)]
        for judge in judges:  # each judge's phone reads its game before the first move
            judge.client.call("GET", f"/api/tables/{judge.table}/game/")
        results = Results()
        profiler = start_profiler(servers[0], args.duration + 1, args.profile) if args.profile else None
        start = time.monotonic() + 1.0
        schedule = phone_schedule(start, args.duration, ids["round"], ids["tournament"], phones)
        threads = [threading.Thread(target=judge_loop, args=(j, k, start, args.duration, args.burst_every, results),
                                    daemon=True) for k, j in enumerate(judges)]
        page_threads = max(1, round(PAGE_THREADS_PER_SCALE * args.scale))
        threads.append(threading.Thread(target=page_load, args=(port, schedule, results, page_threads), daemon=True))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if profiler is not None:
            profiler.wait(timeout=60)
            print(f"  profile of the web server: {args.profile} (py-spy, speedscope format)")

        behind = "one gunicorn" if args.instances == 1 else f"{args.instances} gunicorn instances behind one proxy"
        print(f"event day at scale {args.scale} ({args.scale}x a large event): {args.duration:.0f} s, {phones} phones "
              f"(round page every {ROUND_EVERY:.0f} s, standings every {STANDINGS_EVERY:.0f} s), {tables_count} judges "
              f"(one post every {POST_EVERY:.0f} s, all within {BURST_WINDOW:.0f} s every {args.burst_every:.0f} s), "
              f"{RETRY_SHARE:.0%} of posts retried with the same key; {tables_count * 6} players, {behind}, "
              f"{STACK_LABEL}, {os.cpu_count()} cores")
        for kind, target in TARGET_MS.items():
            values = results.latency.get(kind, [])
            if not values:
                print(f"  {kind}: no requests")
                ok = False
                continue
            p50, p95, p99 = (percentile(values, p) for p in (50, 95, 99))
            missed = p95 >= target
            ok = ok and not missed
            print(f"  {kind:15s} n={len(values):5d}  p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  p99 {p99:6.1f} ms"
                  f"  target p95 < {target:.0f} ms{'  MISSED' if missed else ''}")
        cpu_ok = print_cpu(results)
        ok = ok and (cpu_ok or args.venue)  # the CPU targets are the server's, not the laptop's
        lost, duplicated, problems = verify(judges, judges[0].client)
        accepted = sum(j.accepted for j in judges)
        print(f"  posts accepted {accepted}, retried with the same key {results.retried} "
              f"(answers differing from the first: {results.replay_mismatches}); lost {lost}, duplicates found {duplicated}")
        disagreeing = check_games()
        problems += [f"check_games: {line}" for line in disagreeing]
        print(f"  check_games (every game's log replayed against its stored position and evaluation): "
              f"{'all agree' if not disagreeing else f'{len(disagreeing)} differ'}")
        if lost or duplicated or problems or results.replay_mismatches or results.errors:
            ok = False
            for text in problems + results.errors:
                print("  PROBLEM:", text)
    finally:
        for server in reversed(servers):
            stop(server)
        stop(worker)
        print(f"load average after: {os.getloadavg()[0]:.2f} (1 min); other processes share these cores")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
