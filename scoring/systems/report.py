"""Validation of a whole game report against its table's seats and the tournament's format.

The report's shape is fixed by the scoring issue:
`{"turns", "ended_by", "results": [{"player", "result", "win_attempts", "strongholds", "forces",
"tokens", "spice", "cards", "leaders", "pp", "die"}]}`; optional top-level keys `predicted` (the
player a BG prediction named) and `alliances` (lists of allied player ids at the end).
Statistics left out count as 0 (WBC Advancement to Finals).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import NoReturn, cast

from gameplay.engine.ids import FACTIONS, LOSING_KINDS, ResultKind
from scoring.systems.base import ENDED_BY, EndedBy, PlayerId, ReportRow, TableResult, player_sort_key
from scoring.systems.errors import (
    ReportShapeError,
    ResultKindError,
    UnsupportedResultError,
    WinnersContradictResultError,
)
from scoring.systems.numbers import to_fraction
from scoring.systems.registry import get_system
from scoring.systems.system import PointsSystem

R = ResultKind
SHAPE = "issue 6 report shape"
BG, FREMEN, GUILD = "bene_gesserit", "fremen", "guild"

INT_FIELDS: tuple[str, ...] = ("win_attempts", "strongholds", "forces", "spice", "cards", "leaders", "die")
DECIMAL_FIELDS: tuple[str, ...] = ("tokens", "pp")
ROW_KEYS: frozenset[str] = frozenset({"player", "result", "faction", *INT_FIELDS, *DECIMAL_FIELDS})
REPORT_KEYS: frozenset[str] = frozenset({"turns", "ended_by", "results", "predicted", "alliances", "notes"})
#: The most turns any supported game lasts (AH V: 15 turns; WBC final 15).
MAX_TURNS = 15

SOLO_KINDS: frozenset[ResultKind] = frozenset(
    {
        R.SOLO_STRONGHOLD,
        R.BG_PREDICTION,
        R.FREMEN_SPECIAL_SOLO,
        R.GUILD_DEFAULT_SOLO,
        R.FREMEN_DEFAULT_SOLO,
        R.END_GAME_SOLO,
    }
)
ALLIED_KINDS: frozenset[ResultKind] = frozenset(
    {
        R.ALLIED_STRONGHOLD,
        R.FREMEN_SPECIAL_ALLIED,
        R.GUILD_DEFAULT_ALLIED,
        R.FREMEN_DEFAULT_ALLIED,
        R.END_GAME_ALLIED,
    }
)
STRONGHOLD_KINDS: frozenset[ResultKind] = frozenset(
    {R.SOLO_STRONGHOLD, R.ALLIED_STRONGHOLD, R.THREE_ALLIANCE}
)
#: Wins decided at the end of the last turn (AH IV.B-C; LoLV 1.09.05, 2.04.09, 2.06.08).
END_OF_PLAY_KINDS: frozenset[ResultKind] = frozenset(
    {
        R.FREMEN_SPECIAL_SOLO,
        R.FREMEN_SPECIAL_ALLIED,
        R.GUILD_DEFAULT_SOLO,
        R.GUILD_DEFAULT_ALLIED,
        R.FREMEN_DEFAULT_SOLO,
        R.FREMEN_DEFAULT_ALLIED,
        R.END_GAME_SOLO,
        R.END_GAME_ALLIED,
    }
)
#: For each kind, the ways the game may have ended.
ENDINGS: dict[ResultKind, frozenset[str]] = {
    **{k: frozenset({"victory", "concession"}) for k in STRONGHOLD_KINDS},
    R.BG_PREDICTION: frozenset({"victory"}),
    **{k: frozenset({"turn_limit"}) for k in END_OF_PLAY_KINDS},
    R.ADJUDICATED: frozenset({"time_limit", "turn_limit"}),
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _player_id(value: object, *, field: str, player: Hashable | None) -> PlayerId:
    if _is_int(value) or (isinstance(value, str) and value != ""):
        return cast(PlayerId, value)
    raise ReportShapeError(
        f"a player id must be an int or a non-empty string, got {value!r}",
        rule=SHAPE,
        field=field,
        player=player,
        value=value,
    )


def _parse_row(raw: object, index: int, system: PointsSystem, seats: Mapping[PlayerId, str]) -> ReportRow:
    if not isinstance(raw, Mapping):
        raise ReportShapeError(
            f"results[{index}] must be an object, got {raw!r}", rule=SHAPE, field="results", value=raw
        )
    if "player" not in raw:
        raise ReportShapeError(f"results[{index}] has no player", rule=SHAPE, field="player", value=raw)
    player = _player_id(raw["player"], field="player", player=None)
    if player not in seats:
        raise ReportShapeError(
            f"player {player!r} is not seated at this table",
            rule="4.01.02 game report / seating",
            field="player",
            player=player,
            value=player,
        )
    unknown = sorted(str(k) for k in raw if k not in ROW_KEYS)
    if unknown:
        raise ReportShapeError(
            f"unknown keys {unknown!r}; a row has {sorted(ROW_KEYS)!r}",
            rule=SHAPE,
            field=unknown[0],
            player=player,
            value=unknown,
        )
    if "result" not in raw:
        raise ReportShapeError("the result is missing", rule=SHAPE, field="result", player=player)
    try:
        kind = ResultKind(raw["result"])
    except ValueError:
        raise ResultKindError(
            f"{raw['result']!r} is not a result kind; one of {[k.value for k in ResultKind]!r}",
            rule=SHAPE,
            field="result",
            player=player,
            value=raw["result"],
        ) from None
    try:
        system.points(kind)
    except UnsupportedResultError as exc:
        raise ResultKindError(
            exc.msg, rule=exc.rule, field="result", player=player, value=kind.value
        ) from None
    faction = seats[player]
    if "faction" in raw and raw["faction"] != faction:
        raise ReportShapeError(
            f"faction {raw['faction']!r} differs from the seat's faction {faction!r}",
            rule="seating",
            field="faction",
            player=player,
            value=raw["faction"],
        )
    ints: dict[str, int] = {}
    for name in INT_FIELDS:
        value = raw.get(name, 0)
        if value is None:
            value = 0
        if not _is_int(value) or value < 0:
            raise ReportShapeError(
                f"must be a whole number >= 0, got {value!r}",
                rule=SHAPE,
                field=name,
                player=player,
                value=value,
            )
        ints[name] = value
    fracs: dict[str, Fraction] = {}
    for name in DECIMAL_FIELDS:
        value = raw.get(name, 0)
        if value is None:
            value = 0
        try:
            number = to_fraction(value)
        except (TypeError, ValueError):
            raise ReportShapeError(
                f"must be a decimal number >= 0, got {value!r}",
                rule=SHAPE,
                field=name,
                player=player,
                value=value,
            ) from None
        if number < 0:
            raise ReportShapeError(
                f"must be >= 0, got {value!r}", rule=SHAPE, field=name, player=player, value=value
            )
        fracs[name] = number
    return ReportRow(
        player=player, result=kind, faction=faction, tokens=fracs["tokens"], pp=fracs["pp"], **ints
    )


def _parse_alliances(raw: object, seats: Mapping[PlayerId, str]) -> tuple[frozenset[PlayerId], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ReportShapeError(
            f"alliances must be a list of lists of player ids, got {raw!r}",
            rule=SHAPE,
            field="alliances",
            value=raw,
        )
    out: list[frozenset[PlayerId]] = []
    seen: set[PlayerId] = set()
    for group in raw:
        if not isinstance(group, list) or not 2 <= len(group) <= 3:
            raise ReportShapeError(
                f"an alliance lists two or three players, got {group!r}",
                rule="WBC House Rules; LoLV glossary 'Alliance'",
                field="alliances",
                value=group,
            )
        members = [_player_id(p, field="alliances", player=None) for p in group]
        for p in members:
            if p not in seats:
                raise ReportShapeError(
                    f"allied player {p!r} is not seated at this table",
                    rule=SHAPE,
                    field="alliances",
                    player=p,
                    value=group,
                )
            if p in seen:
                raise ReportShapeError(
                    f"player {p!r} is in two alliances",
                    rule="WBC House Rules (one alliance each)",
                    field="alliances",
                    player=p,
                    value=group,
                )
            seen.add(p)
        out.append(frozenset(members))
    return tuple(out)


def validate_report(
    format_key: str,
    report: object,
    seats: Mapping[PlayerId, str],
    *,
    table: Hashable | None = None,
    round_number: int = 1,
    is_final: bool = False,
) -> TableResult:
    """Check a whole game report and return it as the `TableResult` scoring reads.

    `seats` maps each seated player's id to their faction id.

    Raises:
        UnknownSystemError: `format_key` is not a registered format.
        ReportShapeError: a missing or unknown key, a wrong type or negative number, a row for a
            player not seated, a seated player without a row, a row twice.
        ResultKindError: a result that is not a kind, or a kind the format lacks.
        WinnersContradictResultError: no winner or more than one winning side, allies that do
            not share a result, a BG prediction not won by the BG alone, a default or special
            victory without the faction it needs, an ending that does not fit the result.
    """
    system = get_system(format_key)
    if not isinstance(report, Mapping):
        raise ReportShapeError(
            f"a report is an object, got {report!r}", rule=SHAPE, field="report", value=report
        )
    for player, faction in seats.items():
        if faction not in FACTIONS:
            raise ReportShapeError(
                f"seat faction {faction!r} is not a faction id",
                rule="seating",
                field="faction",
                player=player,
                value=faction,
            )
    unknown = sorted(str(k) for k in report if k not in REPORT_KEYS)
    if unknown:
        raise ReportShapeError(
            f"unknown keys {unknown!r}; a report has {sorted(REPORT_KEYS)!r}",
            rule=SHAPE,
            field=unknown[0],
            value=unknown,
        )
    turns = report.get("turns")
    if not _is_int(turns) or not 1 <= cast(int, turns) <= MAX_TURNS:
        raise ReportShapeError(
            f"turns must be a whole number from 1 to {MAX_TURNS}, got {turns!r}",
            rule="AH V",
            field="turns",
            value=turns,
        )
    ended_by = report.get("ended_by")
    if ended_by not in ENDED_BY:
        raise ReportShapeError(
            f"ended_by must be one of {list(ENDED_BY)!r}, got {ended_by!r}",
            rule=SHAPE,
            field="ended_by",
            value=ended_by,
        )
    raw_rows = report.get("results")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise ReportShapeError(
            f"results must be a non-empty list of rows, got {raw_rows!r}",
            rule=SHAPE,
            field="results",
            value=raw_rows,
        )
    rows: list[ReportRow] = []
    seen: set[PlayerId] = set()
    for index, raw in enumerate(raw_rows):
        row = _parse_row(raw, index, system, seats)
        if row.player in seen:
            raise ReportShapeError(
                "the player has two rows",
                rule="issue 6: one row per seated player",
                field="player",
                player=row.player,
                value=row.player,
            )
        seen.add(row.player)
        rows.append(row)
    missing = sorted(set(seats) - seen, key=player_sort_key)
    if missing:
        raise ReportShapeError(
            "the seated player has no row",
            rule="issue 6: one row per seated player",
            field="player",
            player=missing[0],
            value=missing,
        )
    alliances = _parse_alliances(report.get("alliances"), seats)
    predicted: PlayerId | None = None
    if report.get("predicted") is not None:
        predicted = _player_id(report["predicted"], field="predicted", player=None)
        if predicted not in seats or seats[predicted] == BG:
            raise ReportShapeError(
                f"the BG predicts another seated player, got {predicted!r}",
                rule="AH III.a; LoLV 2.02.03",
                field="predicted",
                player=predicted,
                value=predicted,
            )
    result = TableResult(
        rows=tuple(rows),
        turns=cast(int, turns),
        ended_by=cast(EndedBy, ended_by),
        table=table,
        round_number=round_number,
        is_final=is_final,
        predicted=predicted,
        alliances=alliances,
    )
    check_winners(system, result)
    return result


def _contradiction(
    msg: str, *, rule: str, player: PlayerId | None, field: str = "result", value: object = None
) -> NoReturn:
    raise WinnersContradictResultError(msg, rule=rule, field=field, player=player, value=value)


def check_winners(system: PointsSystem, result: TableResult) -> None:
    """The winning rows agree with their kinds, each other, the seats and the game's ending.

    Raises:
        WinnersContradictResultError: see `validate_report`.
    """
    rows = result.rows
    winners = [r for r in rows if r.result not in LOSING_KINDS]
    if not winners:
        _contradiction(
            "no row won; every game has a winning side (adjudication picks one when time runs out)",
            rule="AH IV; WBC Adjudication; LoLV 1.09.05",
            player=None,
            field="results",
        )
    if all(r.result is R.DROPOUT for r in rows):
        _contradiction("every seat dropped out", rule="WBC Dropouts", player=None, field="results")
    kinds = {r.result for r in winners}
    factions = {r.faction for r in rows}
    first = winners[0]
    if len(kinds) > 1:
        end_game_tie = kinds <= {R.END_GAME_SOLO, R.END_GAME_ALLIED}
        if not end_game_tie:
            other = next(r for r in winners if r.result is not first.result)
            _contradiction(
                f"wins as {other.result.value!r} while {first.player!r} wins as {first.result.value!r};"
                " a game has one winning side",
                rule=system.single_winner_rule,
                player=other.player,
                value=other.result.value,
            )
    kind = first.result
    count = len(winners)

    for r in winners:
        allowed = ENDINGS[r.result]
        if result.ended_by not in allowed:
            _contradiction(
                f"a {r.result.value!r} win cannot end a game by {result.ended_by!r}"
                f" (expected {sorted(allowed)!r})",
                rule=_ending_rule(r.result),
                player=r.player,
                value=r.result.value,
            )

    if kinds <= {R.END_GAME_SOLO, R.END_GAME_ALLIED}:
        # LoLV 1.09.05 / AH IV.C.1: every player with the most strongholds wins.
        if FREMEN in factions or GUILD in factions:
            _contradiction(
                "an end-game win is only possible with neither Guild nor Fremen in the game",
                rule="LoLV 1.09.05; AH IV.C.1",
                player=first.player,
                value=kind.value,
            )
        allied = [r for r in winners if r.result is R.END_GAME_ALLIED]
        if allied and len(allied) != 2:
            _contradiction(
                f"{len(allied)} rows share an allied end-game win; an alliance has two members",
                rule="LoLV 1.09.05; glossary 'Alliance'",
                player=allied[0].player,
                value=kind.value,
            )
        _check_alliance_membership(result, allied)
    elif kind in SOLO_KINDS:
        if count > 1:
            if kind is R.SOLO_STRONGHOLD and count == 2 and system.simultaneous_solo_rule is not None:
                pass  # WBC QP: two simultaneous unallied solo victories both earn full credit.
            else:
                rule = system.single_winner_rule if kind is R.SOLO_STRONGHOLD else _kind_rule(kind)
                _contradiction(
                    f"{count} rows won a solo {kind.value!r}; a solo win has one winner",
                    rule=rule,
                    player=winners[1].player,
                    value=kind.value,
                )
        for r in winners:
            ally = result.ally_of(r.player)
            if ally and kind is not R.BG_PREDICTION:
                _contradiction(
                    f"a solo {kind.value!r} winner cannot be allied (allied with {list(ally)!r})",
                    rule="WBC House Rules: no solo victory while allied",
                    player=r.player,
                    value=kind.value,
                )
    elif kind in ALLIED_KINDS:
        if count != 2:
            _contradiction(
                f"{count} rows share {kind.value!r}; an allied win has exactly two members"
                + (" (a 3-faction alliance is 'three_alliance')" if count == 3 else ""),
                rule="WBC QP; LoLV glossary 'Alliance'",
                player=winners[-1].player,
                value=kind.value,
            )
        _check_alliance_membership(result, winners)
    elif kind is R.THREE_ALLIANCE:
        if count != 3:
            _contradiction(
                f"{count} rows share 'three_alliance'; it has exactly three members",
                rule=system.three_alliance_rule or "WBC House Rules",
                player=winners[-1].player,
                value=kind.value,
            )
        if len(rows) != 6 or result.is_final:
            _contradiction(
                "3-faction alliances exist only at a 6-player heat table",
                rule="WBC House Rules; WBC Final Round Format",
                player=first.player,
                value=kind.value,
            )
        _check_alliance_membership(result, winners)
    elif kind is R.ADJUDICATED:
        limit = (
            3 if (system.three_alliance_rule is not None and len(rows) == 6 and not result.is_final) else 2
        )
        if count > limit:
            _contradiction(
                f"{count} rows share an adjudicated win; the winner is one player or one alliance"
                f" of at most {limit}",
                rule="WBC Adjudication; LoLV 4.01.09.10",
                player=winners[-1].player,
                value=kind.value,
            )
        if count > 1:
            _check_alliance_membership(result, winners)
        elif result.ally_of(first.player):
            ally = result.ally_of(first.player)
            _contradiction(
                f"the adjudicated winner's ally {list(ally)!r} must share the win",
                rule="WBC Adjudication (alliances summed)",
                player=ally[0],
                value="loss",
            )

    _check_factions(system, result, kind, winners)
    _check_allies_share(result)


def _check_alliance_membership(result: TableResult, winners: list[ReportRow]) -> None:
    """Rows sharing an allied win must be one recorded alliance, when alliances were recorded."""
    if not result.alliances or not winners:
        return
    group = frozenset(r.player for r in winners)
    if group not in result.alliances:
        _contradiction(
            f"the rows sharing {winners[0].result.value!r} ({sorted(group, key=player_sort_key)!r})"
            " are not one recorded alliance",
            rule="issue 6: allies share a result",
            player=winners[0].player,
            field="alliances",
            value=winners[0].result.value,
        )


def _check_allies_share(result: TableResult) -> None:
    """Members of a recorded alliance share a result; a BG prediction wins alone (AH IV.A)."""
    for alliance in result.alliances:
        members = [result.row(p) for p in sorted(alliance, key=player_sort_key)]
        live = [m for m in members if m.result is not R.DROPOUT]
        if any(m.result is R.BG_PREDICTION for m in live):
            continue
        if len({m.result for m in live}) > 1:
            odd = next(m for m in live if m.result is not live[0].result)
            _contradiction(
                f"allies must share a result: {live[0].player!r} has {live[0].result.value!r},"
                f" {odd.player!r} has {odd.result.value!r}",
                rule="issue 6: allies share a result",
                player=odd.player,
                value=odd.result.value,
            )


def _check_factions(
    system: PointsSystem, result: TableResult, kind: ResultKind, winners: list[ReportRow]
) -> None:
    factions_at_table = {r.faction for r in result.rows}
    winning = {r.faction for r in winners}
    first = winners[0]
    if kind is R.BG_PREDICTION and first.faction != BG:
        _contradiction(
            f"a BG prediction is won by the Bene Gesserit seat, not {first.faction!r}",
            rule="AH IV.A; LoLV 2.02.03",
            player=first.player,
            value=kind.value,
        )
    if kind in (
        R.FREMEN_SPECIAL_SOLO,
        R.FREMEN_SPECIAL_ALLIED,
        R.FREMEN_DEFAULT_SOLO,
        R.FREMEN_DEFAULT_ALLIED,
    ):
        if FREMEN not in winning:
            _contradiction(
                f"a {kind.value!r} win needs the Fremen among the winners (winners play"
                f" {sorted(str(f) for f in winning)!r})",
                rule=_kind_rule(kind),
                player=first.player,
                value=kind.value,
            )
    if kind in (R.FREMEN_DEFAULT_SOLO, R.FREMEN_DEFAULT_ALLIED) and GUILD in factions_at_table:
        _contradiction(
            "the Fremen win by default only when the Guild is not in the game",
            rule="AH IV.C.1; LoLV 1.09.05",
            player=first.player,
            value=kind.value,
        )
    if (
        kind in (R.FREMEN_SPECIAL_SOLO, R.FREMEN_SPECIAL_ALLIED)
        and system.fremen_special_needs_guild_rule is not None
        and GUILD not in factions_at_table
    ):
        _contradiction(
            "the Fremen special victory applies only with the Guild in the game (else it is the"
            " Fremen default)",
            rule=system.fremen_special_needs_guild_rule,
            player=first.player,
            value=kind.value,
        )
    if kind in (R.GUILD_DEFAULT_SOLO, R.GUILD_DEFAULT_ALLIED) and GUILD not in winning:
        _contradiction(
            f"a {kind.value!r} win needs the Guild among the winners",
            rule=_kind_rule(kind),
            player=first.player,
            value=kind.value,
        )
    if kind in (R.FREMEN_SPECIAL_SOLO, R.GUILD_DEFAULT_SOLO, R.FREMEN_DEFAULT_SOLO):
        needed = GUILD if kind is R.GUILD_DEFAULT_SOLO else FREMEN
        if first.faction != needed:
            _contradiction(
                f"a {kind.value!r} win belongs to the {needed} seat, not {first.faction!r}",
                rule=_kind_rule(kind),
                player=first.player,
                value=kind.value,
            )
    if result.ended_by == "concession" and kind not in STRONGHOLD_KINDS:
        _contradiction(
            "a concession is recorded as the stronghold victory it concedes",
            rule="WBC Concessions; issue 6",
            player=first.player,
            value=kind.value,
        )


def _kind_rule(kind: ResultKind) -> str:
    return {
        R.BG_PREDICTION: "AH IV.A; LoLV 2.02.03",
        R.FREMEN_SPECIAL_SOLO: "AH IV.B; LoLV 2.04.09",
        R.FREMEN_SPECIAL_ALLIED: "AH IV.B; LoLV 2.04.12",
        R.GUILD_DEFAULT_SOLO: "AH IV.C; LoLV 2.06.08",
        R.GUILD_DEFAULT_ALLIED: "AH IV.C; LoLV 2.06.11",
        R.FREMEN_DEFAULT_SOLO: "AH IV.C.1; LoLV 1.09.05",
        R.FREMEN_DEFAULT_ALLIED: "AH IV.C.1; LoLV 1.09.05",
        R.END_GAME_SOLO: "AH IV.C.1; LoLV 1.09.05",
    }.get(kind, "AH IV")


def _ending_rule(kind: ResultKind) -> str:
    if kind is R.ADJUDICATED:
        return "WBC Adjudication; LoLV 4.01.08"
    if kind in END_OF_PLAY_KINDS:
        return _kind_rule(kind) + " (decided at the end of the last turn)"
    if kind is R.BG_PREDICTION:
        return "AH IV.A; LoLV 2.02.03 (a prediction comes true on a stronghold win)"
    return "AH IV; WBC Concessions"
