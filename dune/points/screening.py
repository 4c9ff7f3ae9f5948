"""Filed reports that cannot count together, found before the standings are built.

A player may sit at one table per round (LoLV 4.01.01; WBC seats each player once a heat).
If two filed reports of one round both name a player (a seating changed under a filed
report, or a hand edit), neither report can be trusted over the other: both tables are left
out of the standings, and the conflict is returned so a head judge can reopen the wrong one.
Everything else keeps counting.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass

from dune.points.base import PlayerId, StandingRow, TableResult
from dune.points.errors import StandingsError
from dune.points.system import PointsSystem


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


@dataclass(frozen=True)
class ScreenedStandings:
    """The standings over the reports that can count together, the conflicts that kept the
    others out, how many reports counted, and why no standings could be formed (None when
    they could: `standings` is then complete)."""

    standings: tuple[StandingRow, ...]
    conflicts: tuple[SeatingConflict, ...]
    counted: int
    error: StandingsError | None = None


def screened_standings(
    system: PointsSystem, results: Sequence[TableResult], *, players: Collection[PlayerId] | None = None
) -> ScreenedStandings:
    """The standings as every page shows them: the heats screened (`screen_results`), then
    ordered by the format's system. Scoring's cached standings and the event report both
    come from here.

    `players` limits the rows to those players (each row's points and tiebreak depend on that
    player's own games only; ranks are then among them): the event report asks for its
    finalists so without ordering a whole field. A `StandingsError` is returned, not raised,
    so that one bad table never takes every page down.
    """
    kept, conflicts = screen_results(results)
    if players is not None:
        wanted = set(players)
        kept = [r for r in kept if any(row.player in wanted for row in r.rows)]
    try:
        rows = system.standings(kept)
    except StandingsError as exc:
        return ScreenedStandings((), tuple(conflicts), len(kept), exc)
    if players is not None:
        rows = tuple(row for row in rows if row.player in wanted)
    return ScreenedStandings(rows, tuple(conflicts), len(kept))
