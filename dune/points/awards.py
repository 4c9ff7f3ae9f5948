"""Best-faction awards: the best preliminary heat game of each faction, by a measure the
format's document chooses by key (`awards.measure`, one of `MEASURES`).

- `performance_points` (WBC "Best Faction Awards"): a game's PP total is divided by the turns
  played; a 5-player game's is further multiplied by 5/6 so it compares with 6-player games
  (9.5 PP over 7 turns at five players: 1.131).
- `strongholds_per_turn`: the strongholds the faction holds at the end of the game (the report's
  figure, WBC adjudication criteria) divided by the turns played (3 strongholds in 6 turns:
  0.5), for events whose games are not tracked turn by turn.

The best such score per faction over the preliminary heats wins; dropouts are not considered
(WBC "Dropouts").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType

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


def strongholds_per_turn(strongholds: int, *, turns: int) -> Fraction:
    """Strongholds held at the end of the game per turn played (3 in 6 turns: 1/2).

    Raises:
        ValueError: `turns` is not positive or `strongholds` is negative.
    """
    if turns < 1 or strongholds < 0:
        raise ValueError(f"turns must be positive and strongholds not negative, got turns={turns!r}, strongholds={strongholds!r}")
    return Fraction(strongholds, turns)


@dataclass(frozen=True, slots=True)
class AwardMeasure:
    """How a best-faction award measures one heat game (chosen by key in a format document)."""

    key: str
    #: The measure in a few words (the document's choice list, `docs/formats.md`).
    summary: str
    #: How a game's score is computed, as the awards page and the event report say it.
    how: str
    #: What the game's figure behind the score is called ("PP", "strongholds").
    unit: str
    #: The game's score from its report row and table.
    score: Callable[[ReportRow, TableResult], Fraction]
    #: The game's figure behind the score from its PP total and strongholds held at the end.
    figure: Callable[[Fraction, int], Fraction]


#: The award measures a format document may choose, by key.
MEASURES: Mapping[str, AwardMeasure] = MappingProxyType(
    {
        "performance_points": AwardMeasure(
            "performance_points",
            "performance points per turn (5-player tables scaled by 5/6)",
            "each heat game's performance points ÷ turns played, × 5/6 at a 5-player table",
            "PP",
            lambda row, heat: normalised_pp(row.pp, turns=heat.turns, players=heat.players_at_start),
            lambda pp, _strongholds: pp,
        ),
        "strongholds_per_turn": AwardMeasure(
            "strongholds_per_turn",
            "strongholds held at the end of the game per turn played",
            "each heat game's strongholds held at the end ÷ turns played",
            "strongholds",
            lambda row, heat: strongholds_per_turn(row.strongholds, turns=heat.turns),
            lambda _pp, strongholds: Fraction(strongholds),
        ),
    }
)
#: The measure of a format that names none (the WBC's).
DEFAULT_MEASURE = "performance_points"


def award_measure(key: str) -> AwardMeasure:
    """The award measure registered under `key`.

    Raises:
        StandingsError: no measure has that key.
    """
    try:
        return MEASURES[key]
    except KeyError:
        raise StandingsError(f"unknown award measure {key!r}; known: {', '.join(MEASURES)}", rule=RULE) from None


@dataclass(frozen=True, slots=True)
class Award:
    """One faction's scored game; `tied` when another player scored exactly the same.

    `score` is the game's measure (`measure`, a key of `MEASURES`); `pp` and `strongholds` are
    the report's figures behind it.
    """

    faction: str
    player: PlayerId
    score: Fraction
    pp: Fraction
    turns: int
    players: int
    round_number: int
    table: Hashable | None
    tied: bool
    strongholds: int = 0
    measure: str = DEFAULT_MEASURE

    @property
    def figure(self) -> Fraction:
        """The game's figure behind the score, in the measure's unit."""
        return award_measure(self.measure).figure(self.pp, self.strongholds)

    @property
    def unit(self) -> str:
        """The figure's unit ("PP", "strongholds")."""
        return award_measure(self.measure).unit


def faction_scores(
    results: Iterable[TableResult], *, limit: int | None = None, measure: str = DEFAULT_MEASURE
) -> dict[str, list[Award]]:
    """Eligible heat games' scores by `measure` (a key of `MEASURES`: normalised PP by
    default), grouped by faction, best first (ties by player id, then round). Players who dropped out of any game are left out. With `limit`, each faction
    keeps its best `limit` games plus any more that tie the best score (enough for the awards
    and a leaderboard of that size).

    Long because the eligibility rules (heats only, dropouts left out) and the cut to `limit`
    with its ties are one computation over the same rows.

    Raises:
        StandingsError: a finals table among the results; a row without a faction; an
            unknown measure.
    """
    scoring = award_measure(measure)
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
        for row in heat.rows:
            if row.player in dropped:
                continue
            if row.faction is None:
                raise StandingsError(
                    f"player {row.player!r} at table {heat.table!r} has no faction", rule=RULE
                )
            score = scoring.score(row, heat)
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
                row.strongholds,
                measure,
            )
            for score, row, heat in entries
        ]
    return board


def best_faction_awards(results: Iterable[TableResult], *, measure: str = DEFAULT_MEASURE) -> tuple[Award, ...]:
    """The best game of each faction by `measure` (normalised PP by default) over the
    preliminary heats, factions in id order; several rows for one faction only on a true tie
    between players.

    Raises:
        StandingsError: a finals table among the results; a row without a faction; an unknown
            measure.
    """
    return awards_from(faction_scores(results, measure=measure))


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


def faction_leaderboard(
    results: Iterable[TableResult], *, limit: int = 5, measure: str = DEFAULT_MEASURE
) -> dict[str, tuple[Award, ...]]:
    """Per faction, its best `limit` games by `measure` over the heats, best first.

    Raises:
        StandingsError: as `best_faction_awards`.
        ValueError: `limit` is not positive.
    """
    if limit < 1:
        raise ValueError(f"limit must be positive, got {limit!r}")
    return leaderboard_from(faction_scores(results, limit=limit + 1, measure=measure), limit=limit)


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
