"""Board drawing benchmark: the size and drawing time of the largest board in the golden games.

Replays every golden game (tests/engine/replays/*.jsonl), draws the position after every
record, and takes the largest drawing (in bytes; the six-faction WBC game's mid-game board
with the most force stacks). For it, prints the document's size and the time to draw it
(`dune.board_svg.board_svg`), alone and with the engine's `evaluate()` it reads control from.
Targets: at most 30 KB, under 20 ms to draw. Exits 1 when a target is missed.

The time is this process's CPU time, best of several rounds (other work on a shared machine
does not count against it); wall-clock figures are printed beside it.

Run: `.venv/bin/python benchmarks/board.py`
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dune.board_svg import board_svg, stack_rows  # noqa: E402
from dune.engine.evaluation import evaluate  # noqa: E402
from dune.engine.events import event_from_dict  # noqa: E402
from dune.engine.game_log import apply, replay  # noqa: E402

REPLAYS = ROOT / "tests" / "engine" / "replays"
SIZE_TARGET = 30 * 1024  # bytes
DRAW_TARGET_MS = 20.0
ROUNDS = 50


def best_of(runs: int, fn: Callable[[], object]) -> tuple[float, float]:
    """(best CPU seconds, best wall seconds) over `runs` calls."""
    cpu = wall = float("inf")
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu = min(cpu, time.process_time() - c0)
        wall = min(wall, time.perf_counter() - w0)
    return cpu, wall


def main() -> int:
    largest = (0, None, "", 0)
    for path in sorted(REPLAYS.glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        events = [event_from_dict(r) for r in rows if "type" in r]
        position = replay(events[:1])
        for seq, event in enumerate(events, start=1):
            if seq > 1:
                position = apply(position, event)
            size = len(board_svg(position, seq=seq).encode())
            if size > largest[0]:
                largest = (size, position, path.name, seq)
    size, position, name, seq = largest
    assert position is not None
    answer = evaluate(position)
    draw_cpu, draw_wall = best_of(ROUNDS, lambda: board_svg(position, answer=answer, seq=seq))
    full_cpu, full_wall = best_of(ROUNDS, lambda: board_svg(position, seq=seq))
    factions = len(position.factions)
    print(f"largest board: {name}, after record #{seq} (turn {position.turn}, {factions} factions, "
          f"{len(stack_rows(position))} force stacks)")
    print(f"size: {size} bytes ({size / 1024:.1f} KB; target <= {SIZE_TARGET // 1024} KB)")
    print(f"draw: {draw_cpu * 1000:.2f} ms CPU ({draw_wall * 1000:.2f} ms wall; target < {DRAW_TARGET_MS:.0f} ms)")
    print(f"draw with evaluate(): {full_cpu * 1000:.2f} ms CPU ({full_wall * 1000:.2f} ms wall)")
    ok = size <= SIZE_TARGET and full_cpu * 1000 < DRAW_TARGET_MS
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
