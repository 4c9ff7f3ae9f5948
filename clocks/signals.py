"""A table's game ends with its filed report: its clock stops then, in the filing's transaction,
and closing a round stops every clock of its tables. Scoring and tournament stay unaware of the
clocks: these receivers listen to their models' own save signals (as ratings does)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save

from clocks import services
from clocks.models import TableClock
from dune import clock_limits as limits


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


def report_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.state == "filed":
        _stop([instance.table_id], "the game report is filed")


def round_saved(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if instance.state == "finished" and (update_fields is None or "state" in update_fields):
        _stop(instance.tables.values_list("pk", flat=True), "the round is closed")


def connect() -> None:
    post_save.connect(report_saved, sender="scoring.GameReport", dispatch_uid="clocks.report_saved")
    post_save.connect(round_saved, sender="tournament.Round", dispatch_uid="clocks.round_saved")
