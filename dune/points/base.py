"""The input and output shapes every scoring system shares.

A system reads nothing but `TableResult`s (one filed game report with its seats) and answers
with `StandingRow`s and `Finalists`. Nothing here knows about the database: the Django layer
builds these from its rows in one adapter.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, Protocol, TypeAlias

from dune.engine.ids import ResultKind
from dune.engine.results import ENDED_BY as GAME_ENDINGS

#: A player's id as the report carries it (database ids are ints; tests may use names).
PlayerId: TypeAlias = int | str

#: How a game ended, as the report's `ended_by` says.
EndedBy: TypeAlias = Literal["victory", "turn_limit", "time_limit", "concession"]
ENDED_BY: tuple[str, ...] = GAME_ENDINGS

#: One value of a tiebreak tuple (counts are ints; weighted tokens and points are Fractions).
Metric: TypeAlias = int | Fraction


def player_sort_key(player: PlayerId) -> tuple[int, int, str]:
    """Order player ids deterministically, ints before strings, for listing true ties."""
    if isinstance(player, int):
        return (0, player, "")
    return (1, 0, player)


@dataclass(frozen=True, slots=True)
class ReportRow:
    """One seat's line of a game report: its result and end-of-game statistics.

    Missing statistics are 0 (WBC "Advancement to Finals": unrecorded tiebreak values count as
    zero). `tokens` is the WBC weighted token count, `pp` the game's performance points before
    normalisation, `die` a recorded roll (0 when none was rolled).
    """

    player: PlayerId
    result: ResultKind
    faction: str | None = None
    win_attempts: int = 0
    strongholds: int = 0
    forces: int = 0
    tokens: Fraction = Fraction(0)
    spice: int = 0
    cards: int = 0
    leaders: int = 0
    pp: Fraction = Fraction(0)
    die: int = 0

    @property
    def won(self) -> bool:
        """True when the result is any kind of victory."""
        return self.result not in (ResultKind.LOSS, ResultKind.DROPOUT)

    def criteria(self) -> tuple[Metric, ...]:
        """The seat's values in WBC adjudication-criteria order (`ADJUDICATION_CRITERIA`)."""
        return (self.strongholds, self.tokens, self.spice, self.cards, self.leaders, self.die)


@dataclass(frozen=True, slots=True)
class TableResult:
    """A validated game report: what scoring reads of one table's game.

    `round_number` orders the heats (a dropout is barred from later ones); `is_final` marks
    the finals table, which never counts toward qualifying. `predicted` is the player a BG
    prediction named and `alliances` the alliances standing at the end, when recorded.
    """

    rows: tuple[ReportRow, ...]
    turns: int
    ended_by: EndedBy = "victory"
    table: Hashable | None = None
    round_number: int = 1
    is_final: bool = False
    predicted: PlayerId | None = None
    alliances: tuple[frozenset[PlayerId], ...] = field(default=())

    @property
    def players_at_start(self) -> int:
        """Seats at the start of the game, dropouts included (WBC "Dropouts")."""
        return len(self.rows)

    def row(self, player: PlayerId) -> ReportRow:
        """The row of `player`.

        Raises:
            KeyError: the player has no seat at this table.
        """
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)

    def ally_of(self, player: PlayerId) -> tuple[PlayerId, ...]:
        """The players allied with `player` at the end of the game (empty when unallied)."""
        for alliance in self.alliances:
            if player in alliance:
                return tuple(sorted((p for p in alliance if p != player), key=player_sort_key))
        return ()


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings.

    `rank` is shared only by true ties (`tied` is then True); `tiebreak` is the tuple after
    `points` that ordered the player, labelled by the system's `tiebreak_labels`.
    """

    rank: int
    tied: bool
    player: PlayerId
    points: Fraction
    tiebreak: tuple[Metric, ...]
    disqualified: bool
    explanation: str
    games: int
    results: tuple[ResultKind, ...]


@dataclass(frozen=True, slots=True)
class Finalists:
    """Who plays the final, who waits as an alternate, in order.

    `drawn_by_lot` lists the players whose place across the cut was settled by the injected
    random generator because they tied on every tiebreaker.
    """

    finalists: tuple[PlayerId, ...]
    alternates: tuple[PlayerId, ...]
    drawn_by_lot: tuple[PlayerId, ...] = ()


class ScoringSystem(Protocol):
    """What every format's scoring system offers; `key` is what the database stores."""

    key: str
    name: str
    finalist_seats: int

    @property
    def description(self) -> str: ...

    @property
    def tiebreak_labels(self) -> tuple[str, ...]: ...

    def points(self, kind: ResultKind | str) -> Fraction: ...

    def scores(self, table_result: TableResult) -> Mapping[PlayerId, Fraction]: ...

    def standings(self, results: Iterable[TableResult]) -> tuple[StandingRow, ...]: ...

    def finalists(
        self, standings: Iterable[StandingRow], *, rng: random.Random | None = None
    ) -> Finalists: ...
