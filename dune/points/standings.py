"""Standings shared by every format: gather each player's games, then order by points and the
format's precedence tuple, ranks as (rank, tied).

A format supplies its per-table scores, its precedence and whether a dropout disqualifies.
Disqualified players stay listed (their points are a matter of record) but below every
eligible player, so the top of the list is always the qualifying order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction

from dune.engine.ids import ResultKind
from dune.points.base import Metric, PlayerId, StandingRow, TableResult, player_sort_key
from dune.points.errors import StandingsError
from dune.points.ranking import GameScore, PlayerRecord, Precedence, competition_ranks


def gather_records(
    results: Iterable[TableResult],
    *,
    scores_of: Callable[[TableResult], Mapping[PlayerId, Fraction]],
    dropout_disqualifies: bool,
    dropout_rule: str,
) -> tuple[PlayerRecord, ...]:
    """One record per player seen in `results`, games in round order.

    Raises:
        StandingsError: a finals result among the heats; a player seated twice in one round;
            a player seated in a round after dropping out where a dropout disqualifies.
        UnsupportedResultError: a row's result kind the format lacks (from `scores_of`).
    """
    games: dict[PlayerId, list[GameScore]] = {}
    for result in results:
        if result.is_final:
            raise StandingsError(
                f"table {result.table!r} is a final; qualifying standings count heats only",
                rule="WBC Advancement to Finals / LoLV 4.01.09",
            )
        scores = scores_of(result)
        for row in result.rows:
            games.setdefault(row.player, []).append(
                GameScore(result.round_number, result.table, row, scores[row.player])
            )
    # Sum exactly over one common denominator: one Fraction per player instead of one per game.
    common = math.lcm(*{g.points.denominator for played in games.values() for g in played}) if games else 1
    records: list[PlayerRecord] = []
    for player, played in games.items():
        played.sort(key=lambda g: g.round_number)
        rounds = [g.round_number for g in played]
        if len(set(rounds)) != len(rounds):
            raise StandingsError(
                f"player {player!r} is seated at two tables in one round: {[g.table for g in played]!r}",
                rule="4.01.01 one table per player per round",
            )
        dropout_round = next((g.round_number for g in played if g.row.result is ResultKind.DROPOUT), None)
        if dropout_disqualifies and dropout_round is not None and rounds[-1] > dropout_round:
            raise StandingsError(
                f"player {player!r} dropped out in round {dropout_round} and was seated again in round"
                f" {rounds[-1]}",
                rule=dropout_rule,
            )
        records.append(
            PlayerRecord(
                player=player,
                games=tuple(played),
                points=Fraction(
                    sum(g.points.numerator * (common // g.points.denominator) for g in played), common
                ),
                disqualified=dropout_disqualifies and dropout_round is not None,
                dropout_round=dropout_round,
            )
        )
    return tuple(records)


def order_records(
    records: Iterable[PlayerRecord],
    *,
    precedence: Precedence,
    explain: Callable[[PlayerRecord, tuple[Metric, ...]], str],
) -> tuple[StandingRow, ...]:
    """Standings rows: eligible players by (points, precedence tuple), then the disqualified.

    True ties (equal points and tuple) share a rank and are listed by player id.
    """
    keyed = [(r, precedence.values(r)) for r in records]
    scale = _common_denominator(keyed)
    # Compare exact integers (every value times one common denominator): same order as the
    # Fractions, without their slow comparisons.
    sort_keys = {
        id(r): (not r.disqualified, _scaled(r.points, scale), tuple(_scaled(v, scale) for v in values))
        for r, values in keyed
    }
    # Two stable sorts: player id ascending inside ties, then best key first.
    keyed.sort(key=lambda rk: player_sort_key(rk[0].player))
    keyed.sort(key=lambda rk: sort_keys[id(rk[0])], reverse=True)
    full_keys: list[Hashable] = [sort_keys[id(r)] for r, _ in keyed]
    ranks = competition_ranks(full_keys)
    return tuple(
        StandingRow(
            rank=rank,
            tied=tied,
            player=r.player,
            points=r.points,
            tiebreak=values,
            disqualified=r.disqualified,
            explanation=explain(r, values),
            games=len(r.games),
            results=r.results,
        )
        for (r, values), (rank, tied) in zip(keyed, ranks, strict=True)
    )


def _common_denominator(keyed: list[tuple[PlayerRecord, tuple[Metric, ...]]]) -> int:
    denominators = {r.points.denominator for r, _ in keyed}
    denominators.update(v.denominator for _, values in keyed for v in values if isinstance(v, Fraction))
    return math.lcm(*denominators) if denominators else 1


def _scaled(value: Metric, scale: int) -> int:
    """`value * scale` as an int; exact because `scale` is a multiple of every denominator."""
    if isinstance(value, int):
        return value * scale
    return value.numerator * (scale // value.denominator)
