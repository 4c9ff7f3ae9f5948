"""Pages: the head judge's round clocks dashboard and a table's clock with its history.

Both read without JavaScript (the time left is rendered by the server from the database's
time); static/js/clock.js counts down and re-syncs after the phone sleeps. The forms post to
the same services as the API; a refused change re-renders the page with the message next to
the field.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext as _

from clocks import commands, services
from clocks.game_log import current_turn, turns_for
from clocks.models import CallTimer, ClockHistory, TableClock
from clocks.presenters import clock_view, clock_views, duration_words, left_alone, round_pause
from dune import clock_limits as limits
from dune.refusals import Refusal
from foundation import idempotency
from tournament.models import Round, Table
from tournament.permissions import can_judge_table, is_head_judge
from web.live import etag_for, live_attrs, live_fragment, round_version
from web.page_address import post_only
from web.page_text import refuse_unsafe_text, shows_text_refusals, text_refusal

#: Larger ids cannot exist (bigint): a 404, not a database range error.
MAX_ID = 2**63 - 1


def _get(queryset: Any, pk: int) -> Any:
    if pk > MAX_ID:
        raise Http404(_("No such object."))
    return get_object_or_404(queryset, pk=pk)


def _round_rows(round_: Round, now: Any) -> list[dict[str, Any]]:
    tables = list(round_.tables.select_related("round__tournament", "judge").order_by("number"))
    return clock_views(tables, now=now, turns=turns_for(t.pk for t in tables))


def round_dashboard(
    request: HttpRequest, pk: int, *, errors: dict[int, dict[str, str]] | None = None, status: int = 200
) -> HttpResponse:
    round_ = _get(Round.objects.select_related("tournament"), pk)
    now = services.db_now()
    rows = _round_rows(round_, now)
    errors = errors or {}
    for row in rows:
        row["errors"] = errors.get(row["table"].pk, {})
        row["values"] = request.POST if row["errors"] else {}  # a refused form keeps what was typed
    limit = round_.tournament.rules.clock(round_.kind)
    context = {
        "round": round_,
        "tournament": round_.tournament,
        "rows": rows,
        "server_now": now,
        "limit": limit,
        "grace_ends": limits.grace_ends(limit, round_.starts_at),
        "can_manage": is_head_judge(request.user, round_.tournament),
        "round_error": errors.get(0, {}).get("round", ""),
        # A start long before the scheduled one is asked about first (`limits.early_by`).
        "early_asked": errors.get(0, {}).get("early") == "yes",
        "early_words": duration_words(early) if (early := limits.early_by(round_.starts_at, now)) else "",
        "round_reason": request.POST.get("reason", "") if 0 in errors else "",
        "round_pause": round_pause(round_),
        "paused_count": sum(1 for row in rows if row["paused"]),
        # What "Start all clocks" would do now: start the clocks of tables not started yet.
        "not_started": sum(1 for row in rows if row["state"] == limits.PENDING),
    }
    url = reverse("clocks-round", args=[round_.pk])
    name = f"clocks:{round_.pk}"
    version = (*round_version(round_), tuple(sorted(errors)))
    if request.htmx and request.htmx.target == "clocks-live" and request.method == "GET":
        return live_fragment(
            request,
            name=name,
            version=version,
            render=lambda etag: render_to_string(
                "clocks/_dashboard_live.html", {**context, **live_attrs(url, etag)}, request=request
            ),
            shared=False,
        )
    context.update(live_attrs(url, etag_for(f"{name}:user{getattr(request.user, 'pk', None)}", version)))
    return render(request, "clocks/round.html", context, status=status)


def table_clock_page(
    request: HttpRequest, pk: int, *, errors: dict[str, str] | None = None, failed: str = "", status: int = 200
) -> HttpResponse:
    """A table's clock; after a refused action (`failed`) the message sits next to its field
    in that action's form, which keeps what was typed."""
    table = _get(Table.objects.select_related("round__tournament", "judge"), pk)
    now = services.db_now()
    clock = TableClock.objects.filter(table=table).select_related("table__round__tournament").first()
    turn = current_turn(table) if clock is not None and clock.started_at is not None else None
    history = (
        ClockHistory.objects.filter(clock=clock).select_related("by").order_by("-at", "-id")[:200]
        if clock
        else []
    )
    factions = services.table_factions(table)
    used = services.chips_used(table)
    rules = table.round.tournament.rules
    context = {
        "table": table,
        "round": table.round,
        "c": clock_view(table, clock, now=now, turn=turn),
        "server_now": now,
        "history": history,
        "calls": CallTimer.objects.filter(table=table).order_by("-started_at")[:50],
        "running_calls": services.running_calls(table),
        "call_rules": table.round.tournament.rules.call_timers,
        "factions": factions,
        "chips": [(f, rules.diplomacy_chips - used.get(f, 0)) for f in factions] if rules.diplomacy_chips else [],
        "can_manage": is_head_judge(request.user, table.round.tournament),
        "can_judge": can_judge_table(request.user, table),
        "errors": errors or {},
        "failed": failed,
        "values": request.POST if failed else {},
    }
    return render(request, "clocks/table.html", context, status=status)


#: The fields the clock forms show a refusal next to (any other goes at the top).
FORM_FIELDS = ("minutes", "reason", "faction", "action")


def _field_of(exc: Refusal) -> str:
    """The form field a refusal is shown next to: its own field, or the field its rule is about."""
    if exc.field in FORM_FIELDS:
        return exc.field
    rule = getattr(exc, "rule", "")
    if rule in ("minutes", "extension") or isinstance(exc, limits.InvalidDuration):
        return "minutes"
    if rule in ("reason", "faction", "timer"):
        return rule
    if rule == limits.CALL_RULE and isinstance(exc, limits.UnknownLimit):
        return "action"
    if rule == limits.CHIPS_RULE:
        return "faction"
    return "form"


def _key(request: HttpRequest) -> str | None:
    return request.POST.get(idempotency.FORM_FIELD)


def _not_allowed(request: HttpRequest, message: str) -> HttpResponse:
    """A command refused for who may do it: the styled 403 page with its words; the phone's
    outbox (X-Outbox) reads the words alone."""
    if request.headers.get("X-Outbox"):
        return HttpResponse(escape(message), status=403)
    raise PermissionDenied(message)


def _table_page(request: HttpRequest, pk: int, action: str) -> str:
    """The page a table clock's form is on: the round's clocks or the table's clock."""
    if request.POST.get("next") == "round":
        round_id = Table.objects.filter(pk=pk).values_list("round_id", flat=True).first()
        if round_id is not None:
            return reverse("clocks-round", args=[round_id])
    return reverse("clocks-table", args=[pk])


@shows_text_refusals
@post_only(_table_page)
def table_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """A clock form's post: `clocks.commands.change_table_clock`, the answer as a message."""
    table = _get(Table.objects.select_related("round__tournament"), pk)
    back = request.POST.get("next", "table")
    if action not in commands.TABLE_ACTIONS:
        return HttpResponse(escape(f"unknown clock action {action!r}"), status=404)
    try:
        refuse_unsafe_text(request)
        changed = commands.change_table_clock(table, action, request.POST, actor=request.user, key=_key(request))
    except Refusal as exc:  # a text refusal too
        if exc.status == 403:
            return _not_allowed(request, exc.message)
        errors = {_field_of(exc): str(exc)}
        if back == "round":
            return round_dashboard(request, table.round_id, errors={table.pk: errors}, status=400)
        return table_clock_page(request, pk, errors=errors, failed=action, status=400)
    messages.success(request, changed.message)
    if back == "round":
        return HttpResponseRedirect(reverse("clocks-round", args=[table.round_id]) + f"#table-{table.number}")
    return HttpResponseRedirect(reverse("clocks-table", args=[pk]))


@shows_text_refusals
@post_only(lambda request, pk, action: reverse("clocks-round", args=[pk]))
def round_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """A round clocks form's post: `clocks.commands.change_round_clocks`."""
    round_ = _get(Round.objects.select_related("tournament"), pk)
    if action not in commands.ROUND_ACTIONS:
        return HttpResponse(escape(f"unknown round clock action {action!r}"), status=404)
    if (refused := text_refusal(request)) is not None:
        return round_dashboard(request, pk, errors={0: {"round": refused.message}}, status=400)
    try:
        changed = commands.change_round_clocks(round_, action, request.POST, actor=request.user, key=_key(request))
    except Refusal as exc:
        if exc.status == 403:
            return _not_allowed(request, exc.message)
        asked = {"early": "yes"} if exc.field == "early" else {}
        return round_dashboard(request, pk, errors={0: {"round": exc.message, **asked}}, status=exc.status)
    messages.success(request, changed.message)
    if why := left_alone(round_, changed.body["tables_skipped"], action):
        messages.info(request, _("Left alone: %(value)s.") % {"value": '; '.join(why)})
    return HttpResponseRedirect(reverse("clocks-round", args=[pk]))
