"""Timings compared within one run, never against a fixed figure: a loaded machine slows the
work and its baseline alike, so only a difference in kind (computing a billion-digit number
instead of refusing it) makes the comparison fail."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def _seconds(work: Callable[[], Any]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def assert_no_slower_than(
    work: Callable[[], Any], baseline: Callable[[], Any], factor: float = 20, times: int = 3
) -> None:
    """`work` takes at most `factor` times what `baseline` takes, both measured now, in turns
    (so a pause of the machine falls on both), the shortest of `times` runs of each."""
    slow = usual = float("inf")
    for _ in range(times):
        slow = min(slow, _seconds(work))
        usual = min(usual, _seconds(baseline))
    assert slow <= factor * usual, f"{slow * 1000:.1f} ms against {usual * 1000:.1f} ms for the baseline"
