"""Time moves clocks: conditional updates against the database's `now()`.

Every change here is an `UPDATE ... WHERE state IN (earlier states) AND <deadline> <= now()`
on rows locked for the transaction, so two sweeps, a sweep and a deadline task, or a task
delivered twice can never move a clock twice: the second one finds the state changed and
its update matches nothing. A paused clock has no deadlines (NULL never compares), and an
extended one has later deadlines, so a task armed before either simply does nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Now

from clocks import services
from clocks.game_log import decided_tables, record_in_game
from clocks.models import CallTimer, ClockHistory, TableClock
from dune import clock_limits as limits
from tournament.models import Table

log = logging.getLogger(__name__)

#: Each timed stage, the column holding its deadline and the states it can be entered from.
STAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (limits.LAST_30, "last_30_at", (limits.RUNNING,)),
    (limits.LAST_TURN, "last_turn_at", (limits.RUNNING, limits.LAST_30)),
    (limits.TIME_UP, "time_up_at", (limits.RUNNING, limits.LAST_30, limits.LAST_TURN)),
)
#: Tries to write the `time_up` event before the sweep gives up and leaves it to the judge.
GAME_LOG_ATTEMPTS = 3


@dataclass(frozen=True)
class Moved:
    clock_id: int
    from_state: str
    to_state: str
    deadline: datetime


def advance(*, clock_ids: Iterable[int] | None = None, skip_locked: bool = True) -> list[Moved]:
    """Move every clock (or the given ones) whose next deadlines have passed, stage by stage,
    in one transaction; returns what moved. A clock locked by a judge's change is skipped
    when `skip_locked` (the next sweep or task finds it)."""
    ids = None if clock_ids is None else list(clock_ids)
    moved: list[Moved] = []
    with transaction.atomic():
        for target, column, earlier in STAGES:
            due = Q(state__in=earlier, paused_at__isnull=True, **{f"{column}__lte": Now()})
            rows = TableClock.objects.filter(due)
            if ids is not None:
                rows = rows.filter(pk__in=ids)
            locked = list(
                rows.select_for_update(skip_locked=skip_locked)
                .order_by("pk")
                .values_list("pk", "state", column)
            )
            if not locked:
                continue
            count = (
                TableClock.objects.filter(pk__in=[pk for pk, _, _ in locked])
                .filter(due)
                .update(state=target, armed_for=None, version=F("version") + 1)
            )
            if count != len(locked):  # impossible while the rows are locked; never hide it
                raise RuntimeError(f"clock stage update matched {count} of {len(locked)} locked rows")
            step = [Moved(pk, state, target, deadline) for pk, state, deadline in locked]
            ClockHistory.objects.bulk_create(
                ClockHistory(
                    clock_id=m.clock_id,
                    kind=ClockHistory.Kind.STAGE,
                    from_state=m.from_state,
                    to_state=m.to_state,
                    data={"deadline": m.deadline.isoformat()},
                )
                for m in step
            )
            moved.extend(step)
    return moved


def _past_no_new_turn() -> Q:
    """Clocks whose state is at or after the no-new-turn stage their limit's name has for the
    presets (a wider net than a tournament's document may need: `log_time_up` asks each
    clock's own limit)."""
    q = Q(pk__in=[])
    for key, limit in limits.LIMITS.items():
        order = (limits.LAST_30, limits.LAST_TURN, limits.TIME_UP)
        reached = order[order.index(limit.no_new_turn) :]
        q |= Q(limit_key=key, state__in=reached)
    return q


def log_time_up(*, clock_ids: Iterable[int] | None = None) -> list[int]:
    """Write the `time_up` event into the game of every clock that reached its no-new-turn
    stage and has not had it written (LoLV 4.01.08; WBC no new turn in the last 30 minutes).

    Each clock is locked while its event is written, so two sweeps never write it twice; the
    flag and the game event commit together. Returns the clocks whose event was written.
    """
    pending = TableClock.objects.filter(
        _past_no_new_turn(),
        game_logged_at__isnull=True,
        game_log_attempts__lt=GAME_LOG_ATTEMPTS,
        waived=False,
    )
    if clock_ids is not None:
        pending = pending.filter(pk__in=list(clock_ids))
    written: list[int] = []
    for pk in pending.values_list("pk", flat=True):
        with transaction.atomic():
            clock = (
                TableClock.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("table__round__tournament")
                .filter(pk=pk, game_logged_at__isnull=True, game_log_attempts__lt=GAME_LOG_ATTEMPTS)
                .first()
            )
            if clock is None:
                continue
            limit = clock.limit
            if limits.may_start_turn(clock.state, limit):
                continue  # the tournament's document still lets a new turn start in this stage
            result = record_in_game(
                clock.table,
                {"type": "time_up", "clock": clock.limit_key},
                reason=f"{limit.rule}: the time limit allows no new turn",
            )
            fields = {"game_log_attempts": F("game_log_attempts") + 1}
            if result.ok:
                fields["game_logged_at"] = Now()
                fields["time_up_seq"] = result.seq
                written.append(pk)
            TableClock.objects.filter(pk=pk).update(**fields)
            ClockHistory.objects.create(
                clock=clock,
                kind=ClockHistory.Kind.GAME_LOG,
                from_state=clock.state,
                to_state=clock.state,
                reason="time_up recorded in the game log" if result.ok else "time_up could not be recorded",
                data={"event": "time_up", "ok": result.ok, "seq": result.seq, "error": result.error},
            )
    return written


# --- call-the-clock timers -------------------------------------------------------------------


def expire_calls(*, timer_ids: Iterable[int] | None = None, skip_locked: bool = True) -> list[int]:
    """Mark every running call timer whose end has passed as expired; returns their ids."""
    # A table paused for a break keeps its called clocks standing (clocks.services.resume
    # moves their ends by the length of the pause).
    paused_tables = TableClock.objects.filter(paused_at__isnull=False).values("table_id")
    due = Q(state=CallTimer.State.RUNNING, ends_at__lte=Now()) & ~Q(table_id__in=paused_tables)
    rows = CallTimer.objects.filter(due)
    if timer_ids is not None:
        rows = rows.filter(pk__in=list(timer_ids))
    with transaction.atomic():
        locked = list(rows.select_for_update(skip_locked=skip_locked).values_list("pk", flat=True))
        if not locked:
            return []
        CallTimer.objects.filter(pk__in=locked).filter(due).update(state=CallTimer.State.EXPIRED)
        for timer in CallTimer.objects.filter(pk__in=locked).select_related("table__clock"):
            clock = getattr(timer.table, "clock", None)
            if clock is not None:
                ClockHistory.objects.create(
                    clock=clock,
                    kind=ClockHistory.Kind.CALL_EXPIRED,
                    from_state=clock.state,
                    to_state=clock.state,
                    data={"action": timer.action, "faction": timer.faction, "timer": timer.pk},
                )
    return locked


def log_default_actions(*, timer_ids: Iterable[int] | None = None) -> list[int]:
    """Write the default action of every expired call timer not written yet (WBC time
    guidelines: bid pass; no shipment and no movement; lowest leader, dial 0, no spice, no
    cards; no change at the Nexus). One try each; a failure stays visible on the timer."""
    pending = CallTimer.objects.filter(state=CallTimer.State.EXPIRED, game_seq__isnull=True, game_error="")
    if timer_ids is not None:
        pending = pending.filter(pk__in=list(timer_ids))
    written: list[int] = []
    for pk in pending.values_list("pk", flat=True):
        with transaction.atomic():
            timer = (
                CallTimer.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("table")
                .filter(pk=pk, game_seq__isnull=True, game_error="")
                .first()
            )
            if timer is None:
                continue
            event = limits.default_action_event(timer.action, timer.faction)
            if event is None:  # a diplomacy chip's talk ends; nothing to play for anyone
                CallTimer.objects.filter(pk=pk).update(game_seq=0)
                continue
            result = record_in_game(timer.table, event, reason=f"{limits.CALL_RULE}: called clock expired")
            if result.ok:
                CallTimer.objects.filter(pk=pk).update(game_seq=result.seq if result.seq is not None else 0)
                written.append(pk)
            else:
                CallTimer.objects.filter(pk=pk).update(game_error=result.error or "unknown error")
    return written


def finish_decided_games() -> list[int]:
    """Stop the clocks of tables whose game result is recorded (the game log knows it)."""
    open_clocks = TableClock.objects.filter(state__in=(*limits.LIVE_STATES, limits.TIME_UP))
    finished: list[int] = []
    for table_id in decided_tables(open_clocks.values_list("table_id", flat=True)):
        clock = TableClock.objects.select_related("table__round__tournament").get(table_id=table_id)
        try:
            services.finish(clock.table, user=None, reason="the game's result is recorded")
        except services.ClockStateError:
            continue  # finished meanwhile by a judge
        finished.append(clock.pk)
    return finished


def restart_undecided_games() -> list[int]:
    """Run again the clocks finished by a game's end that a `void` has since cancelled (the
    game log no longer has a result and no report is filed)."""
    finished = TableClock.objects.filter(state=limits.FINISHED, started_at__isnull=False, table__report_filed_at=None)
    table_ids = list(finished.values_list("table_id", flat=True))
    if not table_ids:
        return []
    decided = set(decided_tables(table_ids))
    restarted: list[int] = []
    for table_id in table_ids:
        if table_id in decided:
            continue
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        clock = services.restart_if_undecided(table)
        if clock is not None:
            restarted.append(clock.pk)
    if restarted:
        advance(clock_ids=restarted, skip_locked=False)  # to the stage its deadlines say now
    return restarted
