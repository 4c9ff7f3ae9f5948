"""Correcting a filed report: where the form starts, and what each filing changed.

A correction starts from what was filed, never from the game record drafted again: the form's
starting values (`report_draft`) are the filed report's once a report exists (filed, or
reopened for correction), with the game record's differences beside them; before the first
filing they are the game record's draft. Filing the form again changes only what the judge
changed. The history (`report_history`) lists each filing's changes field by field
(`dune.points.changes.report_changes`, the one comparison of two reports), by whom and why
(the reason the report was reopened with).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from dune.points.changes import FieldChange, report_changes
from dune.points.report import REPORT_KEYS, ROW_KEYS
from dune.refusals import Refusal
from gameplay.services import prefill_report
from scoring.models import GameReport, ReportRevision
from tournament.models import Table

log = logging.getLogger(__name__)

#: Every field of a report in words (the form's labels, the history's changes).
FIELD_WORDS: dict[str, Any] = {
    "turns": _("Turns played"),
    "ended_by": _("Ended by"),
    "predicted": _("Predicted player"),
    "alliances": _("Alliances at the end"),
    "result": _("Result"),
    "win_attempts": _("Win attempts"),
    "strongholds": _("Strongholds"),
    "forces": _("Forces"),
    "tokens": _("Tokens"),
    "spice": _("Spice"),
    "cards": _("Cards"),
    "leaders": _("Leaders"),
    "pp": _("Performance points"),
    "die": _("Die roll"),
}

#: Where a draft's values come from.
FILED = "filed"
GAME_RECORD = "game_record"


@dataclass(frozen=True)
class ReportDraft:
    """The report form's starting values, in the shape `POST /api/tables/{id}/report/` takes;
    `source` says whose they are (`filed` or `game_record`); `differences` lists where the game
    record's draft differs from the filed values (empty before the first filing)."""

    report: dict[str, Any]
    source: str
    differences: tuple[FieldChange, ...] = ()
    #: The game record's draft, when there is one (None when the seating cannot start a game).
    game_record: dict[str, Any] | None = None


def postable(data: dict[str, Any]) -> dict[str, Any]:
    """A stored report in the shape the filing takes (only the keys a report has)."""
    out = {k: v for k, v in data.items() if k in REPORT_KEYS}
    out["results"] = [{k: v for k, v in row.items() if k in ROW_KEYS} for row in data.get("results", [])]
    return out


def game_record_draft(table: Table) -> dict[str, Any] | None:
    """The report the table's game record drafts, or None when there is no game to read."""
    try:
        return prefill_report(table)
    except (ValidationError, Refusal) as exc:
        log.info("no game record draft for table %s: %s", table.pk, exc)
        return None


def report_draft(table: Table, *, report: GameReport | None = None) -> ReportDraft:
    """The report form's starting values for `table` (see the module's docstring)."""
    if report is None:
        report = GameReport.objects.filter(table=table).first()
    record = game_record_draft(table)
    if report is not None and (report.data or {}).get("results"):
        filed = postable(report.data)
        differences = report_changes(filed, record) if record is not None else ()
        return ReportDraft(report=filed, source=FILED, differences=differences, game_record=record)
    empty: dict[str, Any] = {"turns": None, "ended_by": None, "results": []}
    return ReportDraft(report=record if record is not None else empty, source=GAME_RECORD, game_record=record)


@dataclass(frozen=True)
class HistoryEntry:
    """One filing or reopening: who, when, why, and (for a refiling) each field it changed."""

    action: str
    version: int
    user: str | None
    at: Any
    reason: str
    changes: tuple[FieldChange, ...] = ()


def report_history(report: GameReport) -> list[HistoryEntry]:
    """The report's filings and reopenings in order (one query). A refiling carries the fields
    it changed against the filing it replaces, and the reason the report was reopened with."""
    revisions = list(report.revisions.select_related("user").order_by("at", "id"))
    out: list[HistoryEntry] = []
    previous: dict[str, Any] | None = None
    why = ""
    for rev in revisions:
        user = rev.user.get_username() if rev.user else None
        if rev.action == ReportRevision.Action.REOPENED:
            why = rev.reason
            out.append(HistoryEntry(rev.action, rev.version, user, rev.at, rev.reason))
            continue
        data = rev.data or {}
        changes = report_changes(previous, data) if previous is not None else ()
        out.append(HistoryEntry(rev.action, rev.version, user, rev.at, why if previous is not None else "", changes))
        previous, why = data, ""
    return out


def history_json(entries: list[HistoryEntry]) -> list[dict[str, Any]]:
    return [
        {
            "action": e.action,
            "version": e.version,
            "by": e.user,
            "at": e.at.isoformat(),
            "reason": e.reason,
            "changes": [c.to_dict() for c in e.changes],
        }
        for e in entries
    ]
