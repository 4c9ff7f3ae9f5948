"""What judges do to clocks: start, pause, resume, extend, waive, finish, call the clock.

Every operation is atomic, locks the clock row, takes its time from the database (`now()`
of the transaction) and leaves a ClockHistory row. Refusals raise `dune.clock_limits.ClockError`
subclasses carrying the rule and the input; nothing is half-written.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import gettext as _

from clocks.arming import arm_call_timer, arm_due
from clocks.dbtime import db_now
from clocks.game_log import decided_tables, record_in_game
from clocks.models import CallTimer, ClockExtension, ClockHistory, ClockPause, TableClock
from dune import clock_limits as limits
from dune.engine.names import faction_name, factions_text
from scoring.models import GameReport
from tournament.models import Table
from tournament.permissions import is_head_judge

__all__ = ["ClockStateError", "db_now"]  # db_now: the services' clock, for pages and tests

H = ClockHistory.Kind


class ClockStateError(limits.ClockError):
    """The operation does not fit the clock's state (pause a paused clock, start twice...)."""

    status_code = 409


def _after_commit_arm(clock_id: int, *, call_timer_ids: list[int] | None = None) -> None:
    def arm() -> None:
        arm_due(clock_ids=[clock_id])
        for timer_id in call_timer_ids or ():
            arm_call_timer(timer_id)

    transaction.on_commit(arm)


def clock_for(table: Any) -> TableClock:
    """The table's clock, created (not started) on first use with the limit of its format."""
    clock = TableClock.objects.filter(table=table).select_related("table__round__tournament").first()
    if clock is not None:
        return clock
    round_ = table.round
    limit = round_.tournament.rules.clock(round_.kind)
    key = limit.key
    players = table.seats.count() or 6
    limit.time_limit(players=players)  # refuses a bad player count early
    with transaction.atomic():
        clock, created = TableClock.objects.get_or_create(
            table=table, defaults={"limit_key": key, "players": players}
        )
        if created:
            ClockHistory.objects.create(
                clock=clock, kind=H.CREATED, to_state=clock.state, data={"limit": key, "players": players}
            )
    return clock


def _locked(table: Any) -> TableClock:
    clock_for(table)
    # of=("self",): lock the clock row only, never the tournament's table row.
    return (
        TableClock.objects.select_for_update(of=("self",)).select_related("table__round__tournament").get(table=table)
    )


def _pauses(clock: TableClock) -> list[limits.Interval]:
    return [p.as_interval() for p in clock.pauses.order_by("started_at")]


def _reschedule(clock: TableClock) -> None:
    """Recompute the stored deadlines from the start, the pauses and the extensions."""
    if clock.started_at is None or clock.state == limits.FINISHED:
        dl = limits.NO_DEADLINES
    else:
        dl = limits.deadlines(
            clock.limit,
            players=clock.players,
            started_at=clock.started_at,
            pauses=_pauses(clock),
            extension=clock.extension,
            waived=clock.waived,
        )
    clock.last_30_at, clock.last_turn_at, clock.time_up_at = dl.last_30, dl.last_turn, dl.time_up
    clock.armed_for = None


def _history(clock: TableClock, kind: str, *, before: str, user: Any, reason: str = "", **data: Any) -> None:
    ClockHistory.objects.create(
        clock=clock,
        kind=kind,
        from_state=before,
        to_state=clock.state,
        by=user if getattr(user, "is_authenticated", False) else None,
        reason=reason,
        data={k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in data.items()},
    )


def _save(clock: TableClock) -> None:
    clock.version += 1
    clock.save()


def _require_reason(reason: str, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise limits.ClockError(rule="reason", msg=_("%(what)s needs a reason (it goes in the table's history)") % {"what": what})
    return reason


def start(table: Any, *, user: Any, reason: str = "") -> TableClock:
    """Start a table's clock now. Raises ClockStateError if it was started already."""
    with transaction.atomic():
        clock = _locked(table)
        if clock.state != limits.PENDING:
            raise ClockStateError(rule="start", msg=_("this clock has already been started"), input=clock.state)
        before = clock.state
        now = db_now()
        # The seating may have changed since the clock was created (LoLV 4.01.08 counts players).
        players = table.seats.count()
        if not players:
            raise ClockStateError(
                rule="seating", msg=_("no players are seated at this table yet"), input=table.number
            )
        clock.players = players
        clock.limit_key = table.round.tournament.rules.clock_key(table.round.kind)
        clock.started_at = now
        clock.started_by = user if getattr(user, "is_authenticated", False) else None
        _reschedule(clock)
        clock.state = limits.state_at(clock.get_deadlines(), now)
        _save(clock)
        # The tournament reads a round as running from its tables (tournament.round_state).
        Table.objects.filter(pk=table.pk, clock_started_at=None).update(clock_started_at=now)
        grace = limits.grace_ends(clock.limit, table.round.starts_at)
        extra: dict[str, Any] = {}
        if grace is not None:
            extra = {"grace_ends": grace, "late": now > grace}
        _history(clock, H.STARTED, before=before, user=user, reason=reason, **extra)
        _after_commit_arm(clock.pk)
        return clock


def pause(table: Any, *, user: Any, reason: str = "", round_wide: bool = False) -> TableClock:
    """Pause a running clock (a break). Raises ClockStateError if it is not running or
    already paused."""
    with transaction.atomic():
        clock = _locked(table)
        if clock.state not in limits.LIVE_STATES:
            raise ClockStateError(
                rule="pause",
                msg=_("only a running clock can be paused; this one is %(state)s") % {"state": clock.state},
                input=clock.state,
            )
        if clock.paused_at is not None:
            raise ClockStateError(rule="pause", msg=_("this clock is already paused"), input=clock.paused_at)
        now = db_now()
        ClockPause.objects.create(
            clock=clock, started_at=now, started_by=_user(user), reason=reason, round_wide=round_wide
        )
        clock.paused_at = now
        _reschedule(clock)
        _save(clock)
        _history(clock, H.PAUSED, before=clock.state, user=user, reason=reason, round_wide=round_wide)
        return clock


def resume(table: Any, *, user: Any, reason: str = "", round_wide: bool = False) -> TableClock:
    """Resume a paused clock; every later deadline moves by the length of the pause.
    With `round_wide`, only a pause made for the whole round is ended. Raises ClockStateError
    if it is not paused (or, round-wide, paused on its own)."""
    with transaction.atomic():
        clock = _locked(table)
        if clock.paused_at is None:
            raise ClockStateError(rule="resume", msg=_("this clock is not paused"), input=clock.state)
        now = db_now()
        open_pause = clock.pauses.get(ended_at__isnull=True)
        if round_wide and not open_pause.round_wide:
            # A table paused on its own (a dispute, a missing player) stays paused when the
            # round's break ends; the head judge resumes it at the table.
            raise ClockStateError(rule="resume", msg=_("this table was paused on its own, not by the round"))
        open_pause.ended_at = now
        open_pause.ended_by = _user(user)
        open_pause.save(update_fields=["ended_at", "ended_by"])
        # A called clock stands still during the break too: it keeps the time it had left, and
        # is armed again for its new end (transitions.expire_calls skips paused tables).
        running_calls = CallTimer.objects.filter(table=clock.table_id, state=CallTimer.State.RUNNING)
        call_ids = list(running_calls.values_list("pk", flat=True))
        running_calls.update(ends_at=F("ends_at") + (now - open_pause.started_at), armed=False)
        clock.paused_at = None
        _reschedule(clock)
        _save(clock)
        _history(
            clock,
            H.RESUMED,
            before=clock.state,
            user=user,
            reason=reason,
            paused_seconds=(now - open_pause.started_at).total_seconds(),
            round_wide=round_wide,
        )
        _after_commit_arm(clock.pk, call_timer_ids=call_ids)
        return clock


def extend(table: Any, *, minutes: object, reason: str, user: Any) -> TableClock:
    """Add `minutes` to every deadline of the table's clock.

    The clock goes back to the state its new deadlines give (an extension after time-up
    reopens the table); when that allows a new turn again, the game log's `time_up` event is
    voided with the extension's reason. Raises InvalidDuration for a
    bad number of minutes, ClockError without a reason, ClockStateError on a finished clock.
    """
    added = limits.check_extension(minutes)
    reason = _require_reason(reason, "an extension")
    with transaction.atomic():
        clock = _locked(table)
        if clock.state == limits.FINISHED:
            raise ClockStateError(rule="extend", msg=_("the game is finished"), input=clock.state)
        if clock.waived:
            raise ClockStateError(rule="extend", msg=_("the time limit was waived; there is nothing to extend"))
        before = clock.state
        ClockExtension.objects.create(clock=clock, minutes=minutes, reason=reason, by=_user(user))
        clock.extension += added
        _reschedule(clock)
        if clock.started_at is not None and clock.paused_at is None:
            clock.state = limits.state_at(clock.get_deadlines(), db_now())
        _history(clock, H.EXTENDED, before=before, user=user, reason=reason, minutes=minutes)
        if clock.time_up_seq is not None and limits.may_start_turn(clock.state, clock.limit):
            _void_time_up(clock, user=user, reason=f"clock extended by {minutes} min: {reason}")
        _save(clock)
        _after_commit_arm(clock.pk)
        return clock


def _void_time_up(clock: TableClock, *, user: Any, reason: str) -> None:
    """The extension gives the table a new turn again: void the game log's `time_up` event, so
    the engine lets the next turn start, and let the sweep record a new one at the new deadline.
    The clock's change never depends on this (a refused void is written to the history)."""
    seq = clock.time_up_seq
    result = record_in_game(clock.table, {"type": "void", "seq": seq, "reason": reason}, reason=reason, user=user)
    if result.ok:
        clock.time_up_seq = None
        clock.game_logged_at = None
        clock.game_log_attempts = 0
    _history(
        clock,
        H.GAME_LOG,
        before=clock.state,
        user=user,
        reason="time_up voided in the game log" if result.ok else "time_up could not be voided",
        event="void",
        voided=seq,
        ok=result.ok,
        seq=result.seq,
        error=result.error,
    )


def waive(table: Any, *, user: Any, reason: str, all_players_agree: bool) -> TableClock:
    """Waive the time limit of a WBC final, all players agreeing at the start of the game.

    Raises UnknownLimit for a limit that cannot be waived, ClockError without every player's
    agreement or a reason, ClockStateError once the clock left `running`.
    """
    reason = _require_reason(reason, "a waiver")
    with transaction.atomic():
        clock = _locked(table)
        round_ = clock.table.round
        rules = round_.tournament.rules
        # The document's rule for the round kind's waiver (WBC: the final's, Final Round Duration).
        rule = rules.rule_of(f"rounds.{round_.kind}.waivable") or clock.limit.rule
        if not clock.limit.waivable:
            raise limits.UnknownLimit(
                rule=rule,
                msg=f"a {round_.kind}'s time limit cannot be waived under {rules.name}",
                input=clock.limit_key,
            )
        if all_players_agree is not True:
            raise limits.ClockError(
                rule=rule,
                msg=_("the limit is waived only if all players agree"),
                input=all_players_agree,
            )
        if clock.waived:
            raise ClockStateError(rule="waive", msg=_("the time limit is already waived"))
        if clock.state not in (limits.PENDING, limits.RUNNING):
            raise ClockStateError(
                rule=rule,
                msg=_("the limit is waived at the start of the game, not once its last stages began"),
                input=clock.state,
            )
        before = clock.state
        clock.waived = True
        clock.waived_at = db_now()
        clock.waived_by = _user(user)
        clock.waiver_reason = reason
        _reschedule(clock)
        _save(clock)
        _history(clock, H.WAIVED, before=before, user=user, reason=reason, all_players_agree=True)
        return clock


def ran_out(table: Any) -> bool | None:
    """Whether the table's clock has run out, for a report ending by the time limit: True once
    its time is up, False while it still has time (running or paused, or stopped before its
    time was up), None when no clock followed the table (never started, or waived). One query."""
    clock = TableClock.objects.filter(table_id=table.pk).first()
    if clock is None or clock.started_at is None or clock.waived:
        return None
    if clock.state == limits.TIME_UP or clock.time_up_seq is not None:
        return True
    if clock.time_up_at is None:
        return False
    if clock.state == limits.FINISHED:
        return clock.finished_at is not None and clock.finished_at >= clock.time_up_at
    return clock.paused_at is None and clock.time_up_at <= db_now()


def game_over(table: Any) -> bool:
    """Whether the table's game has ended: the engine has an outcome in the game record, or
    the table's report is filed (a game judged on paper)."""
    if Table.objects.filter(pk=table.pk, report_filed_at__isnull=False).exists():
        return True
    # Inside the filing's own transaction the report row exists before the table is marked.
    if GameReport.objects.filter(table_id=table.pk, state=GameReport.State.FILED).exists():
        return True
    return bool(decided_tables([table.pk]))


def finish(table: Any, *, user: Any, reason: str = "") -> TableClock:
    """The game is over: the clock stops for good.

    Before the game has ended (`game_over`) only a head judge may stop the clock, with a
    reason: a table judge who stopped it would leave the head judge no way to start, resume or
    extend it, and the clock would never record the time running out.

    Raises:
        ClockStateError: already finished, or a table judge's finish of an undecided game.
        ClockError: a head judge's early finish without a reason.
    """
    with transaction.atomic():
        clock = _locked(table)
        if clock.state == limits.FINISHED:
            raise ClockStateError(rule="finish", msg=_("this clock is already finished"))
        if not game_over(table):
            if not is_head_judge(user, table.round.tournament):
                raise ClockStateError(
                    rule="finish",
                    msg=_("the game is not over (no result in the game record and no report filed): only a head judge may stop this clock before the game ends, with a reason"),
                    input=clock.state,
                )
            reason = _require_reason(reason, "stopping the clock before the game ends")
            early = True
        else:
            early = False
        before = clock.state
        now = db_now()
        if clock.paused_at is not None:
            clock.pauses.filter(ended_at__isnull=True).update(ended_at=now, ended_by=_user(user))
            clock.paused_at = None
        clock.state = limits.FINISHED
        clock.finished_at = now
        _reschedule(clock)
        _save(clock)
        # `early`: a head judge's stop before the game ended stays; one the game's end made is
        # undone if that end is voided (`restart_if_undecided`).
        _history(clock, H.FINISHED, before=before, user=user, reason=reason, early=early)
        return clock


def restart_if_undecided(table: Any) -> TableClock | None:
    """A clock finished because the game had ended runs again once that end is voided (a
    concession or a victory cancelled with a `void`) and no report is filed: the game goes on,
    and its time was counting all along (the deadlines are the start's, pauses and extensions
    included). A head judge's early stop stays. Answers the restarted clock, or None."""
    with transaction.atomic():
        clock = _locked(table)
        if clock.state != limits.FINISHED or clock.started_at is None or game_over(table):
            return None
        last = clock.history.filter(kind=H.FINISHED).order_by("-pk").first()
        if last is None or last.data.get("early", True):
            return None
        clock.state = limits.RUNNING
        clock.finished_at = None
        _reschedule(clock)
        _save(clock)
        _history(
            clock, H.RESUMED, before=limits.FINISHED, user=None,
            reason="the game's result was voided: the game and its clock go on",
        )
    _after_commit_arm(clock.pk)
    return clock


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


# --- the whole round -----------------------------------------------------------------------


def _each_table(round_: Any, op: Any, **kwargs: Any) -> dict[str, list[int]]:
    """Apply `op` to every table of the round; tables it does not fit are listed, not fatal."""
    done: list[int] = []
    skipped: list[int] = []
    with transaction.atomic():
        for table in round_.tables.select_related("round__tournament").order_by("number"):
            try:
                with transaction.atomic():
                    op(table, **kwargs)
            except ClockStateError:
                skipped.append(table.number)
            else:
                done.append(table.number)
    return {"done": done, "skipped": skipped}


def start_round(round_: Any, *, user: Any, reason: str = "") -> dict[str, list[int]]:
    """Start every table's clock of the round that has not started."""
    return _each_table(round_, start, user=user, reason=reason)


def pause_round(round_: Any, *, user: Any, reason: str = "") -> dict[str, list[int]]:
    """Pause every running table clock of the round (a break for everyone)."""
    return _each_table(round_, pause, user=user, reason=reason, round_wide=True)


def resume_round(round_: Any, *, user: Any, reason: str = "") -> dict[str, list[int]]:
    """Resume every table clock the round's pause stopped (tables paused on their own stay paused)."""
    return _each_table(round_, resume, user=user, reason=reason, round_wide=True)


# --- call the clock ----------------------------------------------------------------------


def chips_used(table: Any) -> dict[str, int]:
    """Diplomacy chips spent so far at the table, by faction."""
    used: dict[str, int] = {}
    for faction in CallTimer.objects.filter(table=table, action="diplomacy").values_list(
        "faction", flat=True
    ):
        used[faction] = used.get(faction, 0) + 1
    return used


def table_factions(table: Any) -> list[str]:
    return [f for f in table.seats.order_by("seat").values_list("faction", flat=True) if f]


def _need_call_timers(table: Any, action: str) -> None:
    """Called clocks and diplomacy chips exist only in formats whose rules have them (WBC
    time guidelines); the LoLV times the whole game instead (4.01.08)."""
    rules = table.round.tournament.rules
    if not rules.call_timers:
        raise limits.ClockError(
            rule=rules.ruleset.cite["time"],
            msg=_("the %(name)s rules have no call-the-clock timers or diplomacy chips") % {"name": rules.name},
            input=action,
        )


def _call_rule_at(table: Any, action: str, faction: str) -> limits.CallRule:
    """The timer asked for, once the format has timers and the faction sits at the table."""
    _need_call_timers(table, action)
    rule = limits.call_rule(action)
    factions = table_factions(table)
    if faction not in factions:
        raise limits.ClockError(
            rule="faction", msg=_("expected one of the table's factions: %(factions_text)s") % {"factions_text": factions_text(factions)}, input=faction
        )
    return rule


def call_clock(table: Any, *, action: str, faction: str, user: Any) -> CallTimer:
    """Start a called-clock timer for `faction`'s current action (WBC time guidelines), or a
    diplomacy chip's two minutes (three chips per player per game).

    Raises UnknownLimit for an unknown action, ClockError for a faction not at the table,
    ChipsExhausted for a fourth chip, ClockStateError if the same timer is already running
    or the table's clock is over.
    """
    rule = _call_rule_at(table, action, faction)
    with transaction.atomic():
        clock = _locked(table)
        if clock.state in (limits.TIME_UP, limits.FINISHED):
            raise ClockStateError(
                rule=limits.CALL_RULE, msg=_("the table's clock is %(state)s") % {"state": clock.state}, input=clock.state
            )
        if action == "diplomacy":
            used = CallTimer.objects.select_for_update().filter(
                table=table, action="diplomacy", faction=faction
            )
            limits.check_chip_available(
                used=len(used), faction=faction, chips=table.round.tournament.rules.diplomacy_chips
            )
        if CallTimer.objects.filter(table=table, action=action, faction=faction, state="running").exists():
            raise ClockStateError(
                rule=limits.CALL_RULE, msg=_("a %(lower)s timer for %(faction_name)s is already running") % {"lower": rule.label.lower(), "faction_name": faction_name(faction)}
            )
        now = db_now()
        timer = CallTimer.objects.create(
            table=table,
            action=action,
            faction=faction,
            started_at=now,
            ends_at=now + rule.duration,
            called_by=_user(user),
        )
        _history(
            clock,
            H.CALLED,
            before=clock.state,
            user=user,
            action=action,
            faction=faction,
            ends_at=timer.ends_at,
        )
        if action == "diplomacy":
            # The chip is spent when its talk begins (WBC away-from-table discussions).
            transaction.on_commit(
                lambda: _log_chip(timer.pk)  # noqa: B023 - one timer per call
            )

        def arm() -> None:
            arm_call_timer(timer.pk)

        transaction.on_commit(arm)
        return timer


def _log_chip(timer_id: int) -> None:
    timer = CallTimer.objects.select_related("table").get(pk=timer_id)
    result = record_in_game(
        timer.table, {"type": "diplomacy_chip_used", "faction": timer.faction}, reason="diplomacy chip"
    )
    if not result.ok:
        CallTimer.objects.filter(pk=timer_id).update(game_error=result.error)


def stop_call(table: Any, *, timer_id: object, user: Any) -> CallTimer:
    """The player completed the action in time: the timer stops, no default action.
    Raises ClockError for an unknown timer, ClockStateError if it is no longer running."""
    if isinstance(timer_id, bool) or not isinstance(timer_id, int):
        raise limits.ClockError(rule="timer", msg=_("expected the id of a running timer"), input=timer_id)
    with transaction.atomic():
        timer = CallTimer.objects.select_for_update().filter(table=table, pk=timer_id).first()
        if timer is None:
            raise limits.ClockError(rule="timer", msg=_("no such timer at this table"), input=timer_id)
        changed = CallTimer.objects.filter(pk=timer.pk, state="running", ends_at__gt=_now_expr()).update(
            state="stopped", stopped_at=db_now(), stopped_by=_user(user)
        )
        if not changed:
            raise ClockStateError(
                rule=limits.CALL_RULE, msg=_("this timer has already run out or stopped"), input=timer_id
            )
        clock = clock_for(table)
        timer.refresh_from_db()
        _history(
            clock, H.CALL_STOPPED, before=clock.state, user=user, action=timer.action, faction=timer.faction
        )
        return timer


def _now_expr() -> Any:
    from django.db.models.functions import Now

    return Now()


def running_calls(table: Any) -> list[CallTimer]:
    return list(CallTimer.objects.filter(Q(table=table) & Q(state="running")).order_by("ends_at"))
