"""Filed reports that cannot count together, found before the standings are built.

A player may sit at one table per round (LoLV 4.01.01; WBC seats each player once a heat).
If two filed reports of one round both name a player (a seating changed under a filed
report, or a hand edit), neither report can be trusted over the other: both tables are left
out of the standings, and the conflict is returned so a head judge can reopen the wrong one.
Everything else keeps counting.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from dune.points.base import PlayerId, TableResult


@dataclass(frozen=True)
class SeatingConflict:
    """`player` appears in the filed reports of `tables` in round `round_number`."""

    player: PlayerId
    round_number: int
    tables: tuple[Hashable, ...]


def screen_results(results: Sequence[TableResult]) -> tuple[list[TableResult], list[SeatingConflict]]:
    """The results that can count together, and the conflicts that kept the others out."""
    tables_of: dict[tuple[int, PlayerId], list[Hashable]] = {}
    for result in results:
        for row in result.rows:
            tables_of.setdefault((result.round_number, row.player), []).append(result.table)
    conflicts = [
        SeatingConflict(player=player, round_number=round_number, tables=tuple(tables))
        for (round_number, player), tables in tables_of.items()
        if len(tables) > 1
    ]
    excluded = {(c.round_number, t) for c in conflicts for t in c.tables}
    kept = [r for r in results if (r.round_number, r.table) not in excluded]
    return kept, conflicts
