"""The game report drafted from a table's game (scoring files it).

The report's shape is scoring's: `{"turns", "ended_by", "results": [{"player",
"result", "win_attempts", "strongholds", "forces", "tokens", "spice", "cards", "leaders", "pp",
"die"}]}` plus the optional `predicted` and `alliances`. The draft reads the engine's
answer: how the game ended, the end-of-game statistics (LoLV 4.01.07, WBC adjudication
criteria), the win attempts confirmed (LoLV 4.01.04) and the PP of every turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameplay.engine.ids import ResultKind

STATS: tuple[str, ...] = ("strongholds", "forces", "tokens", "spice", "cards", "leaders")


def draft_report(*, game: Any, seats: Sequence[Any]) -> dict[str, Any]:
    """The report a judge confirms: one row per seat, everything read from the engine's
    snapshot and evaluation (its `outcome`, `stats`, `pp_total`, and per faction the
    win attempts, dropout and recorded die roll)."""
    answer: Mapping[str, Any] = game.evaluation or {}
    snapshot: Mapping[str, Any] = game.position or {}
    outcome: Mapping[str, Any] = answer.get("outcome") or {}
    kind_of: dict[str, str] = {}
    for side in outcome.get("sides") or []:
        for faction in side["factions"]:
            kind_of[faction] = side["kind"]
    for faction in outcome.get("winners") or []:
        kind_of.setdefault(faction, outcome["kind"])
    stats: Mapping[str, Any] = answer.get("stats") or {}
    sheets: Mapping[str, Any] = snapshot.get("factions") or {}
    pp: Mapping[str, Any] = answer.get("pp_total") or {}
    player_of = {s.faction: s.player_id for s in seats}
    rows = []
    for seat in seats:
        faction = seat.faction
        sheet = sheets.get(faction) or {}
        stat = stats.get(faction) or {}
        if sheet.get("dropped"):
            result = ResultKind.DROPOUT.value
        else:
            result = kind_of.get(faction, ResultKind.LOSS.value)
        row: dict[str, Any] = {"player": seat.player_id, "faction": faction, "result": result,
                               "win_attempts": int(stat.get("win_attempts", sheet.get("win_attempts")) or 0)}
        for key in STATS:
            if stat.get(key) is not None:  # unknown in quick tracking: left out, counts as 0 (WBC)
                row[key] = stat[key]
        if pp.get(faction) is not None:
            row["pp"] = pp[faction]
        if sheet.get("die") is not None:
            row["die"] = sheet["die"]
        rows.append(row)
    report: dict[str, Any] = {
        "turns": int(snapshot.get("turn") or 0),
        "ended_by": outcome.get("ended_by"),
        "results": rows,
    }
    prediction = snapshot.get("bg_prediction")
    if outcome.get("kind") == "bg_prediction" and isinstance(prediction, Mapping):
        predicted = player_of.get(prediction.get("faction", ""))
        if predicted is not None:
            report["predicted"] = predicted
    alliances = [[player_of[f] for f in group if f in player_of] for group in snapshot.get("alliances") or []]
    if alliances:
        report["alliances"] = alliances
    return report
