"""Reading a whole game report against its table's seats, for the tournament's points system.

A report is `{"turns", "ended_by", "results": [{"player", "result", "win_attempts",
"strongholds", "forces", "tokens", "spice", "cards", "leaders", "pp", "die"}]}` with the
optional top-level `predicted` (the player a BG prediction named) and `alliances` (lists of
allied player ids at the end): the fields of the format's game report (LoLV 4.01.07 and
4.01.10; the WBC adjudication criteria). Statistics left out count as 0 (WBC Advancement to
Finals). Shape errors cite the format's game report rule. Whether the result is valid (the
turn limit, the winners and their kinds, the alliances, and for a game the engine tracked,
its own decision) is the engine's to decide (`dune.engine.result_check`), under the table's
ruleset; this module only reads the report and scores nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import cast

from dune.engine.errors import ResultRefused
from dune.engine.ids import FACTIONS, ResultKind
from dune.engine.names import faction_name, join_names
from dune.engine.position import Outcome
from dune.engine.result_check import ReportedGame, check_result
from dune.engine.results import kind_name
from dune.engine.rulesets import Ruleset, get_ruleset
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

INT_FIELDS: tuple[str, ...] = ("win_attempts", "strongholds", "forces", "spice", "cards", "leaders", "die")
DECIMAL_FIELDS: tuple[str, ...] = ("tokens", "pp")
ROW_KEYS: frozenset[str] = frozenset({"player", "result", "faction", *INT_FIELDS, *DECIMAL_FIELDS})
REPORT_KEYS: frozenset[str] = frozenset({"turns", "ended_by", "results", "predicted", "alliances", "notes"})


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
        return kind

    def scored(self, row: ReportRow) -> None:
        """The points system has a line for the row's kind (after the engine accepted it)."""
        try:
            self.system.points(row.result)
        except UnsupportedResultError as exc:
            raise ResultKindError(
                f"{kind_name(row.result)} does not exist in {self.system.name}: {exc.why}",
                rule=exc.rule,
                field="result",
                player=row.player,
                player_name=self.name_of(row.player),
                value=row.result.value,
            ) from None

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
            if not isinstance(group, list) or len(group) < 2:
                # How large an alliance may be is the ruleset's to say (the adjudicator).
                raise self.shape("an alliance lists at least two players", field="alliances", value=group)
            members = frozenset(self.seated(p, field="alliances", group=group) for p in group)
            if len(members) != len(group):
                raise self.shape("an alliance lists each player once", field="alliances", value=group)
            out.append(members)
        return tuple(out)

    def predicted(self, raw: object) -> PlayerId | None:
        if raw is None:
            return None
        return self.seated(raw, field="predicted")

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
        if not _is_int(turns) or cast(int, turns) < 1:
            raise self.shape(f"turns must be a whole number from 1, got {_shown(turns)}", field="turns", value=turns)
        ended_by = report.get("ended_by")
        if ended_by not in ENDED_BY:
            raise self.shape(
                f"ended_by must be one of {', '.join(ENDED_BY)}, got {_shown(ended_by)}",
                field="ended_by",
                value=ended_by,
            )
        return cast(Mapping[str, object], report)


def validate_report(
    format_key: str | PointsSystem,
    report: object,
    seats: Mapping[PlayerId, str],
    *,
    ruleset: Ruleset | str,
    table: Hashable | None = None,
    round_number: int = 1,
    is_final: bool = False,
    names: Mapping[PlayerId, str] | None = None,
    decided: Outcome | None = None,
    clock_ran_out: bool | None = None,
) -> TableResult:
    """Read a whole game report, have the engine judge its result under `ruleset`, and return
    it as the `TableResult` scoring reads.

    `seats` maps each seated player's id to their faction id; `names` maps player ids to the
    names messages show. `decided` is the engine's outcome when the engine tracked the game:
    the report must then agree with it. `clock_ran_out` says whether the table's clock has run
    out (None: no clock followed the table): a time-limit ending needs it.

    Raises:
        UnknownSystemError: `format_key` is not a registered format (a tournament passes its
            format's points system itself).
        UnknownIdentifier: `ruleset` is not a known ruleset key.
        ReportShapeError: a missing or unknown key, a wrong type or negative number, a row for a
            player not seated, a seated player without a row, a row twice; more turns than
            the ruleset's round lasts.
        ResultKindError: a result that is not a kind, or a kind the points system has no line for.
        WinnersContradictResultError: whatever the engine's adjudicator refuses (see
            `dune.engine.result_check.check_result`): the winners, their kinds, the ending, the
            alliances, or a result that differs from the engine's decision of a tracked game.
    """
    rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    system = format_key if isinstance(format_key, PointsSystem) else build_system(format_key)
    reader = _Reader(system, seats, names)
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
    adjudicate(rules, result, names=reader.names, decided=decided, clock_ran_out=clock_ran_out)
    for row in rows:
        reader.scored(row)
    return result


def adjudicate(
    ruleset: Ruleset,
    result: TableResult,
    *,
    names: Mapping[PlayerId, str] | None = None,
    decided: Outcome | None = None,
    clock_ran_out: bool | None = None,
) -> None:
    """The engine's adjudicator judges the report's result (by faction); its refusal comes
    back naming the row's player.

    Raises:
        ReportShapeError: more turns than the round lasts.
        WinnersContradictResultError: any other refusal of the adjudicator.
    """
    names = names or {}
    player_of = {row.faction or "": row.player for row in result.rows}
    game = ReportedGame(
        results={row.faction or "": row.result for row in result.rows},
        ended_by=result.ended_by,
        turns=result.turns,
        round_kind="final" if result.is_final else "heat",
        alliances=tuple(frozenset(_faction_of(result, p) for p in a) for a in result.alliances),
        predicted=None if result.predicted is None else _faction_of(result, result.predicted),
        names={row.faction or "": names.get(row.player) or str(row.player) for row in result.rows},
        clock_ran_out=clock_ran_out,
    )
    try:
        check_result(ruleset, game, decided=decided)
    except ResultRefused as exc:
        player = player_of.get(exc.faction) if exc.faction is not None else None
        error = ReportShapeError if exc.field == "turns" else WinnersContradictResultError
        value = exc.value
        if exc.field == "alliances" and isinstance(value, list):
            value = sorted((player_of.get(f, f) for f in value), key=player_sort_key)
        elif exc.field == "predicted":
            value = result.predicted
        raise error(
            exc.message,
            rule=exc.rule,
            field=exc.field or "result",
            player=player,
            player_name=names.get(player) if player is not None else None,
            value=value,
        ) from None


def _faction_of(result: TableResult, player: PlayerId) -> str:
    return result.row(player).faction or ""
