"""How far a spare laptop trails the serving one: `bin/venue follow` under an event day's posts.

    .venv/bin/python benchmarks/venue_follow.py [--duration 60] [--every 0.5] [--interval 2]

Two installations in venue mode on this machine, as real processes (SQLite, file broker, ports
chosen by the system): laptop A loads the demo event (`bin/venue load_demo`: heat 2 running on
6 tables) and serves it (`bin/venue`: gunicorn, worker, beat); laptop B follows it
(`bin/venue follow URL --interval I`, signed in as the head judge). For `--duration` seconds
one table judge per running table posts a record every `--every` seconds to A's API (6 tables
at 0.5 s: 12 records a second, several times the rate of a large event's 8 judges), each with
its idempotency key. A watcher reads B's database every 0.1 s; for each record A acknowledged it
notes the seconds until B holds it.

Prints the records, and how many seconds B trails A: median, p95 and the worst. Target: p95
within `--interval` + 3 s (a pull every 2 s: p95 < 5 s), every acknowledged record on B.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.venue.laptops import Judges, LagWatch, Laptop, Session, demo_password, running_tables  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=0.5, help="seconds between two records of one table")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between two pulls of the spare")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="venue-follow-") as folder:
        a, b = Laptop(Path(folder) / "a"), Laptop(Path(folder) / "b")
        try:
            password = demo_password(a.run("load_demo"))
            a.start()
            a.wait_serving()
            b.start("follow", a.url, "--user", "headjudge", "--interval", f"{args.interval:g}", log_name="follow.log",
                    env={"DUNE_FOLLOW_PASSWORD": password})
            b.wait_for_log(r"1 tournament\(s\) followed", log_name="follow.log")
            session = Session(a.url)
            session.sign_in("headjudge", password)
            judges = Judges(session, running_tables(a), every=args.every)
            watch = LagWatch(judges, b)
            watch.start()
            began = time.monotonic()
            judges.start()
            time.sleep(args.duration)
            judges.stop()
            elapsed = time.monotonic() - began
            missing = watch.finish(timeout=60)
        finally:
            a.stop()
            b.stop()
    records = sum(len(acks) for acks in judges.acknowledged.values())
    lags = sorted(watch.lags)
    print(f"load: {len(judges.tables)} tables, a record every {args.every:g} s each, for {elapsed:.0f} s: "
          f"{records} records acknowledged by A ({records / elapsed:.1f}/s); B pulls every {args.interval:g} s")
    if judges.errors:
        print(f"errors: {len(judges.errors)}, first: {judges.errors[0]}")
    if not lags:
        print("TARGET MISSED: B held none of A's records")
        return 1
    p95 = lags[min(len(lags) - 1, int(0.95 * len(lags)))]
    target = args.interval + 3
    print(f"B trails A by {statistics.median(lags):.1f} s (median), {p95:.1f} s (p95), {lags[-1]:.1f} s at most; "
          f"target p95 < {target:g} s; records B never got: {missing}")
    ok = p95 < target and missing == 0 and not judges.errors
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
