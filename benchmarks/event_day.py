"""An event day at five times a large event, compressed: gunicorn + PostgreSQL + a real Celery
worker on Redis, driven from this separate process.

    .venv/bin/python benchmarks/event_day.py [--duration 180] [--burst-every 45]

1. (Re)creates the PostgreSQL database `dune_bench_event_day` (DATABASE_URL's server),
   collects the static files as a deployment does, and seeds a
   WBC tournament of 240 players: heat 1 finished and filed (so the standings have something
   to rank), heat 2 published on 40 six-player tables, each with its own table judge (an API
   token each), and heat 2's clocks started (their deadlines armed on the Celery worker).
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
   in it (none lost), and no key was recorded twice (duplicates found).
5. Prints p50/p95/p99 per kind with the counts; exits 1 if a target is missed:
   p95 < 100 ms for posts, < 200 ms for pages, 0 lost, 0 duplicated.

The duration keeps the run bounded; the rates, not the length, are what the targets are about.

`--venue` runs one laptop in venue mode instead (benchmarks/venue_mode.py): SQLite in WAL
mode and the file-system broker, at one large event's rates (60 phones, 8 judges), targets
p95 < 150 ms for posts and < 300 ms for pages.
"""

from __future__ import annotations

import argparse
import heapq
import html
import os
import random
import re
import signal
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
    free_port,
    percentile,
    recreate_database,
    start_gunicorn,
    stop,
)
from benchmarks.table_api import env as server_env  # noqa: E402

DB_NAME = "dune_bench_event_day"
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2")
SERVER_LOG = ROOT / "var" / "bench_event_day_server.log"
WORKER_LOG = ROOT / "var" / "bench_event_day_worker.log"
TABLES = 40
PHONES = 300
ROUND_EVERY = 30.0
STANDINGS_EVERY = 60.0
POST_EVERY = 20.0
BURST_WINDOW = 2.0
RETRY_SHARE = 0.10
PAGE_THREADS = 24
TARGET_MS = {"post": 100.0, "round page": 200.0, "standings page": 200.0}
LOAD_LABEL = "5x a large event"
STACK_LABEL = "PostgreSQL, Celery worker on Redis"


def env() -> dict[str, str]:
    if venue_mode.ACTIVE:
        return venue_mode.env()
    return server_env(DB_NAME, REDIS_URL)


def seed() -> dict[str, Any]:
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
    players = Player.objects.bulk_create(Player(tournament=tournament, name=f"Player {i:03d}") for i in range(TABLES * 6))
    judges = [users.create_user(f"judge-{n:02d}", password="bench-judge-password-not-used") for n in range(TABLES)]
    tournament.table_judges.add(*judges)
    heats = [Round.objects.create(tournament=tournament, number=n, state=Round.State.PUBLISHED, seed=n) for n in (1, 2)]
    tables: dict[int, list[Any]] = {1: [], 2: []}
    for number, heat in zip((1, 2), heats, strict=True):
        order = list(players) if number == 1 else random.Random(2).sample(players, len(players))  # heat 2 mixes
        for n in range(TABLES):
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
    errors: list[str] = field(default_factory=list)
    retried: int = 0
    replay_mismatches: int = 0

    def add(self, kind: str, ms: float) -> None:
        with self.lock:
            self.latency.setdefault(kind, []).append(ms)

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
        status, answer = judge.client.call("POST", path, body, {"Idempotency-Key": key})
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
        again_status, again = judge.client.call("POST", path, body, {"Idempotency-Key": key})
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


def page_load(port: int, schedule: list[tuple[float, str, str, int]], results: Results) -> None:
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
            status, body = client.send("GET", path, headers=headers)
            if status not in (200, 304) or (status == 304 and etag is None):
                results.error(f"{path}: HTTP {status}")
            elif status == 200:
                found = ETAG_ATTRIBUTE.search(body.decode("utf-8", "replace"))
                if found:
                    etags[(phone, kind)] = html.unescape(found.group(1))
            results.add(kind, (time.monotonic() - due) * 1000)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(PAGE_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def phone_schedule(
    start: float, duration: float, round_pk: int, tournament_pk: int
) -> list[tuple[float, str, str, int]]:
    rng = random.Random(7)
    schedule: list[tuple[float, str, str, int]] = []
    for phone in range(PHONES):
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


def _stop_on_signal(signum: int, _frame: Any) -> None:
    raise SystemExit(f"stopped by signal {signum}")


def main() -> int:
    signal.signal(signal.SIGTERM, _stop_on_signal)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of simulated day (default 180)")
    parser.add_argument("--burst-every", type=float, default=45.0, help="seconds between phase-change bursts")
    parser.add_argument("--venue", action="store_true", help="one laptop in venue mode (SQLite, file-system broker)")
    args = parser.parse_args()
    if args.venue:
        venue_mode.activate(sys.modules[__name__])

    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    if args.venue:
        venue_mode.prepare_database(env())
    else:
        recreate_database(DB_NAME, env())
    # Production settings serve hashed static files: collect them as a deployment does.
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env(),
                   check=True)
    ids = seed()
    port = venue_mode.free_port() if args.venue else free_port()
    worker = start_worker()
    server = start_gunicorn(port, env(), SERVER_LOG)
    ok = True
    try:
        judges = [Judge(table=t, client=Client(port, token)) for t, token in zip(ids["tables"], ids["tokens"], strict=True)]
        for judge in judges:  # the game is created from the seating on first read
            judge.client.call("GET", f"/api/tables/{judge.table}/game/")
        results = Results()
        start = time.monotonic() + 1.0
        schedule = phone_schedule(start, args.duration, ids["round"], ids["tournament"])
        threads = [threading.Thread(target=judge_loop, args=(j, k, start, args.duration, args.burst_every, results),
                                    daemon=True) for k, j in enumerate(judges)]
        threads.append(threading.Thread(target=page_load, args=(port, schedule, results), daemon=True))
        for t in threads:
            t.start()
        for t in threads:
            t.join()

        print(f"event day: {args.duration:.0f} s at {LOAD_LABEL}: {PHONES} phones (round page every "
              f"{ROUND_EVERY:.0f} s, standings every {STANDINGS_EVERY:.0f} s), {TABLES} judges (one post every "
              f"{POST_EVERY:.0f} s, all within {BURST_WINDOW:.0f} s every {args.burst_every:.0f} s), "
              f"{RETRY_SHARE:.0%} of posts retried with the same key; {TABLES * 6} players, gunicorn, "
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
        lost, duplicated, problems = verify(judges, judges[0].client)
        accepted = sum(j.accepted for j in judges)
        print(f"  posts accepted {accepted}, retried with the same key {results.retried} "
              f"(answers differing from the first: {results.replay_mismatches}); lost {lost}, duplicates found {duplicated}")
        if lost or duplicated or problems or results.replay_mismatches or results.errors:
            ok = False
            for text in problems + results.errors:
                print("  PROBLEM:", text)
    finally:
        stop(server)
        stop(worker)
        print(f"load average after: {os.getloadavg()[0]:.2f} (1 min); other processes share these cores")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
