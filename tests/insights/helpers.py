"""Builders of hand-made tournaments for the event report's tests: every game goes through
`validate_report`, so each one is a report the platform would have accepted."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from dune.clock_limits import Interval
from dune.event_report.figures import ClockRecord, SeatRecord
from dune.formats import get_format
from dune.points import TableResult, validate_report

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
NO_GUILD = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen")
#: A LoLV table with neither Fremen nor Guild, where the most-strongholds end-game win exists.
NO_FREMEN_NO_GUILD = ("atreides", "bene_gesserit", "emperor", "harkonnen", "ixians", "tleilaxu")
START = datetime(2026, 7, 28, 9, 0, tzinfo=UTC)


def game(
    table: int,
    players: Sequence[int],
    factions: Sequence[str],
    won: dict[str, str],
    *,
    format: str = "wbc",
    turns: int = 6,
    ended_by: str = "victory",
    round_number: int = 1,
    is_final: bool = False,
    alliances: Sequence[Sequence[str]] = (),
    dropouts: Sequence[str] = (),
    pp: dict[str, str] | None = None,
) -> TableResult:
    """A validated report: `won` maps winning factions to their result kind, `dropouts` names
    factions that dropped out, everyone else lost."""
    seats = dict(zip(players, factions, strict=True))
    by_faction = {f: p for p, f in seats.items()}
    rows: list[dict[str, Any]] = []
    for player, faction in seats.items():
        result = won.get(faction) or ("dropout" if faction in dropouts else "loss")
        rows.append({"player": player, "result": result, "pp": (pp or {}).get(faction, "0")})
    data: dict[str, Any] = {"turns": turns, "ended_by": ended_by, "results": rows}
    if alliances:
        data["alliances"] = [[by_faction[f] for f in group] for group in alliances]
    return validate_report(
        format,
        data,
        seats,
        ruleset=get_format(format).ruleset,
        table=table,
        round_number=round_number,
        is_final=is_final,
    )


def seats_of(result: TableResult, *, table_number: int) -> list[SeatRecord]:
    return [
        SeatRecord(
            table=result.table,
            table_number=table_number,
            round_number=result.round_number,
            is_final=result.is_final,
            player=row.player,
            seat=i,
            faction=row.faction,
        )
        for i, row in enumerate(result.rows, start=1)
    ]


def clock(table: int, *, hours: float, pause_minutes: int = 0) -> ClockRecord:
    """A clock that ran `hours` of play, with one pause of `pause_minutes` an hour in."""
    pauses: tuple[Interval, ...] = ()
    if pause_minutes:
        pause_at = START + timedelta(hours=1)
        pauses = (Interval(pause_at, pause_at + timedelta(minutes=pause_minutes)),)
    end = START + timedelta(hours=hours, minutes=pause_minutes)
    return ClockRecord(table=table, started_at=START, ended_at=end, pauses=pauses)
