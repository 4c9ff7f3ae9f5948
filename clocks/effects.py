"""A table's game ends with its filed report: its clock stops then, and closing a round stops
every clock of its tables. Scoring and tournament stay unaware of the clocks: they cause the
effect (`foundation.effects`), this app acts on it. The stop is written in the filing's (or
the closing's) own transaction: the report is filed with its clock stopped, or neither."""

from __future__ import annotations

from typing import Any

from clocks import services
from clocks.models import TableClock
from dune import clock_limits as limits
from foundation import effects
from tournament.models import Table


def _stop(table_ids: Any, reason: str) -> None:
    """Finish every started, unfinished clock of these tables (their games are over)."""
    open_clocks = (
        TableClock.objects.filter(table_id__in=table_ids, started_at__isnull=False)
        .exclude(state=limits.FINISHED)
        .select_related("table__round__tournament")
    )
    for clock in open_clocks:
        try:
            services.finish(clock.table, user=None, reason=reason)
        except services.ClockStateError:
            continue  # finished meanwhile


def report_filed(*, table_id: int, **_: Any) -> None:
    _stop([table_id], "the game report is filed")


def round_closed(*, round_id: int, **_: Any) -> None:
    _stop(Table.objects.filter(round_id=round_id).values_list("pk", flat=True), "the round is closed")


def connect() -> None:
    effects.on(effects.REPORT_FILED, report_filed, in_transaction=True)
    effects.on(effects.ROUND_CLOSED, round_closed, in_transaction=True)
