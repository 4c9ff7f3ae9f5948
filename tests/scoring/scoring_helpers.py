"""Tiny builders for in-memory game results used by the scoring tests."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dune.engine.ids import ResultKind
from dune.formats import FORMATS, get_format
from dune.points import ReportRow, TableResult, validate_report

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")


def row(player: int | str, result: str, **stats: Any) -> ReportRow:
    for name in ("tokens", "pp"):
        if name in stats:
            stats[name] = Fraction(stats[name])
    return ReportRow(player=player, result=ResultKind(result), **stats)


def table(
    *rows: ReportRow, round_number: int = 1, table_id: object = None, turns: int = 7, **kw: Any
) -> TableResult:
    return TableResult(rows=rows, turns=turns, round_number=round_number, table=table_id, **kw)


def game(
    winners: dict[int | str, str],
    losers: tuple[int | str, ...] = (),
    *,
    round_number: int = 1,
    stats: dict[int | str, dict[str, Any]] | None = None,
) -> TableResult:
    """A table where `winners` map to their kind and every id in `losers` lost."""
    stats = stats or {}
    rows = [row(p, k, **stats.get(p, {})) for p, k in winners.items()]
    rows += [row(p, "loss", **stats.get(p, {})) for p in losers]
    return table(
        *rows, round_number=round_number, table_id=f"r{round_number}-{min(map(str, [*winners, *losers]))}"
    )


def validated(fmt: str, report: object, seats: Any, **kw: Any) -> TableResult:
    """`validate_report` under the format's own ruleset (the engine's adjudicator judges the result)."""
    kw.setdefault("ruleset", get_format(fmt).ruleset if fmt in FORMATS else "wbc2018")
    return validate_report(fmt, report, seats, **kw)
