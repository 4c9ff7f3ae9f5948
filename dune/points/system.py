"""The shared body of a points system; each format's module fills in its tables and tiebreakers.

A format is data: a points table (kind -> points with its rule), the kinds it refuses (with
the rule that makes them impossible), its precedence of tiebreakers and its dropout rule.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from dune.engine.ids import ResultKind
from dune.points.base import Finalists, Metric, PlayerId, StandingRow, TableResult
from dune.points.errors import UnsupportedResultError
from dune.points.numbers import fmt
from dune.points.qualification import select_finalists
from dune.points.ranking import PlayerRecord, Precedence
from dune.points.standings import gather_records, order_records


@dataclass(frozen=True, slots=True)
class PointsEntry:
    """One line of a format's points table."""

    points: Fraction
    rule: str
    label: str


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a result kind cannot happen in a format."""

    rule: str
    why: str


_ORDERS: dict[int, dict[ResultKind, int]] = {}
#: Explanations of a results multiset, per format (few distinct ones: results repeat a lot).
_WINS_TEXT: dict[tuple[str, tuple[ResultKind, ...]], str] = {}  # keyed by the table's identity too


def _table_order(table: Mapping[ResultKind, PointsEntry]) -> dict[ResultKind, int]:
    order = _ORDERS.get(id(table))
    if order is None:
        order = _ORDERS[id(table)] = {kind: i for i, kind in enumerate(table)}
    return order


@dataclass(frozen=True, kw_only=True)
class PointsSystem:
    """Common behaviour; subclasses set the class-level tables.

    `finalist_seats` is the size of the final table (a parameter of the tournament).
    """

    finalist_seats: int = 6
    #: How many alternates are listed after the finalists (None: every eligible player).
    alternates: int | None = None

    key: ClassVar[str]
    name: ClassVar[str]
    text: ClassVar[str]
    table: ClassVar[Mapping[ResultKind, PointsEntry]]
    refused: ClassVar[Mapping[ResultKind, Refusal]]
    precedence: ClassVar[Precedence]
    dropout_disqualifies: ClassVar[bool]
    dropout_rule: ClassVar[str]
    qualifying_rule: ClassVar[str]
    #: The rule naming the fields of the format's game report (cited by shape errors).
    report_rule: ClassVar[str]

    def __post_init__(self) -> None:
        if (
            isinstance(self.finalist_seats, bool)
            or not isinstance(self.finalist_seats, int)
            or self.finalist_seats < 1
        ):
            raise ValueError(f"finalist_seats must be a positive int, got {self.finalist_seats!r}")

    @property
    def _order(self) -> dict[ResultKind, int]:
        """Position of each kind in the points table (the order explanations list wins in)."""
        return _table_order(self.table)

    @property
    def kinds(self) -> frozenset[ResultKind]:
        """The result kinds this format scores (losses and dropouts included)."""
        return frozenset(self.table)

    @property
    def tiebreak_labels(self) -> tuple[str, ...]:
        """One label per value of a standings row's `tiebreak` tuple."""
        return self.precedence.labels

    @property
    def description(self) -> str:
        """A summary generated from the points table and parameters."""
        shown: dict[str, PointsEntry] = {}
        for kind, entry in self.table.items():
            if kind not in (ResultKind.LOSS, ResultKind.DROPOUT):
                shown.setdefault(entry.label, entry)
        lines = ", ".join(f"{e.label} {fmt(e.points)} ({e.rule})" for e in shown.values())
        ties = "; then ".join(tb.summary or tb.key for tb in self.precedence.tiebreakers)
        return (
            f"{self.name} ({self.text}). Points per game: {lines}; losses 0. "
            f"Order: total points, then {ties}. The top {self.finalist_seats} qualify for the final; "
            + (
                "the others are alternates in order."
                if self.alternates is None
                else f"the next {self.alternates} are alternates in order, with any player tied with the last of them."
            )
        )

    def points(self, kind: ResultKind | str) -> Fraction:
        """Points one seat earns for `kind`.

        Raises:
            UnsupportedResultError: `kind` is not a result kind, or not one this format has.
        """
        try:
            rk = ResultKind(kind)
        except ValueError:
            raise UnsupportedResultError(
                kind, format_key=self.key, rule=self.report_rule, why="not a result kind"
            ) from None
        entry = self.table.get(rk)
        if entry is None:
            refusal = self.refused[rk]
            raise UnsupportedResultError(rk.value, format_key=self.key, rule=refusal.rule, why=refusal.why)
        return entry.points

    def rule_of(self, kind: ResultKind) -> str:
        """The rule number scoring `kind` in this format.

        Raises:
            UnsupportedResultError: the format lacks `kind`.
        """
        self.points(kind)
        return self.table[kind].rule

    def scores(self, table_result: TableResult) -> dict[PlayerId, Fraction]:
        """Points of each seat of one game, keyed by player.

        Raises:
            UnsupportedResultError: a row's result kind the format lacks.
        """
        table = self.table
        out: dict[PlayerId, Fraction] = {}
        for row in table_result.rows:
            entry = table.get(row.result)
            out[row.player] = entry.points if entry is not None else self.points(row.result)
        return out

    def standings(self, results: Iterable[TableResult]) -> tuple[StandingRow, ...]:
        """Ordered standings over the heats in `results`.

        Raises:
            StandingsError: see `gather_records`.
            UnsupportedResultError: a row's result kind the format lacks.
        """
        records = gather_records(
            results,
            scores_of=self.scores,
            dropout_disqualifies=self.dropout_disqualifies,
            dropout_rule=self.dropout_rule,
        )
        return order_records(records, precedence=self.precedence, explain=self.explain)

    def finalists(self, standings: Iterable[StandingRow], *, rng: random.Random | None = None) -> Finalists:
        """Finalists (the top `finalist_seats` eligible) and alternates, in order.

        Raises:
            TieAtCutError: a true tie straddles the cut and no `rng` was given.
        """
        rows = list(standings)
        chosen = select_finalists(rows, seats=self.finalist_seats, rule=self.qualifying_rule, rng=rng)
        if self.alternates is None or len(chosen.alternates) <= self.alternates:
            return chosen
        # Players tied with the last alternate named stay tied: all of them are alternates.
        rank = {row.player: row.rank for row in rows}
        kept = self.alternates
        if kept > 0:
            last = rank.get(chosen.alternates[kept - 1])
            while kept < len(chosen.alternates) and rank.get(chosen.alternates[kept]) == last:
                kept += 1
        return replace(chosen, alternates=chosen.alternates[:kept])

    def explain(self, record: PlayerRecord, values: tuple[Metric, ...]) -> str:
        """A sentence on how the player's points and tiebreak were made, each tiebreak value
        named by its label ("best game QP 2, best game strongholds 3, ...")."""
        text = f"{fmt(record.points)} points from {self._wins_text(record.results)}."
        named = [f"{label} {fmt(v)}" for label, v in zip(self.precedence.labels, values, strict=True)]
        text += f" Tiebreak: {', '.join(named)}."
        if record.disqualified:
            text += f" Disqualified: dropped out in round {record.dropout_round} ({self.dropout_rule})."
        return text

    def _wins_text(self, results: tuple[ResultKind, ...]) -> str:
        """'3 games: 1x solo victory (WBC QP)', shared by every player with the same results."""
        key = (f"{self.key}@{id(self.table)}", tuple(sorted(results)))
        text = _WINS_TEXT.get(key)
        if text is None:
            counts: dict[ResultKind, int] = {}
            for kind in results:
                counts[kind] = counts.get(kind, 0) + 1
            wins = [
                f"{n}x {self.table[kind].label} ({self.table[kind].rule})"
                for kind, n in sorted(counts.items(), key=lambda kv: self._order[kv[0]])
                if kind not in (ResultKind.LOSS, ResultKind.DROPOUT)
            ]
            played = f"{len(results)} game{'s' if len(results) != 1 else ''}"
            text = f"{played}: {', '.join(wins) if wins else 'no wins'}"
            if len(_WINS_TEXT) < 10_000:
                _WINS_TEXT[key] = text
        return text
