"""The game report drafted from a table's game (scoring files it).

The report's shape is scoring's: `{"turns", "ended_by", "results": [{"player",
"result", "win_attempts", "strongholds", "forces", "tokens", "spice", "cards", "leaders", "pp",
"die"}]}` plus the optional `predicted` and `alliances`. The draft reads the engine's
answer: how the game ended, the end-of-game statistics (LoLV 4.01.07, WBC adjudication
criteria), the win attempts confirmed (LoLV 4.01.04) and the PP of every turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dune.engine.codec.schema import SnapshotView
from dune.engine.evaluation import FactionStats
from dune.engine.ids import ResultKind
from dune.engine.numbers import decimal_str
from dune.engine.tracked_report_check import decided_kinds
from gameplay import engine_adapter as rules


def _stat_values(stat: FactionStats | None) -> dict[str, Any]:
    """The statistics a report row carries; unknown ones (quick tracking) are left out and
    count as 0 (WBC Advancement to Finals)."""
    if stat is None:
        return {}
    values: dict[str, Any] = {
        "strongholds": stat.strongholds,
        "forces": stat.forces,
        "tokens": None if stat.tokens is None else decimal_str(stat.tokens),
        "spice": stat.spice,
        "cards": stat.cards,
        "leaders": stat.leaders,
    }
    return {k: v for k, v in values.items() if v is not None}


def draft_report(*, game: Any, seats: Sequence[Any]) -> dict[str, Any]:
    """The report a judge confirms: one row per seat, everything read from the engine's
    snapshot and evaluation (its `outcome`, `stats`, `pp_total`, and per faction the
    win attempts, dropout and recorded die roll)."""
    answer = rules.answer_of(game.evaluation)
    view = SnapshotView.of(game.position)
    outcome = answer.outcome if answer is not None else None
    kind_of = decided_kinds(outcome) if outcome is not None else {}
    stats = answer.stats if answer is not None else {}
    pp = answer.pp_total if answer is not None else {}
    player_of = {s.faction: s.player_id for s in seats}
    rows = []
    for seat in seats:
        faction = seat.faction
        sheet = view.sheet(faction)
        stat = stats.get(faction)
        if sheet.dropped:
            result = ResultKind.DROPOUT.value
        else:
            result = kind_of.get(faction, ResultKind.LOSS.value)
        attempts = stat.win_attempts if stat is not None else sheet.win_attempts
        row: dict[str, Any] = {"player": seat.player_id, "faction": faction, "result": result,
                               "win_attempts": int(attempts or 0), **_stat_values(stat)}
        if pp.get(faction) is not None:
            row["pp"] = decimal_str(pp[faction])
        if sheet.die is not None:
            row["die"] = sheet.die
        rows.append(row)
    report: dict[str, Any] = {
        "turns": int(view.turn or 0),
        "ended_by": outcome.ended_by if outcome is not None else None,
        "results": rows,
    }
    if outcome is not None and outcome.kind == ResultKind.BG_PREDICTION and view.predicted_faction:
        predicted = player_of.get(view.predicted_faction)
        if predicted is not None:
            report["predicted"] = predicted
    alliances = [[player_of[f] for f in group if f in player_of] for group in view.alliances]
    if alliances:
        report["alliances"] = alliances
    return report
