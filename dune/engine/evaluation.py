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
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dune.engine.battles import Battle, battles
from dune.engine.codec.schema import load_outcome
from dune.engine.control import control, occupancy
from dune.engine.editions import distinguished
from dune.engine.errors import InvalidPosition
from dune.engine.factions import ECAZ, MORITANI, RICHESE
from dune.engine.impossible import TERROR_TOKENS
from dune.engine.numbers import decimal_str, parse_decimal
from dune.engine.phases import MENTAT_PAUSE
from dune.engine.position import Outcome, Position
from dune.engine.pp import turn_pp_tenths
from dune.engine.results import Way, kind_for
from dune.engine.stats import Stats, faction_stats
from dune.engine.storm import storm_order
from dune.engine.supplies import no_field_left
from dune.engine.time_up_ranking import Ranking, adjudicate
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
class Board:
    """The pieces on the board beyond forces: where the Hidden Mobile Stronghold points
    (LoLV 2.07.17), the Terror tokens (2.12.05) and the Atomics Aftermath (2.12.09.02), the
    Ambassadors with their symbols (2.11.05), the No-Field token (2.10.11) and the spice lying
    in Spice Blow territories (1.02.04, AH VII.A.1; full tracking only); and the supplies off
    the board (`supplies`): the Terror tokens behind the Moritani's shield, the Ecaz Ambassador
    supply with the tokens set aside and out of the game (2.11.03, 2.11.07, 2.11.10.02) when the
    judge tracks it, the No-Field tokens in the Richese supply and the numbers face up in front
    of the shield (2.10.03, 2.10.13)."""

    hms: tuple[str, int] | None = None
    terror: tuple[str, ...] = ()
    aftermath: str | None = None
    ambassadors: Mapping[str, str] = field(default_factory=dict)
    no_field: tuple[str, int | None] | None = None
    spice: Mapping[str, int] = field(default_factory=dict)
    #: Terror tokens still behind the Moritani's shield (2.12.03, 2.12.07); None without them.
    terror_supply: int | None = None
    #: The Ecaz Ambassador supply; None without the Ecaz or while the judge does not track it.
    ambassador_supply: tuple[str, ...] | None = None
    ambassadors_aside: tuple[str, ...] = ()
    ambassadors_out: tuple[str, ...] = ()
    #: No-Field tokens in the Richese supply and the numbers face up; None without the Richese.
    no_field_supply: int | None = None
    no_field_face_up: tuple[int, ...] | None = None

    @classmethod
    def of(cls, position: Position) -> Board:
        factions = position.setup.factions if position.setup is not None else ()
        supply = (
            TERROR_TOKENS - len(position.terror) - position.terror_spent if MORITANI in factions else None
        )
        sup = position.supplies
        ambassadors = sup.ambassadors if ECAZ in factions else None
        richese = RICHESE in factions
        return cls(
            terror_supply=supply,
            ambassador_supply=None if ambassadors is None else tuple(sorted(ambassadors)),
            ambassadors_aside=tuple(sorted(sup.ambassadors_aside)),
            ambassadors_out=tuple(sorted(sup.ambassadors_out)),
            no_field_supply=no_field_left(sup, position.no_field is not None) if richese else None,
            no_field_face_up=tuple(sorted(sup.no_field_face_up)) if richese else None,
            hms=position.hms,
            terror=tuple(sorted(position.terror)),
            aftermath=position.aftermath,
            ambassadors=dict(sorted(position.ambassadors.items())),
            no_field=position.no_field,
            spice=dict(sorted(position.spice_on_board.items())),
        )

    def __bool__(self) -> bool:
        return bool(
            self.hms
            or self.terror
            or self.aftermath
            or self.ambassadors
            or self.no_field
            or self.spice
            or self.terror_supply is not None
            or self.ambassador_supply is not None
            or self.no_field_supply is not None
        )

    def to_dict(self) -> dict[str, Any]:
        def piece(p: tuple[str, int | None] | None) -> dict[str, Any] | None:
            return None if p is None else {"territory": p[0], "sector": p[1]}

        return {
            "hms": piece(self.hms),
            "terror": list(self.terror),
            "aftermath": self.aftermath,
            "ambassadors": dict(self.ambassadors),
            "no_field": piece(self.no_field),
            "spice": dict(self.spice),
            "terror_supply": self.terror_supply,
            "ambassador_supply": None if self.ambassador_supply is None else list(self.ambassador_supply),
            "ambassadors_aside": list(self.ambassadors_aside),
            "ambassadors_out": list(self.ambassadors_out),
            "no_field_supply": self.no_field_supply,
            "no_field_face_up": None if self.no_field_face_up is None else list(self.no_field_face_up),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Board:
        if not data:
            return cls()
        hms, nf = data.get("hms"), data.get("no_field")
        return cls(
            hms=None if hms is None else (hms["territory"], hms["sector"]),
            terror=tuple(data.get("terror", ())),
            aftermath=data.get("aftermath"),
            ambassadors=dict(data.get("ambassadors", {})),
            no_field=None if nf is None else (nf["territory"], nf["sector"]),
            spice=dict(data.get("spice", {})),
            terror_supply=data.get("terror_supply"),
            ambassador_supply=_tuple_or_none(data.get("ambassador_supply")),
            ambassadors_aside=tuple(data.get("ambassadors_aside", ())),
            ambassadors_out=tuple(data.get("ambassadors_out", ())),
            no_field_supply=data.get("no_field_supply"),
            no_field_face_up=_tuple_or_none(data.get("no_field_face_up")),
        )


def _tuple_or_none(value: Any) -> tuple[Any, ...] | None:
    return None if value is None else tuple(value)


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
    #: The pieces on the board (`Board`); the JSON has "board" only when there are any, so
    #: answers about positions without them read as they always have.
    board: Board = field(default_factory=Board)
    #: Under AH, the coexisting territories the BG stated this turn and those assumed
    #: (AH XV.B); None in the rulesets without the assumption. JSON "coexistence".
    coexistence: tuple[tuple[str, ...], tuple[str, ...]] | None = None

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
        return (
            {
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
            | ({"board": self.board.to_dict()} if self.board else {})
            | self._coexistence_json()
        )

    def _coexistence_json(self) -> dict[str, Any]:
        if self.coexistence is None:
            return {}
        declared, assumed = self.coexistence
        return {"coexistence": {"declared": list(declared), "assumed": list(assumed)}}

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
            board=Board.from_dict(data.get("board")),
            coexistence=None
            if data.get("coexistence") is None
            else (tuple(data["coexistence"]["declared"]), tuple(data["coexistence"]["assumed"])),
        )


def _ends_by_the_rules(position: Position) -> bool:
    """The last turn ends with the special and default victories (LoLV 1.09.05, AH IV.B-C)
    only when it is the turn limit's: a game whose time ran out before it is adjudicated
    (WBC Preliminary Heat Duration and Adjudication, LoLV 4.01.10), as `last_turn_ended`
    refuses then."""
    assert position.setup is not None
    if position.time_up is not None and position.turn < position.setup.turn_limit:
        return False
    return position.last_turn


def _adjudicated(position: Position, ranking: Ranking | None) -> Verdict | None:
    """Ninth edition: once time ran out before the turn limit, at the Mentat Pause of the last
    turn played, the result the adjudication criteria determine (WBC Preliminary Heat Duration
    and Adjudication: the GM determines the winner at the end of the last turn; LoLV 4.01.10);
    none while a criterion is unknown or the top sides are tied. The judge still confirms it
    (`adjudication_confirmed`)."""
    setup = position.setup
    assert setup is not None
    if (
        not distinguished(position)
        or position.time_up is None
        or position.turn >= setup.turn_limit
        or position.phase != MENTAT_PAUSE
        or position.outcome is not None
        or ranking is None
        or set(ranking.unknown) - {"die"}
        or ranking.top_tied
        or not ranking.sides
    ):
        return None
    side = tuple(sorted(ranking.sides[0]))
    return Verdict(sides=((side, kind_for(Way.ADJUDICATED, side)),), rule=position.ruleset.cite["adjudication"])


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
    eog = end_of_game(position, occ, ranked) if _ends_by_the_rules(position) and victory is None else None
    stats = faction_stats(position, occ, ctrl)
    pp = turn_pp_tenths(position, occ, ctrl)
    ranking = adjudicate(position, stats, ranked, sides=sides)
    if eog is None and victory is None:
        eog = _adjudicated(position, ranking)
    return Evaluation(
        storm_order=None if order is None else tuple(order),
        control=ctrl,
        battles=tuple(battles(position, occ, ranked)),
        win_attempts=tuple(tuple(side) for side in win_attempts(position, occ, ranked, sides=sides)),
        victory=victory,
        end_of_game=eog,
        stats={f: FactionStats.of(row) for f, row in stats.items()},
        pp={} if pp is None else {f: Fraction(v, 10) for f, v in pp.items()},
        adjudication=Adjudication.of(ranking),
        pp_total={f: position.states[f].pp for f in position.factions},
        outcome=position.outcome,
        turn=position.turn,
        phase=position.phase,
        quick=position.quick,
        board=Board.of(position),
        coexistence=_coexistence(position),
    )


def _coexistence(position: Position) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """AH XV.B: which coexisting territories the BG stated and which are assumed."""
    if not position.ruleset.coexistence_assumed:
        return None
    declared = tuple(sorted(position.coexisting & position.declared))
    return declared, tuple(sorted(position.coexisting - position.declared))
