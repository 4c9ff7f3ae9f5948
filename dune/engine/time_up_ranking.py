"""Adjudication when time runs out (WBC heat duration and adjudication; LoLV 4.01.10).

Sides (an alliance sums its members, WBC) are ranked by the ruleset's criteria in order;
the last criterion is a recorded die roll. Unknown values count as 0 (as the WBC text says
for missing tie-break data) and are listed so the judge sees what the ranking rests on.
"""

from __future__ import annotations

from dataclasses import dataclass

from dune.engine.position import Position
from dune.engine.stats import Stats

#: Stat key per criterion (weighted tokens are kept in halves to stay integral).
_KEYS = {"tokens": "tokens2"}


@dataclass(frozen=True, slots=True)
class Ranking:
    sides: tuple[tuple[str, ...], ...]
    unknown: tuple[str, ...]  # criteria some side did not know
    tied: bool  # two sides equal on every criterion, die included
    top_tied: bool  # the first two sides are equal on every criterion


def adjudicate(
    position: Position,
    stats: dict[str, Stats],
    order: list[str],
    *,
    sides: list[tuple[str, ...]] | None = None,
) -> Ranking | None:
    criteria = position.ruleset.adjudication
    if criteria is None:
        return None
    rank = {f: i for i, f in enumerate(order)}
    unknown: set[str] = set()
    keyed = []
    states = position.states
    for side in position.sides() if sides is None else sides:
        key: list[int] = []
        for c in criteria:
            k = _KEYS.get(c, c)
            total = 0
            for f in side:
                v = states[f].die if c == "die" else stats[f][k]
                if v is None:
                    unknown.add(c)
                else:
                    total += v
            key.append(-total)
        keyed.append((tuple(key), min(rank.get(f, 99) for f in side), side))
    keyed.sort()
    tied = any(keyed[i][0] == keyed[i + 1][0] for i in range(len(keyed) - 1))
    return Ranking(
        sides=tuple(side for _k, _r, side in keyed),
        unknown=tuple(c for c in criteria if c in unknown),
        tied=tied,
        top_tied=len(keyed) > 1 and keyed[0][0] == keyed[1][0],
    )
