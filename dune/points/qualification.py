"""Finalists and alternates from ordered standings (LoLV 4.01.09-4.01.10; WBC Advancement to Finals)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from dune.points.base import Finalists, StandingRow
from dune.points.errors import TieAtCutError


def select_finalists(
    standings: Iterable[StandingRow],
    *,
    seats: int,
    rule: str,
    rng: random.Random | None = None,
) -> Finalists:
    """The first `seats` eligible players are finalists; every other eligible player is an
    alternate, in standings order. Disqualified players are neither.

    A true tie straddling the cut is settled by `rng` (a generator seeded from a value the
    round stores) shuffling the tied group; without one it is refused.

    Raises:
        ValueError: `seats` is not positive.
        TieAtCutError: players tied on everything straddle the cut and `rng` is None.
    """
    if seats < 1:
        raise ValueError(f"finalist seats must be positive, got {seats!r}")
    eligible = [row for row in standings if not row.disqualified]
    if len(eligible) <= seats:
        return Finalists(finalists=tuple(r.player for r in eligible), alternates=())
    last_in, first_out = eligible[seats - 1], eligible[seats]
    if last_in.rank != first_out.rank:
        return Finalists(
            finalists=tuple(r.player for r in eligible[:seats]),
            alternates=tuple(r.player for r in eligible[seats:]),
        )
    group = [r for r in eligible if r.rank == last_in.rank]
    start = eligible.index(group[0])
    if rng is None:
        raise TieAtCutError(tuple(r.player for r in group), seats=seats, rule=rule)
    drawn = list(group)
    rng.shuffle(drawn)
    ordered = eligible[:start] + drawn + eligible[start + len(group) :]
    return Finalists(
        finalists=tuple(r.player for r in ordered[:seats]),
        alternates=tuple(r.player for r in ordered[seats:]),
        drawn_by_lot=tuple(r.player for r in drawn),
    )
