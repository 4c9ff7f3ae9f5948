"""What differs between two game reports, field by field.

One derivation for every comparison of reports: a refiling against the version it replaces
(the report's history), and a filed report against the report its table's game record drafts
(the differences a correction shows beside the filed values). Both reports are in the shape
`POST /api/tables/{id}/report/` takes (or the stored shape, `report_to_data`); statistics left
out count as 0 (WBC Advancement to Finals), and decimals compare by value ("9.50" is "9.5").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dune.points.base import PlayerId, player_sort_key
from dune.points.numbers import to_fraction
from dune.points.report import DECIMAL_FIELDS, INT_FIELDS
from dune.points.serialize import exact_decimal

#: The report's own fields (not a row's), in the order a history lists them.
REPORT_FIELDS: tuple[str, ...] = ("turns", "ended_by", "predicted", "alliances")
#: A row's fields, in the order the report form shows them.
ROW_FIELDS: tuple[str, ...] = ("result", *INT_FIELDS[:-1], *DECIMAL_FIELDS, INT_FIELDS[-1])


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One field that differs: `player` names the row (None for the report's own fields);
    `before` and `after` are plain JSON values (decimals as exact decimal text)."""

    field: str
    player: PlayerId | None
    before: Any
    after: Any

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "player": self.player, "before": self.before, "after": self.after}


def _decimal(value: object) -> object:
    if value is None or value == "":
        return "0"
    try:
        return exact_decimal(to_fraction(value))
    except (TypeError, ValueError):
        return value


def _count(value: object) -> object:
    return 0 if value is None or value == "" else value


def _row_value(row: Mapping[str, Any], name: str) -> object:
    if name in DECIMAL_FIELDS:
        return _decimal(row.get(name))
    if name in INT_FIELDS:
        return _count(row.get(name))
    return row.get(name)


def _alliances(value: object) -> object:
    if not isinstance(value, list) or not value:
        return []
    groups = [sorted(g, key=player_sort_key) if isinstance(g, list) else g for g in value]
    return sorted(groups, key=lambda g: [player_sort_key(p) for p in g] if isinstance(g, list) else [])


def _top_value(report: Mapping[str, Any], name: str) -> object:
    if name == "alliances":
        return _alliances(report.get(name))
    return report.get(name)


def _rows(report: Mapping[str, Any]) -> dict[Any, Mapping[str, Any]]:
    rows = report.get("results")
    if not isinstance(rows, list):
        return {}
    return {row["player"]: row for row in rows if isinstance(row, Mapping) and "player" in row}


def report_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[FieldChange, ...]:
    """Every field whose value differs from `before` to `after`: the report's own fields
    first, then each row's (in `after`'s row order, then rows only `before` has), each in the
    form's order. A row only one side has is listed field by field against nothing (None)."""
    changes: list[FieldChange] = []
    for name in REPORT_FIELDS:
        old, new = _top_value(before, name), _top_value(after, name)
        if old != new:
            changes.append(FieldChange(name, None, old, new))
    old_rows, new_rows = _rows(before), _rows(after)
    players = list(new_rows) + [p for p in old_rows if p not in new_rows]
    for player in players:
        old_row, new_row = old_rows.get(player), new_rows.get(player)
        for name in ROW_FIELDS:
            old = None if old_row is None else _row_value(old_row, name)
            new = None if new_row is None else _row_value(new_row, name)
            if old != new:
                changes.append(FieldChange(name, player, old, new))
    return tuple(changes)


__all__ = ["FieldChange", "REPORT_FIELDS", "ROW_FIELDS", "report_changes"]
