"""`evaluate(position)`: every position-level decision a judge asks for, as a typed `Evaluation`.

It answers as if each moment had come now: storm order, stronghold control and victory
as at the Mentat Pause, the battles and win attempts as at the start of the battle phase,
the end-of-game winners (only on the last turn, when nobody won at the Mentat Pause),
statistics, this turn's WBC performance points and the adjudication ranking. Unknown facts
are None. `Evaluation.to_dict()` is the JSON the API answers and the database keeps
(fractions as decimal strings); `Evaluation.from_dict()` reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dune.engine.adjudication import Ranking, adjudicate
from dune.engine.battles import Battle, battles
from dune.engine.control import control, occupancy
from dune.engine.errors import InvalidPosition
from dune.engine.numbers import decimal_str, parse_decimal
from dune.engine.position import Outcome, Position
from dune.engine.pp import turn_pp_tenths
from dune.engine.snapshot import load_outcome
from dune.engine.stats import Stats, faction_stats
from dune.engine.storm import storm_order
from dune.engine.victory import Verdict, end_of_game, mentat_victory, ordered_sides, win_attempts


def _decimal(value: Fraction | None) -> str | None:
    return None if value is None else decimal_str(value)


def _fraction(value: Any) -> Fraction | None:
    return None if value is None else parse_decimal(value)


@dataclass(frozen=True, slots=True)
class FactionStats:
    """One faction's end-of-game statistics (see `dune.engine.stats`); None when unknown.
    `tokens` is the WBC weighted token count."""

    strongholds: int
    forces: int | None
    tokens: Fraction | None
    spice: int | None
    cards: int | None
    leaders: int | None
    win_attempts: int

    @classmethod
    def of(cls, row: Stats) -> FactionStats:
        halves = row["tokens2"]
        return cls(
            strongholds=row["strongholds"] or 0,
            forces=row["forces"],
            tokens=None if halves is None else Fraction(halves, 2),
            spice=row["spice"],
            cards=row["cards"],
            leaders=row["leaders"],
            win_attempts=row["win_attempts"] or 0,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "strongholds": self.strongholds,
            "forces": self.forces,
            "tokens": _decimal(self.tokens),
            "spice": self.spice,
            "cards": self.cards,
            "leaders": self.leaders,
            "win_attempts": self.win_attempts,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FactionStats:
        return cls(
            strongholds=data["strongholds"],
            forces=data["forces"],
            tokens=_fraction(data["tokens"]),
            spice=data["spice"],
            cards=data["cards"],
            leaders=data["leaders"],
            win_attempts=data["win_attempts"],
        )


@dataclass(frozen=True, slots=True)
class Adjudication:
    """The adjudication ranking (empty when the ruleset has no criteria): the sides best first,
    the criteria some side did not know, and whether two sides tie on every criterion."""

    sides: tuple[tuple[str, ...], ...] = ()
    unknown: tuple[str, ...] = ()
    tied: bool = False

    @classmethod
    def of(cls, ranking: Ranking | None) -> Adjudication:
        if ranking is None:
            return cls()
        return cls(sides=ranking.sides, unknown=ranking.unknown, tied=ranking.tied)

    @property
    def first(self) -> tuple[str, ...]:
        """The side the criteria rank first (empty without a ranking)."""
        return self.sides[0] if self.sides else ()


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The engine's answer for a position; see the module docstring for what each part means.

    `pp` is what each faction earns if the turn ended now (empty when the ruleset has no PP),
    `pp_total` the PP earned so far; `outcome` is how the game ended, once it has.
    """

    storm_order: tuple[str, ...] | None
    control: Mapping[str, str | None]
    battles: tuple[Battle, ...]
    win_attempts: tuple[tuple[str, ...], ...]
    victory: Verdict | None
    end_of_game: Verdict | None
    stats: Mapping[str, FactionStats]
    pp: Mapping[str, Fraction]
    adjudication: Adjudication
    pp_total: Mapping[str, Fraction]
    outcome: Outcome | None
    turn: int
    phase: str
    quick: bool

    @property
    def first_player(self) -> str | None:
        return self.storm_order[0] if self.storm_order else None

    @property
    def strongholds(self) -> tuple[str, ...]:
        """The strongholds in play for victory, in board order: the printed five, the Hidden
        Mobile Stronghold with the Ixians (LoLV 2.07.02), the Shield Wall once it counts (WBC
        house rules; LoLV 4.02.01). The one answer every page reads."""
        return tuple(self.control)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape the API answers with (keys in this order)."""
        adj = self.adjudication
        return {
            "storm_order": None if self.storm_order is None else list(self.storm_order),
            "first_player": self.first_player,
            "control": dict(self.control),
            "battles": [b.to_dict() for b in self.battles],
            "win_attempts": [list(side) for side in self.win_attempts],
            "victory": None if self.victory is None else self.victory.to_dict(),
            "end_of_game": None if self.end_of_game is None else self.end_of_game.to_dict(),
            "stats": {f: s.to_dict() for f, s in self.stats.items()},
            "pp": {f: decimal_str(v) for f, v in self.pp.items()},
            "adjudication": [list(side) for side in adj.sides],
            "adjudication_unknown": list(adj.unknown),
            "adjudication_tied": adj.tied,
            "pp_total": {f: decimal_str(v) for f, v in self.pp_total.items()},
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "turn": self.turn,
            "phase": self.phase,
            "quick": self.quick,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evaluation:
        """An evaluation from its JSON (`to_dict()`), as the database keeps it.
        Raises KeyError, ValueError (or UnknownIdentifier) for another shape."""
        order = data["storm_order"]
        victory, eog = data["victory"], data["end_of_game"]
        return cls(
            storm_order=None if order is None else tuple(order),
            control=dict(data["control"]),
            battles=tuple(Battle.from_dict(b) for b in data["battles"]),
            win_attempts=tuple(tuple(side) for side in data["win_attempts"]),
            victory=None if victory is None else Verdict.from_dict(victory),
            end_of_game=None if eog is None else Verdict.from_dict(eog),
            stats={f: FactionStats.from_dict(s) for f, s in data["stats"].items()},
            pp={f: parse_decimal(v) for f, v in data["pp"].items()},
            adjudication=Adjudication(
                sides=tuple(tuple(side) for side in data["adjudication"]),
                unknown=tuple(data["adjudication_unknown"]),
                tied=bool(data["adjudication_tied"]),
            ),
            pp_total={f: parse_decimal(v) for f, v in data["pp_total"].items()},
            outcome=load_outcome(data["outcome"]),
            turn=data["turn"],
            phase=data["phase"],
            quick=data["quick"],
        )


def evaluate(position: Position) -> Evaluation:
    """The engine's answer for a position. Raises InvalidPosition before `game_setup`."""
    if position.setup is None:
        raise InvalidPosition(rule="setup", msg="the game has not been set up", phase=position.phase)
    order = storm_order(position)
    ranked = order if order is not None else list(position.factions)
    occ = occupancy(position)
    ctrl = control(position, occ)
    sides = ordered_sides(position, ranked)
    victory = mentat_victory(position, occ, ctrl, ranked, sides=sides)
    eog = end_of_game(position, occ, ranked) if position.last_turn and victory is None else None
    stats = faction_stats(position, occ, ctrl)
    pp = turn_pp_tenths(position, occ, ctrl)
    return Evaluation(
        storm_order=None if order is None else tuple(order),
        control=ctrl,
        battles=tuple(battles(position, occ, ranked)),
        win_attempts=tuple(tuple(side) for side in win_attempts(position, occ, ranked, sides=sides)),
        victory=victory,
        end_of_game=eog,
        stats={f: FactionStats.of(row) for f, row in stats.items()},
        pp={} if pp is None else {f: Fraction(v, 10) for f, v in pp.items()},
        adjudication=Adjudication.of(adjudicate(position, stats, ranked, sides=sides)),
        pp_total={f: position.states[f].pp for f in position.factions},
        outcome=position.outcome,
        turn=position.turn,
        phase=position.phase,
        quick=position.quick,
    )
