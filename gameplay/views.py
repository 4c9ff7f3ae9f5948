"""The table judge's pages: the game at a glance with its quick actions, the history, the report.

Every action is a plain server-rendered form (works without JavaScript) that carries the
sequence number it was made against. A refused form is shown again with the engine's rule
next to the field; a stale one (the game moved on) shows what changed and records nothing.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from gameplay import actions, presenters, services
from gameplay.api import load_table, published_game
from gameplay.engine.errors import RuleViolation
from gameplay.engine.ids import ResultKind
from gameplay.engine.results import ENDED_BY
from gameplay.page import page_context
from refusals import Refusal
from scoring import services as scoring
from tournament.permissions import can_judge_table, is_head_judge

#: Where the page scrolls back to after an action (the form's section).
ANCHORS = {
    "advance_phase": "flow", "advance_turn": "flow", "place_storm": "flow", "move_storm": "flow", "worm": "flow",
    "form_alliance": "nexus", "break_alliance": "nexus", "quick_record": "quick",
    "confirm_win_attempt": "attempts", "void": "log",
}


def _field_of(error: RuleViolation, action: str, form: Any) -> str:
    """The form field an engine refusal is about, when its message names one the form has."""
    message = error.message
    if message.startswith("field '"):
        name = message.split("'")[1].split(".")[0].split("[")[0]
        if name in form:
            return name
    return ""


def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    table = load_table(pk)
    try:
        game = published_game(table)
    except ValidationError as exc:
        return render(request, "gameplay/not_ready.html", {"table": table, "problem": " ".join(exc.messages)}, status=409)
    error: dict[str, Any] | None = None
    stale: dict[str, Any] | None = None
    values: dict[str, Any] | None = None
    status = 200
    if request.method == "POST":
        if not can_judge_table(request.user, table):
            raise PermissionDenied("Only this table's judge or a head judge may record its game.")
        action = request.POST.get("action", "")
        values = {k: request.POST.get(k) for k in request.POST}
        try:
            expected = int(request.POST.get("expected_seq", ""))
        except ValueError:
            expected = -1
        try:
            event = actions.build(action, request.POST)
            if expected < 0:
                raise actions.ActionError("expected_seq", "the form lost its sequence number; reload the page")
            services.append_event(
                table, event, expected_seq=expected, user=request.user,
                reason=request.POST.get("reason", "") if action == "void" else "",
            )
        except actions.ActionError as exc:
            error = {"action": action, "field": exc.field, "message": exc.message, "rule": None}
            status = 400
        except RuleViolation as exc:
            error = {"action": action, "field": _field_of(exc, action, request.POST), "message": exc.message,
                     "rule": exc.rule}
            status = 400
        except PermissionDenied as exc:
            error = {"action": action, "field": "override_reason", "message": str(exc), "rule": None}
            status = 403
        except services.StaleWrite as exc:
            game = services.read_game(table)
            voided = services.voided_seqs(exc.changes)
            stale = {
                "expected_seq": exc.expected_seq,
                "current_seq": exc.current_seq,
                "changes": presenters.events_json(exc.changes, game=game, judge=True, voided=voided),
                "action": action,
            }
            status = 409
        else:
            messages.success(request, f"Recorded: {event['type'].replace('_', ' ')}.")
            url = reverse("gameplay-table", args=[table.pk])
            return redirect(f"{url}#{ANCHORS.get(action, 'top')}")
        game = services.read_game(table)
    context = page_context(
        request, table, game, error=error, stale=stale, values=values, filed=scoring.filed_report(table)
    )
    return render(request, "gameplay/table.html", context, status=status)


@login_required
def table_history(request: HttpRequest, pk: int) -> HttpResponse:
    """The head judge's view of a table's whole log: every event, its author, time and reason."""
    table = load_table(pk)
    if not is_head_judge(request.user, table.round.tournament):
        raise PermissionDenied("Only a head judge sees a table's full history.")
    game = published_game(table)
    events = services.game_events(game)
    voided = services.voided_seqs(events)
    rows = presenters.events_json(events, game=game, judge=True, voided=voided)
    for row in rows:
        row["json"] = json.dumps(row["event"], sort_keys=True)
    return render(request, "gameplay/history.html", {"table": table, "game": game, "rows": rows})


def _report_rows(report: dict[str, Any], seats: list[Any]) -> list[dict[str, Any]]:
    names = {s.player_id: s.player.name for s in seats}
    return [{**row, "name": names.get(row["player"], row["player"])} for row in report.get("results", [])]


REPORT_NUMBERS = ("win_attempts", "strongholds", "forces", "tokens", "spice", "cards", "leaders", "pp", "die")
REPORT_LABELS = (("win_attempts", "Win att."), ("strongholds", "Strongh."), ("forces", "Forces"), ("tokens", "Tokens"),
                 ("spice", "Spice"), ("cards", "Cards"), ("leaders", "Leaders"), ("pp", "PP"), ("die", "Die"))


def _report_from_form(form: Any, draft: dict[str, Any]) -> dict[str, Any]:
    """The judge's edits over the draft: every number and result of every row."""
    results: list[dict[str, Any]] = []
    report: dict[str, Any] = {"turns": draft.get("turns"), "ended_by": form.get("ended_by") or draft.get("ended_by"),
                              "results": results}
    try:
        report["turns"] = int(form.get("turns", report["turns"]))
    except (TypeError, ValueError):
        pass
    for key in ("predicted", "alliances"):
        if key in draft:
            report[key] = draft[key]
    for row in draft["results"]:
        prefix = f"p{row['player']}_"
        out = dict(row)
        out["result"] = form.get(prefix + "result", row["result"])
        for key in REPORT_NUMBERS:
            raw = form.get(prefix + key)
            if raw is None:
                continue
            raw = raw.strip()
            if raw == "":
                out.pop(key, None)
            elif key in ("tokens", "pp"):
                out[key] = raw
            else:
                try:
                    out[key] = int(raw)
                except ValueError:
                    out[key] = raw  # scoring refuses it with the row and field named
        results.append(out)
    return report


def table_report(request: HttpRequest, pk: int) -> HttpResponse:
    """The game report, prefilled from the position; the judge confirms it and it is filed."""
    table = load_table(pk)
    if not can_judge_table(request.user, table):
        raise PermissionDenied("Only this table's judge or a head judge may file its report.")
    game = published_game(table)
    seats = list(table.seats.select_related("player").order_by("seat"))
    draft = services.prefill_report(table)
    errors: Any = None
    status = 200
    report = draft
    if request.method == "POST":
        report = _report_from_form(request.POST, draft)
        try:
            scoring.file_report(table, report, user=request.user)
        except Refusal as refusal:
            errors = refusal.form_errors("report")
            status = 400
        else:
            messages.success(request, "The game report is filed.")
            return redirect("gameplay-table", pk=table.pk)
    context = {
        "table": table,
        "game": game,
        "report": report,
        "rows": _report_rows(report, seats),
        "errors": errors,
        "filed": scoring.filed_report(table),
        "kinds": [k.value for k in ResultKind],
        "endings": list(ENDED_BY),
        "numbers": REPORT_LABELS,
    }
    return render(request, "gameplay/report.html", context, status=status)

