"""Venue mode of the event-day benchmark (`benchmarks/event_day.py --venue`): one laptop on
the embedded default, at the rates of one large event.

What changes from the default run:

- the stack is what `make venue` runs: SQLite in WAL mode (a fresh file under
  var/bench_venue/), the file cache and the file-system Celery broker, no PostgreSQL and no
  Redis; gunicorn and one Celery worker as before;
- the load is one large event, not five: 60 phones polling, 8 table judges posting (bursts at
  phase changes and retried keys as before);
- the targets are one laptop's: posts p95 < 150 ms, pages p95 < 300 ms, 0 lost, 0 duplicated.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from types import ModuleType

from benchmarks.table_api import ROOT
from benchmarks.table_api import env as server_env

#: Set by `activate`: the event-day run's environment is the venue's.
ACTIVE = False
VAR = ROOT / "var" / "bench_venue"
DATABASE = VAR / "event_day.sqlite3"
TABLES = 8
PHONES = 60
TARGET_MS = {"post": 150.0, "round page": 300.0, "standings page": 300.0}
LOAD_LABEL = "one large event"
STACK_LABEL = "SQLite in WAL mode, file cache, Celery worker on the file-system broker (venue mode)"


def env() -> dict[str, str]:
    """The server's, worker's and seeder's environment: production settings on the embedded default."""
    out = server_env("unused")
    out.update(DATABASE_URL=f"sqlite:///{DATABASE}", VAR_DIR=str(VAR))
    for name in ("REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        out.pop(name, None)
    return out


def activate(run: ModuleType) -> None:
    """Switch the event-day run (its module) to venue mode: rates, targets and labels."""
    global ACTIVE
    ACTIVE = True
    run.TABLES, run.PHONES, run.TARGET_MS = TABLES, PHONES, TARGET_MS
    run.LOAD_LABEL, run.STACK_LABEL = LOAD_LABEL, STACK_LABEL


def free_port() -> int:
    """A free port among those venue mode serves on (8600-8699, as `make venue`'s PORT may be)."""
    for port in range(8600, 8700):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise SystemExit("no free port in 8600-8699")


def prepare_database(environment: dict[str, str]) -> None:
    """A fresh SQLite file (and fresh broker, cache and backups), migrated."""
    shutil.rmtree(VAR, ignore_errors=True)
    VAR.mkdir(parents=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=environment,
                   check=True)
