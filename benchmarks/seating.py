"""Benchmark: seat 10,000 players with repeat avoidance against 2 earlier rounds.

Run: .venv/bin/python benchmarks/seating.py [players] [seed]
Prints the planner's time (target: under 2 s) and the repeated pairings of its seating next to
a plain shuffle of the same players against the same history. Exits 1 if the target is missed.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dune.seating import (  # noqa: E402
    PastSeat,
    PastTable,
    SeatingRequest,
    count_repeats,
    plan_seating,
    table_sizes,
)

TARGET_SECONDS = 2.0


def shuffled_tables(players: list[int], seed: int) -> list[list[int]]:
    """A plain shuffle cut into the optimal table sizes: the baseline without avoidance."""
    order = list(players)
    random.Random(seed).shuffle(order)
    sizes, _ = table_sizes(len(order))
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def history_of(round_number: int, tables: list[list[int]], factions: dict[int, str]) -> tuple[PastTable, ...]:
    return tuple(
        PastTable(round=round_number, seats=tuple(PastSeat(p, factions.get(p)) for p in t)) for t in tables
    )


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2018
    players = list(range(1, count + 1))
    history: tuple[PastTable, ...] = ()
    for heat in (1, 2):
        earlier = plan_seating(
            SeatingRequest(players=tuple(players), format="wbc", seed=seed + heat, history=history)
        )
        factions = {s.player: s.faction for t in earlier.tables for s in t.seats if s.faction}
        history += history_of(heat, [list(t.players) for t in earlier.tables], factions)

    request = SeatingRequest(players=tuple(players), format="wbc", seed=seed + 3, history=history)
    started = time.perf_counter()
    plan = plan_seating(request)
    elapsed = time.perf_counter() - started

    baseline = count_repeats(shuffled_tables(players, seed + 3), history)
    faction_repeats = sum(1 for i in plan.issues if i.code == "faction_repeat_unavoidable")
    print(f"players: {count}, tables: {len(plan.tables)}, earlier rounds: 2, seed: {seed + 3}")
    print(f"planner time: {elapsed:.3f} s (target: under {TARGET_SECONDS:.1f} s)")
    print(
        f"repeated pairings: planner {plan.repeats} (first random draw {plan.repeats_in_draw}), "
        f"plain shuffle {baseline}"
    )
    print(f"faction repeats left: {faction_repeats}")
    if elapsed >= TARGET_SECONDS:
        print("FAILED: target missed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
