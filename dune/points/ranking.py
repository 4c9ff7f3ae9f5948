"""Ranks with ties, and the precedence tuple of tiebreakers a format orders players by.

Both helpers are pure and never mutate their input.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from dune.points.base import Metric, PlayerId, ReportRow

if TYPE_CHECKING:
    from dune.engine.ids import ResultKind

K = TypeVar("K", bound=Hashable)


def competition_ranks(keys: Sequence[K]) -> tuple[tuple[int, bool], ...]:
    """Give `(rank, tied)` to keys already sorted best first.

    Equal neighbouring keys share a rank and the next distinct key skips the shared places
    (1, 2, 2, 4); `tied` is True for every key equal to a neighbour.
    """
    out: list[tuple[int, bool]] = []
    for i, key in enumerate(keys):
        same_as_previous = i > 0 and keys[i - 1] == key
        same_as_next = i + 1 < len(keys) and keys[i + 1] == key
        rank = out[i - 1][0] if same_as_previous else i + 1
        out.append((rank, same_as_previous or same_as_next))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class GameScore:
    """One game of one player: the round it belongs to, its report row and the points it scored."""

    round_number: int
    table: Hashable | None
    row: ReportRow
    points: Fraction


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """Everything the tiebreakers may read about one player."""

    player: PlayerId
    games: tuple[GameScore, ...]
    points: Fraction
    disqualified: bool
    dropout_round: int | None

    @property
    def results(self) -> tuple[ResultKind, ...]:
        """The player's results in round order."""
        return tuple(g.row.result for g in self.games)


@dataclass(frozen=True, slots=True)
class Tiebreaker:
    """One metric of the precedence tuple: `labels` name each value `metric` returns and
    `summary` names the whole, shown before its values joined by dots (2.4.2.2.4.2.1)."""

    key: str
    labels: tuple[str, ...]
    metric: Callable[[PlayerRecord], tuple[Metric, ...]]
    summary: str = ""


class Precedence:
    """An ordered tuple of tiebreakers; comparing their values in order settles a tie.

    Raises:
        ValueError: a tiebreaker key appears twice.
    """

    __slots__ = ("tiebreakers",)

    def __init__(self, tiebreakers: Sequence[Tiebreaker]) -> None:
        seen: set[str] = set()
        for tb in tiebreakers:
            if tb.key in seen:
                raise ValueError(f"tiebreaker {tb.key!r} appears twice in the precedence")
            seen.add(tb.key)
        self.tiebreakers: tuple[Tiebreaker, ...] = tuple(tiebreakers)

    @property
    def keys(self) -> tuple[str, ...]:
        """The tiebreaker keys in precedence order."""
        return tuple(tb.key for tb in self.tiebreakers)

    @property
    def labels(self) -> tuple[str, ...]:
        """One label per value of the flattened tiebreak tuple."""
        return tuple(label for tb in self.tiebreakers for label in tb.labels)

    def values(self, record: PlayerRecord) -> tuple[Metric, ...]:
        """The flattened tiebreak tuple of one player, compared greater-is-better."""
        out: list[Metric] = []
        for tb in self.tiebreakers:
            got = tb.metric(record)
            if len(got) != len(tb.labels):
                raise ValueError(f"tiebreaker {tb.key!r} returned {got!r}, expected {len(tb.labels)} values")
            out.extend(got)
        return tuple(out)
