"""The event report of a 10,000-player, 3-heat tournament (pure part).

Builds the heats' filed reports (validated once, not timed), the seating of every table, a
clock record with a break for nine tables in ten, a final seated and filed; then times
`dune.event_report.figures.event_report` over them (target: under 1 s) and, beside it, drawing the
four charts. The database part is not timed here: loading is six queries whatever the size
(asserted by tests/insights/test_event_report_db.py), and the answer is cached.

    .venv/bin/python benchmarks/event_report.py [--players N] [--heats H] [--seed S]

Prints the input size and the figures; exits 1 when the target is missed. Wall times are
the best of five (the median beside it), the process CPU time is printed too.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from standings import heat_reports  # noqa: E402

from dune.clock_limits import Interval  # noqa: E402
from dune.event_report.charts import charts  # noqa: E402
from dune.event_report.figures import (  # noqa: E402
    ClockRecord,
    EventRecords,
    RoundRecord,
    SeatRecord,
    event_report,
    faction_wins_total,
)
from dune.formats import get_format  # noqa: E402
from dune.points import TableResult, validate_report  # noqa: E402

TARGET_SECONDS = 1.0
#: The game rules the simulated WBC tables play (the engine judges every report under them).
RULESET = get_format("wbc").ruleset
REPEAT = 5
START = datetime(2026, 7, 28, 9, 0, tzinfo=UTC)


def timed(fn: Any) -> tuple[Any, float, float, float]:
    """`fn()` REPEAT times: its answer, the best and median wall time, the best CPU time."""
    walls, cpus, answer = [], [], None
    for _ in range(REPEAT):
        t0, c0 = time.perf_counter(), time.process_time()
        answer = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    walls.sort()
    return answer, walls[0], walls[len(walls) // 2], min(cpus)


def build(players: int, heats: int, seed: int) -> EventRecords:
    rng = random.Random(seed)
    raw = heat_reports(players, heats, seed)
    results: list[TableResult] = []
    seats: list[SeatRecord] = []
    clocks: list[ClockRecord] = []
    numbers: dict[int, int] = {}
    for table, (heat, factions, report) in enumerate(raw, start=1):
        results.append(validate_report("wbc", report, factions, ruleset=RULESET, table=table, round_number=heat))
        numbers[heat] = numbers.get(heat, 0) + 1
        for seat, (player, faction) in enumerate(factions.items(), start=1):
            seats.append(SeatRecord(table, numbers[heat], heat, False, player, seat, faction))
        if rng.random() < 0.9:
            start = START + timedelta(days=heat)
            pause = Interval(
                start + timedelta(hours=2), start + timedelta(hours=2, minutes=rng.randint(5, 40))
            )
            end = start + timedelta(minutes=rng.randint(150, 330))
            clocks.append(ClockRecord(table, start, end, (pause,)))
    system = get_format("wbc").points
    finalists = system.finalists(system.standings(results), rng=random.Random(seed)).finalists
    final_table = len(raw) + 1
    factions = dict(
        zip(finalists, ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild"), strict=True)
    )
    rows = [{"player": p, "result": "solo_stronghold" if i == 0 else "loss"} for i, p in enumerate(finalists)]
    final = validate_report(
        "wbc",
        {"turns": 9, "ended_by": "victory", "results": rows},
        factions,
        ruleset=RULESET,
        table=final_table,
        round_number=heats + 1,
        is_final=True,
    )
    results.append(final)
    for seat, (player, faction) in enumerate(factions.items(), start=1):
        seats.append(SeatRecord(final_table, 1, heats + 1, True, player, seat, faction))
    clocks.append(
        ClockRecord(
            final_table, START + timedelta(days=heats + 1), START + timedelta(days=heats + 1, hours=7)
        )
    )
    rounds = tuple(RoundRecord(n, n == heats + 1, True) for n in range(1, heats + 2))
    return EventRecords(1, "wbc", rounds, tuple(results), tuple(seats), tuple(clocks))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--heats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2018)
    args = parser.parse_args()

    records = build(args.players, args.heats, args.seed)
    print(
        f"input: {args.players} players x {args.heats} heats + final = {len(records.reports)} filed reports,"
        f" {len(records.seats)} seats, {len(records.clocks)} clock records"
    )
    report, best, median, cpu = timed(lambda: event_report(records))
    ok = best < TARGET_SECONDS
    print(
        f"event report, best-faction awards computed too: best {best:.3f} s, median {median:.3f} s"
        f" of {REPEAT}, cpu {cpu:.3f} s (target < {TARGET_SECONDS:.1f} s) {'OK' if ok else 'MISSED'}"
    )
    # As the site runs it: the awards are scoring's cached answer (the awards page's too).
    cached = replace(records, awards=report.awards)
    _, site_best, _, site_cpu = timed(lambda: event_report(cached))
    print(f"event report, awards from scoring's cache: best {site_best:.3f} s, cpu {site_cpu:.3f} s")
    names = {
        f: f.replace("_", " ").title()
        for f in ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
    }
    _, chart_best, _, _ = timed(lambda: charts(report, faction_names=names))
    print(f"charts: best {chart_best:.3f} s for 4 SVG charts")
    print(
        f"figures: {report.players} players, {report.games} games, turns mean {float(report.turns.mean or 0):.2f},"
        f" hours mean {float(report.hours.mean or 0):.2f} ({report.untimed} without a clock record),"
        f" {report.adjudicated} adjudicated, {faction_wins_total(report)} faction wins, {len(report.awards)} awards,"
        f" provisional {report.provisional}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
