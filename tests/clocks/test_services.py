"""Clock services and the conditional transitions, on PostgreSQL (no worker: see test_worker.py).

Inside one test transaction PostgreSQL's `now()` does not move, so the arithmetic below is
exact; elapsed time is simulated by moving stored moments back.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from clocks import services, transitions
from clocks.models import CallTimer, ClockHistory, ClockPause, TableClock
from clocks.services import ClockStateError
from dune import clock_limits as limits
from dune.clock_limits import ChipsExhausted, ClockError, InvalidDuration, UnknownLimit
from tests.clocks.conftest import at, seated, started_clock_due_in

pytestmark = pytest.mark.django_db

M = timedelta(minutes=1)
H = timedelta(hours=1)


@pytest.mark.parametrize(
    ("format", "kind", "size", "key", "time_up"),
    [
        ("lolv", "heat", 5, "lolv", 5 * H + 30 * M),
        ("lolv", "heat", 6, "lolv", 6 * H + 30 * M),
        ("wbc", "heat", 5, "wbc_heat", 5 * H),
        ("wbc", "heat", 6, "wbc_heat", 5 * H),
        ("wbc", "final", 6, "wbc_final", 8 * H),
    ],
)
def test_4_01_08_and_wbc_start_sets_deadlines_from_the_database_clock(
    format: str, kind: str, size: int, key: str, time_up: timedelta, head_judge: Any
) -> None:
    """LoLV 4.01.08 (one hour per player + 30 min), WBC heat 5 h, WBC final 8 h."""
    table = seated(format=format, kind=kind, size=size).tables.get()
    clock = services.start(table, user=head_judge, reason="round start")
    now = services.db_now()
    assert clock.limit_key == key and clock.players == size
    assert clock.state == limits.RUNNING and clock.started_at == now
    assert clock.time_up_at == now + time_up
    kinds = list(clock.history.values_list("kind", flat=True))
    assert kinds == ["created", "started"]
    assert clock.history.get(kind="started").by == head_judge


def test_start_twice_is_refused(wbc_table: Any, head_judge: Any) -> None:
    services.start(wbc_table, user=head_judge)
    with pytest.raises(ClockStateError, match="already been started"):
        services.start(wbc_table, user=head_judge)


def test_wbc_start_grace_is_recorded_with_the_start(wbc_table: Any, head_judge: Any) -> None:
    """WBC: games begin within 15 minutes of the scheduled start; a late start is flagged."""
    round_ = wbc_table.round
    round_.starts_at = services.db_now() - 20 * M
    round_.save()
    services.start(wbc_table, user=head_judge)
    row = ClockHistory.objects.get(kind="started")
    assert row.data["late"] is True
    assert row.data["grace_ends"] == (round_.starts_at + 15 * M).isoformat()


def _move_pause_back(clock: TableClock, by: timedelta) -> None:
    pause = clock.pauses.get(ended_at__isnull=True)
    ClockPause.objects.filter(pk=pause.pk).update(started_at=pause.started_at - by)
    TableClock.objects.filter(pk=clock.pk).update(paused_at=pause.started_at - by)


def test_wbc_breaks_pause_holds_and_resume_moves_deadlines_by_the_break(
    wbc_table: Any, head_judge: Any
) -> None:
    """WBC Time Guidelines: a 15-minute break moves every later deadline by 15 minutes."""
    clock = services.start(wbc_table, user=head_judge)
    before = clock.get_deadlines()
    # The clock ran an hour before the break.
    TableClock.objects.filter(pk=clock.pk).update(started_at=clock.started_at - H)
    clock = services.pause(wbc_table, user=head_judge, reason="break after turn 4")
    assert clock.paused_at is not None and clock.get_deadlines() == limits.NO_DEADLINES
    with pytest.raises(ClockStateError, match="already paused"):
        services.pause(wbc_table, user=head_judge)
    _move_pause_back(clock, 15 * M)
    clock = services.resume(wbc_table, user=head_judge)
    assert clock.paused_at is None
    assert at(clock.time_up_at) - at(before.time_up) == -H + 15 * M
    assert at(clock.last_30_at) - at(before.last_30) == -H + 15 * M
    with pytest.raises(ClockStateError, match="not paused"):
        services.resume(wbc_table, user=head_judge)
    pause = ClockPause.objects.get()
    assert pause.ended_at - pause.started_at == 15 * M and pause.reason == "break after turn 4"
    assert list(clock.history.values_list("kind", flat=True)) == ["created", "started", "paused", "resumed"]


def test_pause_needs_a_running_clock(wbc_table: Any, head_judge: Any) -> None:
    with pytest.raises(ClockStateError, match="pending"):
        services.pause(wbc_table, user=head_judge)


def test_extension_adds_exactly_the_given_minutes_with_reason_and_author(
    wbc_table: Any, head_judge: Any
) -> None:
    clock = services.start(wbc_table, user=head_judge)
    before = clock.get_deadlines()
    clock = services.extend(wbc_table, minutes=17, reason="rules dispute at turn 3", user=head_judge)
    assert at(clock.time_up_at) - at(before.time_up) == 17 * M
    assert at(clock.last_30_at) - at(before.last_30) == 17 * M
    ext = clock.extensions.get()
    assert (ext.minutes, ext.reason, ext.by) == (17, "rules dispute at turn 3", head_judge)
    row = clock.history.get(kind="extended")
    assert row.data == {"minutes": 17} and row.by == head_judge


@pytest.mark.parametrize(
    ("minutes", "reason", "error"),
    [
        (0, "x", InvalidDuration),
        (-5, "x", InvalidDuration),
        (241, "x", InvalidDuration),
        ("10", "x", InvalidDuration),
        (10, "  ", ClockError),
    ],
)
def test_bad_extension_is_refused_and_changes_nothing(
    wbc_table: Any, head_judge: Any, minutes: object, reason: str, error: type[Exception]
) -> None:
    clock = services.start(wbc_table, user=head_judge)
    with pytest.raises(error):
        services.extend(wbc_table, minutes=minutes, reason=reason, user=head_judge)
    fresh = TableClock.objects.get(pk=clock.pk)
    assert (
        fresh.extension == timedelta(0)
        and fresh.time_up_at == clock.time_up_at
        and not fresh.extensions.exists()
    )


def test_extension_after_time_up_reopens_the_clock(
    wbc_table: Any, head_judge: Any, record_calls: Any
) -> None:
    clock = started_clock_due_in(wbc_table, seconds=-1, stage="time_up")
    transitions.advance()
    assert TableClock.objects.get(pk=clock.pk).state == limits.TIME_UP
    clock = services.extend(wbc_table, minutes=10, reason="judge's ruling took 10 minutes", user=head_judge)
    assert clock.state == limits.LAST_30


def test_wbc_final_waiver_needs_every_player_and_is_recorded(head_judge: Any) -> None:
    """WBC Final Round Duration: the limit may be disregarded if all players agree."""
    table = seated(format="wbc", kind="final").tables.get()
    with pytest.raises(ClockError, match="all players agree"):
        services.waive(table, user=head_judge, reason="players asked", all_players_agree=False)
    clock = services.waive(table, user=head_judge, reason="all six players agreed", all_players_agree=True)
    clock = services.start(table, user=head_judge)
    assert clock.waived and clock.waived_by == head_judge and clock.get_deadlines() == limits.NO_DEADLINES
    assert clock.history.get(kind="waived").reason == "all six players agreed"
    with pytest.raises(ClockStateError):
        services.extend(table, minutes=5, reason="x", user=head_judge)


def test_wbc_heat_limit_cannot_be_waived(wbc_table: Any, head_judge: Any) -> None:
    """WBC heats: players do not have the option to continue past the time limit."""
    with pytest.raises(UnknownLimit, match="a heat's time limit cannot be waived under WBC Dune"):
        services.waive(wbc_table, user=head_judge, reason="please", all_players_agree=True)


def test_round_pause_and_resume_every_table(wbc_round: Any, head_judge: Any) -> None:
    """A break for the whole round pauses every table's clock and resumes them together."""
    assert services.start_round(wbc_round, user=head_judge)["done"] == [1, 2, 3]
    services.pause(wbc_round.tables.get(number=2), user=head_judge)
    outcome = services.pause_round(wbc_round, user=head_judge, reason="lunch")
    assert outcome == {"done": [1, 3], "skipped": [2]}
    assert TableClock.objects.filter(paused_at__isnull=False).count() == 3
    assert ClockPause.objects.filter(round_wide=True).count() == 2
    assert services.resume_round(wbc_round, user=head_judge) == {"done": [1, 3], "skipped": [2]}
    assert TableClock.objects.filter(paused_at__isnull=True, time_up_at__isnull=False).count() == 2
    assert TableClock.objects.get(table__number=2).paused_at is not None  # paused on its own: stays


def test_finish_stops_the_clock(wbc_table: Any, head_judge: Any) -> None:
    services.start(wbc_table, user=head_judge)
    clock = services.finish(wbc_table, user=head_judge, reason="stronghold victory")
    assert clock.state == limits.FINISHED and clock.get_deadlines() == limits.NO_DEADLINES
    with pytest.raises(ClockStateError):
        services.finish(wbc_table, user=head_judge)


# --- time moves clocks: conditional updates --------------------------------------------------


def test_passed_deadline_moves_the_clock_once(wbc_table: Any, record_calls: Any) -> None:
    """WBC: no new turn within 30 minutes of the end; two sweeps move the clock once and
    write one `time_up` event."""
    clock = started_clock_due_in(wbc_table, seconds=-1)
    moved = transitions.advance()
    assert [(m.clock_id, m.from_state, m.to_state) for m in moved] == [(clock.pk, "running", "last_30")]
    assert transitions.advance() == []
    assert transitions.log_time_up() == [clock.pk]
    assert transitions.log_time_up() == []
    assert record_calls == [(wbc_table.pk, {"type": "time_up", "clock": "wbc_heat"})]
    assert ClockHistory.objects.filter(clock=clock, kind="stage").count() == 1


def test_future_deadline_does_not_move(wbc_table: Any) -> None:
    started_clock_due_in(wbc_table, seconds=5)
    assert transitions.advance() == []


def test_4_01_08_late_sweep_walks_every_stage_and_logs_once(record_calls: Any) -> None:
    """LoLV 4.01.08: a sweep that comes after time-up still passes through last 30 minutes
    and last turn (the no-new-turn point, written to the game log once)."""
    table = seated(format="lolv", size=5).tables.get()
    clock = started_clock_due_in(table, seconds=-1, stage="time_up")
    steps = [(m.from_state, m.to_state) for m in transitions.advance()]
    assert steps == [("running", "last_30"), ("last_30", "last_turn"), ("last_turn", "time_up")]
    transitions.log_time_up()
    assert record_calls == [(table.pk, {"type": "time_up", "clock": "lolv"})]
    assert TableClock.objects.get(pk=clock.pk).state == limits.TIME_UP


def test_paused_clock_is_not_moved(wbc_table: Any, head_judge: Any) -> None:
    started_clock_due_in(wbc_table, seconds=1)
    services.pause(wbc_table, user=head_judge)
    TableClock.objects.update(last_30_at=services.db_now() - M)  # even a stale deadline
    assert transitions.advance() == []


def test_game_log_failure_does_not_block_the_clock(wbc_table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from clocks import game_log

    tries: list[int] = []

    def failing(table: Any, event: Any, *, reason: str, user: Any = None) -> game_log.LogResult:
        tries.append(1)
        return game_log.LogResult(False, error="RuleViolation: no game")

    monkeypatch.setattr(transitions, "record_in_game", failing)
    clock = started_clock_due_in(wbc_table, seconds=-1)
    transitions.advance()
    for _ in range(5):
        transitions.log_time_up()
    clock.refresh_from_db()
    assert clock.state == limits.LAST_30 and clock.game_logged_at is None
    assert len(tries) == transitions.GAME_LOG_ATTEMPTS == clock.game_log_attempts
    assert ClockHistory.objects.filter(kind="game_log", data__ok=False).count() == 3


def test_wbc_time_up_event_reaches_the_real_game_log(wbc_table: Any) -> None:
    """The `time_up` event is appended to the table's game through gameplay.services."""
    from gameplay import services as game

    started_clock_due_in(wbc_table, seconds=-1)
    transitions.advance()
    assert transitions.log_time_up() != []
    types = list(game.game_for(wbc_table).events.order_by("seq").values_list("type", flat=True))
    assert types[-1] == "time_up" and types.count("time_up") == 1
    position, _seq = game.current_position(wbc_table)
    assert position.time_up == "wbc_heat"  # the engine now refuses a new turn (OutOfTime)


def test_wbc_extension_that_allows_a_new_turn_voids_the_time_up_event(wbc_table: Any, head_judge: Any) -> None:
    """WBC breaks/extensions: the head judge extends a table that reached its last 30 minutes;
    the game log's `time_up` is voided with the extension's reason, so the engine lets the
    next turn start, and the sweep records a new one at the new deadline."""
    from gameplay import services as game

    started_clock_due_in(wbc_table, seconds=-1)
    transitions.advance()
    transitions.log_time_up()
    clock = TableClock.objects.get(table=wbc_table)
    time_up_seq = clock.time_up_seq
    assert time_up_seq is not None and game.current_position(wbc_table)[0].time_up == "wbc_heat"

    services.extend(wbc_table, minutes=45, reason="rules dispute at the table", user=head_judge)
    clock.refresh_from_db()
    assert clock.state == limits.RUNNING
    assert clock.time_up_seq is None and clock.game_logged_at is None
    position, _seq = game.current_position(wbc_table)
    assert not position.time_up
    last = game.game_for(wbc_table).events.order_by("-seq").first()
    assert last.type == "void" and last.body["seq"] == time_up_seq and "rules dispute" in last.reason
    assert ClockHistory.objects.filter(clock=clock, kind="game_log", data__event="void", data__ok=True).count() == 1


def test_wbc_extension_that_still_allows_no_new_turn_keeps_the_time_up_event(wbc_table: Any, head_judge: Any) -> None:
    from gameplay import services as game

    started_clock_due_in(wbc_table, seconds=-20 * 60)  # 20 minutes into the last 30
    transitions.advance()
    transitions.log_time_up()
    services.extend(wbc_table, minutes=5, reason="late pairing", user=head_judge)
    clock = TableClock.objects.get(table=wbc_table)
    assert clock.state == limits.LAST_30 and clock.time_up_seq is not None
    assert game.current_position(wbc_table)[0].time_up == "wbc_heat"


def test_arm_due_arms_each_deadline_once(
    wbc_table: Any, monkeypatch: pytest.MonkeyPatch, head_judge: Any
) -> None:
    from clocks import arming, tasks

    sent: list[tuple[Any, Any]] = []
    monkeypatch.setattr(arming, "fire_at", lambda args, eta: sent.append((args, eta)))
    clock = started_clock_due_in(wbc_table, seconds=30)
    assert tasks.arm_due() == 1 and tasks.arm_due() == 0
    assert sent == [(("clock", clock.pk), TableClock.objects.get(pk=clock.pk).last_30_at)]
    services.extend(wbc_table, minutes=1, reason="dispute", user=head_judge)
    assert tasks.arm_due() == 1  # a new deadline: armed again; the old task will find nothing
    assert sent[-1][1] - sent[0][1] == M


def test_deadlines_hours_ahead_are_not_armed(wbc_table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never hours ahead: Redis redelivers unacknowledged ETA tasks after its visibility timeout."""
    from clocks import arming, tasks

    monkeypatch.setattr(arming, "fire_at", lambda *a, **kw: pytest.fail("armed hours ahead"))
    services.start(wbc_table, user=None)
    assert tasks.arm_due() == 0


# --- call the clock ----------------------------------------------------------------------------


def test_wbc_time_guidelines_call_the_clock_and_default_action(
    wbc_table: Any, head_judge: Any, record_calls: Any
) -> None:
    """WBC Time Guidelines: a called bid has 10 seconds; on expiry the bid is a pass."""
    services.start(wbc_table, user=head_judge)
    timer = services.call_clock(wbc_table, action="bid", faction="harkonnen", user=head_judge)
    assert timer.ends_at - timer.started_at == timedelta(seconds=10)
    with pytest.raises(ClockStateError, match="already running"):
        services.call_clock(wbc_table, action="bid", faction="harkonnen", user=head_judge)
    assert transitions.expire_calls() == []
    # Ten seconds have passed (the test transaction's clock stands still).
    CallTimer.objects.filter(pk=timer.pk).update(
        started_at=services.db_now() - timedelta(seconds=11), ends_at=services.db_now() - timedelta(seconds=1)
    )
    assert transitions.expire_calls() == [timer.pk]
    assert transitions.expire_calls() == []
    assert transitions.log_default_actions() == [timer.pk]
    assert transitions.log_default_actions() == []
    assert record_calls == [
        (wbc_table.pk, {"type": "default_action", "faction": "harkonnen", "action": "bid"})
    ]


def test_wbc_breaks_a_called_clock_stands_still_while_the_table_is_paused(
    wbc_table: Any, head_judge: Any, record_calls: Any
) -> None:
    """WBC breaks: a called clock (here the 10-minute nexus) does not run out during a break;
    after the break it has exactly the time it had left."""
    services.start(wbc_table, user=head_judge)
    timer = services.call_clock(wbc_table, action="nexus", faction="fremen", user=head_judge)
    services.pause(wbc_table, user=head_judge, reason="break after turn 4")
    now = services.db_now()
    # The break began 20 minutes ago, 9 minutes into the nexus (1 minute left then) ...
    ClockPause.objects.filter(clock__table=wbc_table, ended_at__isnull=True).update(started_at=now - 20 * M)
    TableClock.objects.filter(table=wbc_table).update(started_at=now - 40 * M, paused_at=now - 20 * M)
    CallTimer.objects.filter(pk=timer.pk).update(started_at=now - 29 * M, ends_at=now - 19 * M)
    # ... so its end has passed on the wall clock, but a paused table's calls do not expire.
    assert transitions.expire_calls() == []
    services.resume(wbc_table, user=head_judge, reason="break over")
    timer.refresh_from_db()
    assert timer.state == CallTimer.State.RUNNING
    assert timer.ends_at == now + M  # the minute it had left
    assert transitions.expire_calls() == [] and record_calls == []


def test_wbc_stopped_call_records_nothing(wbc_table: Any, head_judge: Any, record_calls: Any) -> None:
    services.start(wbc_table, user=head_judge)
    timer = services.call_clock(wbc_table, action="battle_plan", faction="atreides", user=head_judge)
    services.stop_call(wbc_table, timer_id=timer.pk, user=head_judge)
    CallTimer.objects.filter(pk=timer.pk).update(
        started_at=services.db_now() - 3 * M, ends_at=services.db_now() - M
    )
    assert transitions.expire_calls() == [] and record_calls == []
    with pytest.raises(ClockStateError):
        services.stop_call(wbc_table, timer_id=timer.pk, user=head_judge)


def test_wbc_diplomacy_chips_three_per_player(wbc_table: Any, head_judge: Any) -> None:
    """WBC: each player is issued 3 diplomacy chips at the start of the game."""
    services.start(wbc_table, user=head_judge)
    for _ in range(3):
        timer = services.call_clock(wbc_table, action="diplomacy", faction="emperor", user=head_judge)
        services.stop_call(wbc_table, timer_id=timer.pk, user=head_judge)
    with pytest.raises(ChipsExhausted, match="emperor"):
        services.call_clock(wbc_table, action="diplomacy", faction="emperor", user=head_judge)
    assert services.chips_used(wbc_table) == {"emperor": 3}
    services.call_clock(wbc_table, action="diplomacy", faction="fremen", user=head_judge)


def test_call_for_a_faction_not_at_the_table_is_refused(wbc_table: Any, head_judge: Any) -> None:
    services.start(wbc_table, user=head_judge)
    with pytest.raises(ClockError, match="'ixians'"):
        services.call_clock(wbc_table, action="turn", faction="ixians", user=head_judge)
    with pytest.raises(UnknownLimit, match="'karama'"):
        services.call_clock(wbc_table, action="karama", faction="fremen", user=head_judge)


def test_clock_pages_read_the_turn_without_creating_a_game(wbc_table: Any) -> None:
    from clocks.game_log import turns_for
    from gameplay import services as game
    from gameplay.models import Game

    assert turns_for([wbc_table.pk]) == {}
    assert not Game.objects.filter(table=wbc_table).exists()
    game.game_for(wbc_table)
    assert turns_for([wbc_table.pk]) == {wbc_table.pk: 1}


def test_decided_game_stops_its_clock(wbc_round: Any, head_judge: Any) -> None:
    """Once the game's result is in its log, the sweep finishes the clock (never time-up later)."""
    from gameplay import services as game
    from gameplay.models import Game

    services.start_round(wbc_round, user=head_judge)
    decided, undecided = wbc_round.tables.order_by("number")[:2]
    record = game.game_for(decided)
    faction = decided.seats.order_by("seat").first().faction
    outcome = {"winners": [faction], "kind": "solo_stronghold", "rule": "WBC House Rules", "ended_by": "victory",
               "sides": [{"factions": [faction], "kind": "solo_stronghold"}]}
    Game.objects.filter(pk=record.pk).update(evaluation={**record.evaluation, "outcome": outcome})
    game.game_for(undecided)
    assert transitions.finish_decided_games() == [TableClock.objects.get(table=decided).pk]
    assert transitions.finish_decided_games() == []
    assert TableClock.objects.get(table=decided).state == limits.FINISHED
    assert TableClock.objects.get(table=undecided).state == limits.RUNNING
    assert ClockHistory.objects.get(kind="finished").reason == "the game's result is recorded"


def test_beat_runs_the_sweep_every_15_seconds_and_the_task_names_exist(settings: Any) -> None:
    from config.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["clocks-sweep"]
    assert entry == {"task": "clocks.sweep", "schedule": 15.0}
    app.loader.import_default_modules()
    assert {"clocks.sweep", "clocks.fire_deadline"} <= set(app.tasks)
    # ETA tasks are armed far inside Redis's visibility timeout (redelivery of unacked tasks).
    from clocks.tasks import ARM_HORIZON

    assert ARM_HORIZON.total_seconds() * 4 < settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]


def test_4_01_08_a_table_without_players_cannot_start(head_judge: Any) -> None:
    """4.01.08 counts the players at the table: an empty table has no clock to run."""
    from tournament.models import Table

    round_ = seated(format="lolv", size=5)
    empty = Table.objects.create(round=round_, number=9)
    with pytest.raises(ClockStateError, match="no players"):
        services.start(empty, user=head_judge)
