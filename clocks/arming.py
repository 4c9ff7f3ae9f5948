"""Arming the punctual deadline task (`clocks.fire_deadline`) of clocks and call timers.

The services arm a clock's next deadline when a change commits; the sweep (clocks.tasks) arms
what is due within a few minutes. The task is sent by its registered name, so this module
does not depend on the task module that imports it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from celery import current_app
from django.db.models import Q

from clocks.dbtime import db_now
from clocks.models import CallTimer, TableClock
from dune import clock_limits as limits

log = logging.getLogger(__name__)

#: How far ahead the sweep arms deadline tasks: a few sweeps, far inside the visibility timeout.
ARM_HORIZON = timedelta(minutes=3)
#: The registered name of the deadline task (clocks.tasks.fire_deadline).
FIRE_DEADLINE = "clocks.fire_deadline"


def fire_at(args: tuple[str, int], eta: datetime) -> None:
    current_app.send_task(FIRE_DEADLINE, args=args, eta=eta)


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
            fire_at(("clock", clock.pk), upcoming[1])
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
        fire_at(("call", timer_id), timer.ends_at)
    except Exception:  # noqa: BLE001 - the sweep expires it
        log.exception("could not arm call timer %s", timer_id)
        CallTimer.objects.filter(pk=timer_id).update(armed=False)
        return False
    return True


def arm_calls(horizon: timedelta) -> int:
    """Arm the expiry task of every running call timer that ends within `horizon`."""
    until = db_now() + horizon
    ids = CallTimer.objects.filter(
        state=CallTimer.State.RUNNING, armed=False, ends_at__lte=until
    ).values_list("pk", flat=True)
    return sum(arm_call_timer(pk) for pk in list(ids))
