"""WBC best-faction awards from performance points (WBC "Best Faction Awards").

A game's PP total is divided by the turns played; a 5-player game's is further multiplied by
5/6 so it compares with 6-player games (9.5 PP over 7 turns at five players: 1.131). The best
such score per faction over the preliminary heats wins; dropouts are not considered (WBC
"Dropouts").
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from dune.engine.ids import ResultKind
from dune.points.base import PlayerId, ReportRow, TableResult, player_sort_key
from dune.points.errors import StandingsError

RULE = "WBC Best Faction Awards"
#: The table size PP scores are normalised to.
FULL_TABLE = 6


def normalised_pp(pp: Fraction, *, turns: int, players: int) -> Fraction:
    """PP per turn, scaled by players/6 for tables short of six (5/6 at a 5-player table).

    Raises:
        ValueError: `turns` or `players` is not positive.
    """
    if turns < 1 or players < 1:
        raise ValueError(f"turns and players must be positive, got turns={turns!r}, players={players!r}")
    pp = Fraction(pp)
    if players < FULL_TABLE:
        # The text gives 5/6 for five players; smaller tables (at the GM's discretion) scale alike.
        return Fraction(pp.numerator * players, pp.denominator * turns * FULL_TABLE)
    return Fraction(pp.numerator, pp.denominator * turns)


@dataclass(frozen=True, slots=True)
class Award:
    """One faction's normalised PP game; `tied` when another player scored exactly the same."""

    faction: str
    player: PlayerId
    score: Fraction
    pp: Fraction
    turns: int
    players: int
    round_number: int
    table: Hashable | None
    tied: bool


def faction_scores(results: Iterable[TableResult], *, limit: int | None = None) -> dict[str, list[Award]]:
    """Eligible heat games' normalised PP, grouped by faction, best first (ties by player id,
    then round). Players who dropped out of any game are left out. With `limit`, each faction
    keeps its best `limit` games plus any more that tie the best score (enough for the awards
    and a leaderboard of that size).

    Long because the eligibility rules (heats only, dropouts left out) and the cut to `limit`
    with its ties are one computation over the same rows.

    Raises:
        StandingsError: a finals table among the results; a row without a faction.
    """
    heats = list(results)
    dropped: set[PlayerId] = set()
    for heat in heats:
        if heat.is_final:
            raise StandingsError(
                f"table {heat.table!r} is a final; awards count preliminary heats only", rule=RULE
            )
        dropped.update(r.player for r in heat.rows if r.result is ResultKind.DROPOUT)
    games: dict[str, list[tuple[Fraction, ReportRow, TableResult]]] = {}
    for heat in heats:
        players = heat.players_at_start
        for row in heat.rows:
            if row.player in dropped:
                continue
            if row.faction is None:
                raise StandingsError(
                    f"player {row.player!r} at table {heat.table!r} has no faction", rule=RULE
                )
            score = normalised_pp(row.pp, turns=heat.turns, players=players)
            games.setdefault(row.faction, []).append((score, row, heat))
    board: dict[str, list[Award]] = {}
    for faction in sorted(games):
        entries = games[faction]
        # Exact integer keys over one common denominator: the Fractions' order, compared fast.
        scale = math.lcm(*{score.denominator for score, _, _ in entries})
        entries.sort(
            key=lambda e: (
                -e[0].numerator * (scale // e[0].denominator),
                player_sort_key(e[1].player),
                e[2].round_number,
            )
        )
        if limit is not None:
            best = entries[0][0]
            keep = limit
            while keep < len(entries) and entries[keep][0] == best:
                keep += 1
            entries = entries[:keep]
        board[faction] = [
            Award(
                faction,
                row.player,
                score,
                row.pp,
                heat.turns,
                heat.players_at_start,
                heat.round_number,
                heat.table,
                False,
            )
            for score, row, heat in entries
        ]
    return board


def best_faction_awards(results: Iterable[TableResult]) -> tuple[Award, ...]:
    """The best normalised PP game of each faction over the preliminary heats, factions in id
    order; several rows for one faction only on a true tie between players.

    Raises:
        StandingsError: a finals table among the results; a row without a faction.
    """
    return awards_from(faction_scores(results))


def awards_from(scores: dict[str, list[Award]]) -> tuple[Award, ...]:
    """The awards from `faction_scores` output (see `best_faction_awards`)."""
    out: list[Award] = []
    for entries in scores.values():
        best = entries[0].score
        winners: list[Award] = []
        for a in entries:
            if a.score != best:
                break
            if all(w.player != a.player for w in winners):
                winners.append(a)
        out.extend(replace(a, tied=len(winners) > 1) for a in winners)
    return tuple(out)


def faction_leaderboard(results: Iterable[TableResult], *, limit: int = 5) -> dict[str, tuple[Award, ...]]:
    """Per faction, its best `limit` normalised PP games over the heats, best first.

    Raises:
        StandingsError: as `best_faction_awards`.
        ValueError: `limit` is not positive.
    """
    if limit < 1:
        raise ValueError(f"limit must be positive, got {limit!r}")
    return leaderboard_from(faction_scores(results, limit=limit + 1), limit=limit)


def leaderboard_from(scores: dict[str, list[Award]], *, limit: int = 5) -> dict[str, tuple[Award, ...]]:
    """The leaderboard from `faction_scores` output (see `faction_leaderboard`).

    Raises:
        ValueError: `limit` is not positive.
    """
    if limit < 1:
        raise ValueError(f"limit must be positive, got {limit!r}")
    out: dict[str, tuple[Award, ...]] = {}
    for faction, entries in scores.items():
        top = entries[:limit]
        out[faction] = tuple(
            replace(a, tied=any(b.score == a.score and b.player != a.player for b in entries[: limit + 1]))
            for a in top
        )
    return out
