"""Template tags that show clocks.

`{% table_clock table %}` renders a table's countdown (readable without JavaScript; counted
down by static/js/clock.js from the server's time); `{% round_clocks round %}` renders every
table clock of a round as a compact list. `{{ seconds|hms }}` formats a time left.
"""

from __future__ import annotations

from typing import Any

from django import template

from clocks.dbtime import db_now
from clocks.game_log import current_turn
from clocks.models import TableClock
from clocks.presenters import clock_view, clock_views
from clocks.presenters import hms as _hms
from dune import clock_limits as limits

register = template.Library()


@register.inclusion_tag("clocks/_table_clock.html")
def table_clock(table: Any) -> dict[str, Any]:
    clock = TableClock.objects.filter(table=table).select_related("table__round__tournament").first()
    turn = current_turn(table) if clock is not None and clock.started_at is not None else None
    now = db_now()
    return {"c": clock_view(table, clock, now=now, turn=turn), "server_now": now}


@register.inclusion_tag("clocks/_round_clocks.html")
def round_clocks(round_: Any) -> dict[str, Any]:
    now = db_now()
    rows = clock_views(list(round_.tables.select_related("round__tournament").order_by("number")), now=now)
    return {"round": round_, "rows": rows, "server_now": now}


@register.filter
def hms(seconds: float | None) -> str:
    return _hms(seconds)


@register.filter
def stage(state: Any) -> str:
    """A clock's state in words (`last_30` -> "Last 30 minutes"; empty -> "—")."""
    if not state:
        return "—"
    return limits.STATE_LABELS.get(str(state), str(state).replace("_", " ").capitalize())


@register.filter
def call_action(action: Any) -> str:
    """A call-the-clock action in words, as its time guideline names it."""
    rule = limits.CALL_TIMERS.get(str(action))
    return rule.label if rule is not None else str(action).replace("_", " ").capitalize()
