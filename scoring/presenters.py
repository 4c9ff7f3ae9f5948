"""JSON and text shapes of scoring answers (API, pages and CSV share them).

Exact Fractions leave as Decimals: halves and tenths stay exact, normalised PP scores are
rounded to three places as the WBC text shows them (1.131) with the exact value beside.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from dune.points import Award, Finalists, StandingRow
from dune.points.numbers import fmt, to_decimal
from scoring.models import GameReport
from scoring.player_states import PlayerState


def number(value: Fraction | int) -> Decimal | int:
    """An exact value for JSON: ints stay ints, Fractions become Decimals (3 places at most)."""
    if isinstance(value, int):
        return value
    if value.denominator == 1:
        return value.numerator
    return to_decimal(value)


def dotted(values: tuple[Fraction | int, ...]) -> str:
    """A tiebreak tuple the way the rule texts write it: 2.4.2.2.4.2.1."""
    return ".".join(fmt(v) for v in values)


def separated(values: tuple[Fraction | int, ...]) -> str:
    """A tiebreak tuple for pages: values apart by "·", so a decimal point never reads as a separator."""
    return " · ".join(fmt(v) for v in values)


def tiebreak_columns(labels: tuple[str, ...]) -> list[dict[str, str]]:
    """Column headings for the tiebreak values: the label in words, its rule number apart
    ("best game win attempts" with "4.01.10.01"), so every value sits under a name."""
    columns = []
    for label in labels:
        words, _, rule = label.partition(" (")
        columns.append({"heading": words, "rule": rule.rstrip(")"), "label": label})
    return columns


def points_words(value: Fraction | int) -> str:
    """Points with the right plural: "1 point", "0 points", "1.5 points"."""
    return f"{fmt(value)} point" + ("" if value == 1 else "s")


def standing_json(row: StandingRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "tied": row.tied,
        "player": row.player,
        "points": number(row.points),
        "tiebreak": [number(v) for v in row.tiebreak],
        "disqualified": row.disqualified,
        "games": row.games,
        "results": [r.value for r in row.results],
        "explanation": row.explanation,
    }


def finalists_json(finalists: Finalists, placings: Any = ()) -> dict[str, Any]:
    body: dict[str, Any] = {
        "finalists": list(finalists.finalists),
        "alternates": list(finalists.alternates),
        "drawn_by_lot": list(finalists.drawn_by_lot),
    }
    if placings:
        body["placings"] = [
            {"place": p.place, "tied": p.tied, "player": p.player, "reason": p.reason} for p in placings
        ]
    return body


def award_json(award: Award) -> dict[str, Any]:
    return {
        "faction": award.faction,
        "player": award.player,
        "score": number(award.score),
        "score_exact": f"{award.score.numerator}/{award.score.denominator}",
        "pp": number(award.pp),
        "strongholds": award.strongholds,
        "measure": award.measure,
        "figure": number(award.figure),
        "unit": award.unit,
        "turns": award.turns,
        "players": award.players,
        "round": award.round_number,
        "table": award.table,
        "tied": award.tied,
    }


def report_json(report: GameReport) -> dict[str, Any]:
    return {
        "table": report.table_id,
        "state": report.state,
        "locked": report.locked,
        "version": report.version,
        "filed_at": report.filed_at.isoformat(),
        "filed_by": report.filed_by_id,
        "reopened_at": report.reopened_at.isoformat() if report.reopened_at else None,
        "reopen_reason": report.reopen_reason,
        "report": report.data,
    }


def state_json(state: PlayerState) -> dict[str, Any]:
    """One player's derived state (`scoring.player_states`) as the API gives it."""
    return {
        "player": state.player,
        "state": state.key,
        "words": state.words,
        "in_final": state.in_final,
        "alternate": state.alternate,
        "came_in_as_alternate": state.came_in_as_alternate,
        "place": state.place,
    }
