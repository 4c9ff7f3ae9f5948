"""Celery tasks of the clocks: the reconcile sweep and the punctual deadline task.

`clocks.sweep` runs every 15 s (config/settings.py, exactly one beat process). It moves
every clock whose deadline has passed, so a lost task, a restarted worker or a flushed
Redis costs at most one sweep interval, and it arms `clocks.fire_deadline` with an ETA for
each deadline due within ARM_HORIZON. Never hours ahead: Redis hands an unacknowledged ETA
task to another worker after its visibility timeout, and a clock may be paused meanwhile.

Neither task is ever revoked. Both only run conditional updates (clocks/transitions.py), so
a task for a clock that was paused, extended, finished or already moved does nothing.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import shared_task

from clocks import transitions
from clocks.arming import ARM_HORIZON, arm_call_timer, arm_calls, arm_due
from clocks.dbtime import db_now
from clocks.models import CallTimer, TableClock
from dune import clock_limits as limits

__all__ = ["ARM_HORIZON", "arm_call_timer", "arm_due", "fire_deadline", "sweep"]

log = logging.getLogger(__name__)

#: A task that arrives this much early (worker and database clocks differ) waits and retries.
EARLY_SLACK = timedelta(seconds=10)


@shared_task(name="clocks.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Reconcile: move every overdue clock and call timer, write pending game-log events, and
    arm the deadline tasks of the next few minutes."""
    moved = transitions.advance(skip_locked=True)
    logged = transitions.log_time_up()
    expired = transitions.expire_calls(skip_locked=True)
    defaults = transitions.log_default_actions()
    armed = arm_due() + arm_calls(ARM_HORIZON)
    finished = transitions.finish_decided_games()
    restarted = transitions.restart_undecided_games()
    summary = {
        "finished": len(finished),
        "restarted": len(restarted),
        "moved": len(moved),
        "time_up_logged": len(logged),
        "calls_expired": len(expired),
        "defaults_logged": len(defaults),
        "armed": armed,
    }
    if any(summary.values()):
        log.info("clocks.sweep %s", summary)
    return summary


@shared_task(name="clocks.fire_deadline", bind=True, ignore_result=True, max_retries=5)
def fire_deadline(self: Any, kind: str, pk: int) -> str:
    """Move one clock (`kind` "clock") or expire one call timer (`kind` "call") if its
    deadline has passed by the database's clock. A duplicate, late or redelivered task, or
    one for a clock paused or extended since, finds nothing to do."""
    if kind == "call":
        expired = transitions.expire_calls(timer_ids=[pk], skip_locked=False)
        if expired:
            transitions.log_default_actions(timer_ids=expired)
            return "expired"
        timer = CallTimer.objects.filter(pk=pk, state=CallTimer.State.RUNNING).first()
        if timer is not None:
            _retry_if_early(self, timer.ends_at)
        return "unchanged"
    if kind != "clock":
        raise ValueError(f"fire_deadline: unknown kind {kind!r}; expected 'clock' or 'call'")
    moved = transitions.advance(clock_ids=[pk], skip_locked=False)
    if moved:
        transitions.log_time_up(clock_ids=[pk])
        arm_due(clock_ids=[pk])  # the next stage, if it is due soon
        return "moved"
    clock = TableClock.objects.filter(pk=pk, state__in=limits.LIVE_STATES, paused_at__isnull=True).first()
    if clock is not None:
        upcoming = limits.next_deadline(clock.get_deadlines(), clock.state)
        if upcoming is not None and upcoming[1] == clock.armed_for:
            _retry_if_early(self, upcoming[1])
    return "unchanged"


def _retry_if_early(task: Any, deadline: Any) -> None:
    """The task arrived before the deadline by the database's clock: try again right at it."""
    wait = deadline - db_now()
    if timedelta(0) < wait <= EARLY_SLACK:
        raise task.retry(countdown=wait.total_seconds() + 0.02)
