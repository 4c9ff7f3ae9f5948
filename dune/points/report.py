"""Validation of a whole game report against its table's seats and the tournament's format.

A report is `{"turns", "ended_by", "results": [{"player", "result", "win_attempts",
"strongholds", "forces", "tokens", "spice", "cards", "leaders", "pp", "die"}]}` with the
optional top-level `predicted` (the player a BG prediction named) and `alliances` (lists of
allied player ids at the end): the fields of the format's game report (LoLV 4.01.07 and
4.01.10; the WBC adjudication criteria). Statistics left out count as 0 (WBC Advancement to
Finals). Shape errors cite the format's game report rule; the winners are checked against the
engine's table of result kinds (`dune.points.winners`), and for a game the engine tracked,
against the engine's own decision (`dune.engine.reported`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import cast

from dune.engine.errors import RuleViolation
from dune.engine.ids import FACTIONS, ResultKind
from dune.engine.names import faction_name, join_names
from dune.engine.position import Outcome
from dune.engine.reported import check_reported
from dune.engine.results import kind_name
from dune.points.base import ENDED_BY, EndedBy, PlayerId, ReportRow, TableResult, player_sort_key
from dune.points.errors import (
    ReportShapeError,
    ResultKindError,
    UnsupportedResultError,
    WinnersContradictResultError,
)
from dune.points.numbers import to_fraction
from dune.points.registry import build_system
from dune.points.system import PointsSystem
from dune.points.winners import check_winners

BG = "bene_gesserit"

INT_FIELDS: tuple[str, ...] = ("win_attempts", "strongholds", "forces", "spice", "cards", "leaders", "die")
DECIMAL_FIELDS: tuple[str, ...] = ("tokens", "pp")
ROW_KEYS: frozenset[str] = frozenset({"player", "result", "faction", *INT_FIELDS, *DECIMAL_FIELDS})
REPORT_KEYS: frozenset[str] = frozenset({"turns", "ended_by", "results", "predicted", "alliances", "notes"})
#: The most turns any supported game lasts (AH V: 15 turns; WBC final 15).
MAX_TURNS = 15


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """The refused input as a person reads it (the error keeps the value itself)."""
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    if value is None or value == "":
        return "nothing"
    return str(value)


class _Reader:
    """Reads one report for one table: the seats, the format's system and the players' names."""

    def __init__(
        self, system: PointsSystem, seats: Mapping[PlayerId, str], names: Mapping[PlayerId, str] | None
    ) -> None:
        self.system = system
        self.seats = seats
        self.names: Mapping[PlayerId, str] = names or {}
        self.rule = system.report_rule

    def name_of(self, player: object) -> str | None:
        return self.names.get(player) if isinstance(player, (int, str)) else None

    def who(self, player: object) -> str:
        name = self.names.get(player) if isinstance(player, (int, str)) else None
        return name or f"player {_shown(player)}"

    def shape(
        self, msg: str, *, field: str, player: Hashable | None = None, value: object = None
    ) -> ReportShapeError:
        return ReportShapeError(
            msg, rule=self.rule, field=field, player=player, value=value, player_name=self.name_of(player)
        )

    def player_id(self, value: object, *, field: str) -> PlayerId:
        if _is_int(value) or (isinstance(value, str) and value != ""):
            return cast(PlayerId, value)
        raise self.shape(f"a player is named by their id, got {_shown(value)}", field=field, value=value)

    def seated(self, value: object, *, field: str, group: object = None) -> PlayerId:
        player = self.player_id(value, field=field)
        if player not in self.seats:
            raise ReportShapeError(
                f"{self.who(player)} is not seated at this table",
                rule=f"{self.rule}; seating",
                field=field,
                player=player,
                player_name=self.name_of(player),
                value=player if group is None else group,
            )
        return player

    def row(self, raw: object, index: int) -> ReportRow:
        if not isinstance(raw, Mapping):
            raise self.shape(
                f"result row {index + 1} must be an object, got {_shown(raw)}", field="results", value=raw
            )
        if "player" not in raw:
            raise self.shape(f"result row {index + 1} names no player", field="player", value=raw)
        player = self.seated(raw["player"], field="player")
        unknown = sorted(str(k) for k in raw if k not in ROW_KEYS)
        if unknown:
            raise self.shape(
                f"unknown fields {', '.join(unknown)}; a row has {', '.join(sorted(ROW_KEYS))}",
                field=unknown[0],
                player=player,
                value=unknown,
            )
        faction = self.seats[player]
        if "faction" in raw and raw["faction"] != faction:
            raise ReportShapeError(
                f"{self.who(player)} plays {faction_name(faction)} at this table, not {_shown(raw['faction'])}",
                rule=f"{self.rule}; seating",
                field="faction",
                player=player,
                player_name=self.name_of(player),
                value=raw["faction"],
            )
        kind = self.kind(raw, player)
        fracs = {name: self.decimal(raw, name, player) for name in DECIMAL_FIELDS}
        ints = {name: self.count(raw, name, player) for name in INT_FIELDS}
        return ReportRow(
            player=player, result=kind, faction=faction, tokens=fracs["tokens"], pp=fracs["pp"], **ints
        )

    def kind(self, raw: Mapping[object, object], player: PlayerId) -> ResultKind:
        if "result" not in raw:
            raise self.shape(f"{self.who(player)}'s result is missing", field="result", player=player)
        try:
            kind = ResultKind(str(raw["result"]))
        except ValueError:
            raise ResultKindError(
                f"{_shown(raw['result'])} is not a result kind; one of {', '.join(k.value for k in ResultKind)}",
                rule=self.rule,
                field="result",
                player=player,
                player_name=self.name_of(player),
                value=raw["result"],
            ) from None
        try:
            self.system.points(kind)
        except UnsupportedResultError as exc:
            raise ResultKindError(
                f"{kind_name(kind)} does not exist in {self.system.name}: {exc.why}",
                rule=exc.rule,
                field="result",
                player=player,
                player_name=self.name_of(player),
                value=kind.value,
            ) from None
        return kind

    def count(self, raw: Mapping[object, object], name: str, player: PlayerId) -> int:
        value = raw.get(name, 0)
        value = 0 if value is None else value
        if not _is_int(value) or cast(int, value) < 0:
            raise self.shape(
                f"must be a whole number >= 0, got {_shown(value)}", field=name, player=player, value=value
            )
        return cast(int, value)

    def decimal(self, raw: Mapping[object, object], name: str, player: PlayerId) -> Fraction:
        value = raw.get(name, 0)
        value = 0 if value is None else value
        try:
            number = to_fraction(value)
        except ValueError as exc:
            # Digits and exponent are bounded before any arithmetic (a huge exponent would
            # keep a worker busy for minutes): say which bound the number broke.
            raise self.shape(f"must be a decimal number >= 0: {exc}", field=name, player=player) from None
        except TypeError:
            number = Fraction(-1)
        if number < 0:
            raise self.shape(
                f"must be a decimal number >= 0, got {_shown(value)}", field=name, player=player, value=value
            )
        return number

    def rows(self, raw_rows: object) -> tuple[ReportRow, ...]:
        if not isinstance(raw_rows, list) or not raw_rows:
            raise self.shape(
                f"results must be a non-empty list of rows, got {_shown(raw_rows)}",
                field="results",
                value=raw_rows,
            )
        rows: list[ReportRow] = []
        for index, raw in enumerate(raw_rows):
            row = self.row(raw, index)
            if any(r.player == row.player for r in rows):
                raise self.shape(
                    f"{self.who(row.player)} has two rows; one row per seated player",
                    field="player",
                    player=row.player,
                    value=row.player,
                )
            rows.append(row)
        missing = sorted(set(self.seats) - {r.player for r in rows}, key=player_sort_key)
        if missing:
            raise self.shape(
                f"{join_names(self.who(p) for p in missing)} has no row; one row per seated player",
                field="player",
                player=missing[0],
                value=missing,
            )
        return tuple(rows)

    def alliances(self, raw: object) -> tuple[frozenset[PlayerId], ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            raise self.shape(
                f"alliances must be a list of lists of players, got {_shown(raw)}",
                field="alliances",
                value=raw,
            )
        out: list[frozenset[PlayerId]] = []
        for group in raw:
            if not isinstance(group, list) or not 2 <= len(group) <= 3:
                raise ReportShapeError(
                    "an alliance lists two or three players",
                    rule="WBC House Rules; LoLV glossary 'Alliance'",
                    field="alliances",
                    value=group,
                )
            members = frozenset(self.seated(p, field="alliances", group=group) for p in group)
            twice = next((p for a in out for p in a if p in members), None)
            if twice is not None or len(members) != len(group):
                p = twice if twice is not None else group[0]
                raise ReportShapeError(
                    f"{self.who(p)} is in two alliances",
                    rule="WBC House Rules (one alliance each)",
                    field="alliances",
                    player=p,
                    player_name=self.name_of(p),
                    value=group,
                )
            out.append(members)
        return tuple(out)

    def predicted(self, raw: object) -> PlayerId | None:
        if raw is None:
            return None
        predicted = self.player_id(raw, field="predicted")
        if predicted not in self.seats or self.seats[predicted] == BG:
            raise ReportShapeError(
                f"the Bene Gesserit predicts another seated player, not {self.who(predicted)}",
                rule="AH III.a; LoLV 2.02.03",
                field="predicted",
                player=predicted,
                player_name=self.name_of(predicted),
                value=predicted,
            )
        return predicted

    def top(self, report: object) -> Mapping[str, object]:
        """The report's top level: an object with known keys, its turns and ending."""
        if not isinstance(report, Mapping):
            raise self.shape(f"a report is an object, got {_shown(report)}", field="report", value=report)
        for player, faction in self.seats.items():
            if faction not in FACTIONS:
                raise ReportShapeError(
                    f"{self.who(player)}'s seat has no known faction ({_shown(faction)})",
                    rule="seating",
                    field="faction",
                    player=player,
                    player_name=self.name_of(player),
                    value=faction,
                )
        unknown = sorted(str(k) for k in report if k not in REPORT_KEYS)
        if unknown:
            raise self.shape(
                f"unknown fields {', '.join(unknown)}; a report has {', '.join(sorted(REPORT_KEYS))}",
                field=unknown[0],
                value=unknown,
            )
        turns = report.get("turns")
        if not _is_int(turns) or not 1 <= cast(int, turns) <= MAX_TURNS:
            raise ReportShapeError(
                f"turns must be a whole number from 1 to {MAX_TURNS}, got {_shown(turns)}",
                rule="AH V",
                field="turns",
                value=turns,
            )
        ended_by = report.get("ended_by")
        if ended_by not in ENDED_BY:
            raise self.shape(
                f"ended_by must be one of {', '.join(ENDED_BY)}, got {_shown(ended_by)}",
                field="ended_by",
                value=ended_by,
            )
        return cast(Mapping[str, object], report)


def validate_report(
    format_key: str,
    report: object,
    seats: Mapping[PlayerId, str],
    *,
    table: Hashable | None = None,
    round_number: int = 1,
    is_final: bool = False,
    names: Mapping[PlayerId, str] | None = None,
    decided: Outcome | None = None,
) -> TableResult:
    """Check a whole game report and return it as the `TableResult` scoring reads.

    `seats` maps each seated player's id to their faction id; `names` maps player ids to the
    names messages show. `decided` is the engine's outcome when the engine tracked the game:
    the report must then agree with it.

    Raises:
        UnknownSystemError: `format_key` is not a registered format.
        ReportShapeError: a missing or unknown key, a wrong type or negative number, a row for a
            player not seated, a seated player without a row, a row twice.
        ResultKindError: a result that is not a kind, or a kind the format lacks.
        WinnersContradictResultError: no winner or more than one winning side, allies that do
            not share a result, a BG prediction not won by the BG alone, a default or special
            victory without the faction it needs, an ending that does not fit the result, or a
            result that differs from the engine's decision of a tracked game.
    """
    reader = _Reader(build_system(format_key), seats, names)
    top = reader.top(report)
    rows = reader.rows(top.get("results"))
    result = TableResult(
        rows=rows,
        turns=cast(int, top["turns"]),
        ended_by=cast(EndedBy, top["ended_by"]),
        table=table,
        round_number=round_number,
        is_final=is_final,
        predicted=reader.predicted(top.get("predicted")),
        alliances=reader.alliances(top.get("alliances")),
    )
    if decided is not None:
        check_decided(result, decided, names=reader.names)
    check_winners(reader.system, result, names=reader.names)
    return result


def check_decided(
    result: TableResult, decided: Outcome, *, names: Mapping[PlayerId, str] | None = None
) -> None:
    """A tracked game's report agrees with the engine's decision, checked by the engine itself.

    Raises:
        WinnersContradictResultError: a winner, a result kind or the ending differs from the
            engine's outcome; names the first row at fault.
    """
    player_of = {row.faction: row.player for row in result.rows}
    reported = {row.faction or "": row.result for row in result.rows}
    try:
        check_reported(decided, reported, ended_by=result.ended_by)
    except RuleViolation as exc:
        faction = exc.offending if exc.input in player_of else None
        raise WinnersContradictResultError(
            exc.message,
            rule=exc.rule,
            field="ended_by" if faction is None else "result",
            player=player_of.get(faction or ""),
            player_name=(names or {}).get(player_of.get(faction or "", "")),
            value=faction if faction is not None else result.ended_by,
        ) from None
