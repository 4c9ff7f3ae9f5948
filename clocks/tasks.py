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
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.db.models import Q

from clocks import limits, transitions
from clocks.models import CallTimer, TableClock
from clocks.services import db_now

log = logging.getLogger(__name__)

#: How far ahead the sweep arms deadline tasks: a few sweeps, far inside the visibility timeout.
ARM_HORIZON = timedelta(minutes=3)
#: A task that arrives this much early (worker and database clocks differ) waits and retries.
EARLY_SLACK = timedelta(seconds=10)


def arm_due(*, clock_ids: Iterable[int] | None = None, horizon: timedelta = ARM_HORIZON) -> int:
    """Arm one `clocks.fire_deadline` task for the next deadline of each live clock due within
    `horizon`, unless one is armed for that same deadline already. Returns how many were armed.

    The claim (`armed_for`) is a conditional update, so two sweeps arm a deadline once.
    A broker failure is logged and leaves the deadline to the sweep.
    """
    now = db_now()
    until = now + horizon
    rows = TableClock.objects.filter(state__in=limits.LIVE_STATES, paused_at__isnull=True).filter(
        Q(last_30_at__lte=until) | Q(last_turn_at__lte=until) | Q(time_up_at__lte=until)
    )
    if clock_ids is not None:
        rows = rows.filter(pk__in=list(clock_ids))
    armed = 0
    for clock in rows.only("pk", "state", "last_30_at", "last_turn_at", "time_up_at", "armed_for"):
        upcoming = limits.next_deadline(clock.get_deadlines(), clock.state)
        if upcoming is None or upcoming[1] > until or clock.armed_for == upcoming[1]:
            continue
        same_arming = Q(armed_for__isnull=True) if clock.armed_for is None else Q(armed_for=clock.armed_for)
        claimed = TableClock.objects.filter(
            same_arming, pk=clock.pk, state=clock.state, **{f"{upcoming[0]}_at": upcoming[1]}
        )
        if not claimed.update(armed_for=upcoming[1]):
            continue
        try:
            fire_deadline.apply_async(args=("clock", clock.pk), eta=upcoming[1])
        except Exception:  # noqa: BLE001 - the broker is down: the sweep is the safety net
            log.exception("could not arm the deadline task of clock %s", clock.pk)
            TableClock.objects.filter(pk=clock.pk, armed_for=upcoming[1]).update(armed_for=None)
            continue
        armed += 1
    return armed


def arm_call_timer(timer_id: int) -> bool:
    """Arm the expiry task of a call timer (claimed once through `armed`)."""
    timer = CallTimer.objects.filter(pk=timer_id, state=CallTimer.State.RUNNING, armed=False).first()
    if timer is None or not CallTimer.objects.filter(pk=timer_id, armed=False).update(armed=True):
        return False
    try:
        fire_deadline.apply_async(args=("call", timer_id), eta=timer.ends_at)
    except Exception:  # noqa: BLE001 - the sweep expires it
        log.exception("could not arm call timer %s", timer_id)
        CallTimer.objects.filter(pk=timer_id).update(armed=False)
        return False
    return True


def _arm_calls(horizon: timedelta) -> int:
    until = db_now() + horizon
    ids = CallTimer.objects.filter(
        state=CallTimer.State.RUNNING, armed=False, ends_at__lte=until
    ).values_list("pk", flat=True)
    return sum(arm_call_timer(pk) for pk in list(ids))


@shared_task(name="clocks.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Reconcile: move every overdue clock and call timer, write pending game-log events, and
    arm the deadline tasks of the next few minutes."""
    moved = transitions.advance(skip_locked=True)
    logged = transitions.log_time_up()
    expired = transitions.expire_calls(skip_locked=True)
    defaults = transitions.log_default_actions()
    armed = arm_due() + _arm_calls(ARM_HORIZON)
    finished = transitions.finish_decided_games()
    summary = {
        "finished": len(finished),
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
