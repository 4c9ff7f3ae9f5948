"""Clock benchmark: 200 table deadlines spread over one minute, on a real worker.

Sets up the database `dune_bench_clocks` (created and migrated here), 200 LoLV table clocks
whose "last 30 minutes" deadline falls at one of 200 moments spread evenly over one minute
(a stage that writes nothing to the game log, so only the clock machinery is timed), starts
a Celery worker process on Redis, and plays beat: `clocks.sweep` every 15 s, which arms the
`clocks.fire_deadline` ETA tasks. Then it reads each clock's history and prints how late
each deadline was moved (the history row's database time minus the deadline).

Targets: p99 lateness under 2 s; every clock moved exactly once (none twice, none missed).
Exits 1 when a target is missed. Loopback services only; bounded to about two minutes.

Run: `.venv/bin/python benchmarks/clocks.py` (REDIS_URL defaults to redis://127.0.0.1:6379/5,
DATABASE_URL to postgres://postgres@127.0.0.1:5432/dune_bench_clocks).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DB_NAME = "dune_bench_clocks"
TABLES = 200
SPREAD = timedelta(seconds=60)
LEAD = timedelta(seconds=20)  # time to start the worker before the first deadline
SWEEP_EVERY = 15.0  # seconds, as config/settings.py's beat entry
P99_TARGET = 2.0  # seconds behind the deadline
WORKER_CONCURRENCY = 4

os.environ.setdefault("DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{DB_NAME}")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/5")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")


def ensure_database() -> None:
    import dj_database_url
    import psycopg

    cfg = dj_database_url.parse(os.environ["DATABASE_URL"])
    conninfo = f"host={cfg['HOST']} port={cfg['PORT'] or 5432} user={cfg['USER']} dbname=postgres"
    if cfg.get("PASSWORD"):
        conninfo += f" password={cfg['PASSWORD']}"
    with psycopg.connect(conninfo, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [cfg["NAME"]]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{cfg["NAME"]}"')


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[index]


def main() -> int:  # noqa: PLR0915 - one linear script
    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from clocks import services
    from clocks.models import ClockHistory, TableClock
    from clocks.tasks import sweep
    from config.celery import app
    from dune import clock_limits as limits
    from dune.formats import get_format
    from tournament.models import Round, Table, Tournament

    app.control.purge()  # nothing left over from an earlier run
    Tournament.objects.filter(name="Clock benchmark").delete()
    tournament = Tournament.objects.create(name="Clock benchmark", format="lolv")
    round_ = Round.objects.create(tournament=tournament, number=1, state="published")
    tables = Table.objects.bulk_create(Table(round=round_, number=n) for n in range(1, TABLES + 1))

    limit = get_format("lolv").clock("heat")
    warn_at = limit.stages(players=6)[0].at  # "last 30 minutes" after 5 h 30 of play
    first = services.db_now() + LEAD
    clocks = []
    for i, table in enumerate(tables):
        deadline = first + SPREAD * i / TABLES
        started = deadline - warn_at
        dl = limits.deadlines(limit, players=6, started_at=started)
        clocks.append(
            TableClock(
                table=table,
                limit_key="lolv",
                players=6,
                state=limits.RUNNING,
                started_at=started,
                last_30_at=dl.last_30,
                last_turn_at=dl.last_turn,
                time_up_at=dl.time_up,
            )
        )
    clocks = TableClock.objects.bulk_create(clocks)
    deadlines = {c.pk: c.last_30_at for c in clocks}
    last = max(deadlines.values())

    env = dict(os.environ)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-c",
            str(WORKER_CONCURRENCY),
            "-l",
            "warning",
            "--without-mingle",
            "--without-gossip",
            "-n",
            "clocks-bench@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    sweeps = 0
    try:
        give_up = last + timedelta(seconds=2 * SWEEP_EVERY)
        next_sweep = 0.0
        while True:
            now = services.db_now()
            moved = TableClock.objects.filter(pk__in=deadlines, state=limits.LAST_30).count()
            if moved == TABLES or now > give_up:
                break
            if time.monotonic() >= next_sweep:
                sweep.apply_async()  # what the single beat process sends every 15 s
                sweeps += 1
                next_sweep = time.monotonic() + SWEEP_EVERY
            time.sleep(0.25)
        time.sleep(1.0)  # let a straggling duplicate show itself
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=10)

    rows = ClockHistory.objects.filter(clock_id__in=deadlines, kind="stage", to_state=limits.LAST_30)
    fired: dict[int, list[float]] = {}
    for clock_id, at in rows.values_list("clock_id", "at"):
        fired.setdefault(clock_id, []).append((at - deadlines[clock_id]).total_seconds())
    twice = sorted(pk for pk, times in fired.items() if len(times) > 1)
    missed = sorted(pk for pk in deadlines if pk not in fired)
    lateness = sorted(times[0] for times in fired.values())

    print(f"clock benchmark: {TABLES} tables, deadlines spread over {SPREAD.total_seconds():.0f} s,")
    print(
        f"  worker: prefork x{WORKER_CONCURRENCY} on {os.environ['REDIS_URL']}; database {DB_NAME}; sweeps sent: {sweeps}"
    )
    if lateness:
        print(
            "  lateness behind the deadline (s): "
            f"min {lateness[0]:.3f}  p50 {percentile(lateness, 50):.3f}  p90 {percentile(lateness, 90):.3f}  "
            f"p99 {percentile(lateness, 99):.3f}  max {lateness[-1]:.3f}   (target p99 < {P99_TARGET} s)"
        )
        print("  each firing (table: lateness s):")
        by_table = sorted(fired.items(), key=lambda kv: deadlines[kv[0]])
        line = []
        for n, (_pk, times) in enumerate(by_table, start=1):
            line.append(f"{n:3d}:{times[0]:6.3f}")
            if len(line) == 8:
                print("   " + "  ".join(line))
                line = []
        if line:
            print("   " + "  ".join(line))
    print(f"  fired: {len(fired)}/{TABLES}; fired twice: {len(twice)}; never fired: {len(missed)}")
    ok = bool(lateness) and percentile(lateness, 99) < P99_TARGET and not twice and not missed
    if worker.returncode not in (0, -signal.SIGTERM):
        print(
            f"  worker exited with {worker.returncode}: {worker.stderr.read().decode()[-2000:] if worker.stderr else ''}"
        )
    Tournament.objects.filter(name="Clock benchmark").delete()
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
