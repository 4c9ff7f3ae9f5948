"""A small line chart of a rating over time, as SVG coordinates (pure; no Django).

The page draws the polyline in a viewBox that scales to the screen's width, with the data
table beside it as the text alternative.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320
HEIGHT = 120
PAD = 8


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # "x,y x,y ..." for <polyline points=...>
    zero_y: float | None  # where the 0 line runs, if inside the range
    low: float
    high: float
    #: Each value as a dot (x, y): a one-game history is one dot, not an empty box.
    dots: tuple[tuple[float, float], ...] = ()


def line_chart(values: Sequence[float], *, width: int = WIDTH, height: int = HEIGHT) -> Chart | None:
    """Coordinates of `values` left to right (None for no values)."""
    if not values:
        return None
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    span_x = max(len(values) - 1, 1)

    def y(v: float) -> float:
        return round(PAD + (high - v) / (high - low) * (height - 2 * PAD), 2)

    if len(values) == 1:
        xs = [width / 2]
    else:
        xs = [round(PAD + i / span_x * (width - 2 * PAD), 2) for i in range(len(values))]
    dots = tuple((x, y(v)) for x, v in zip(xs, values, strict=True))
    points = " ".join(f"{x},{dot_y}" for x, dot_y in dots)
    zero = y(0.0) if low <= 0 <= high else None
    return Chart(width=width, height=height, points=points, zero_y=zero, low=low, high=high, dots=dots)
