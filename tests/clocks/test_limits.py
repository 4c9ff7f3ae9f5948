"""The deadline arithmetic of dune/clock_limits.py, pure (no database), under a controlled clock.

Rule texts: LoLV 4.01.08 and 0.02; WBC 2018 format, "Preliminary Heat Duration", "Final
Round Duration", the 15-minute start grace and the "Time Guidelines".
"""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from hypothesis import given
from hypothesis import strategies as st

from dune import clock_limits as limits
from dune.clock_limits import (
    LAST_30,
    LAST_TURN,
    LIMITS,
    RUNNING,
    TIME_UP,
    ChipsExhausted,
    Interval,
    IntervalError,
    InvalidDuration,
    UnknownLimit,
)

START = datetime(2026, 7, 29, 13, 0, tzinfo=UTC)
H = timedelta(hours=1)
M = timedelta(minutes=1)


def now() -> datetime:
    return datetime.now(UTC)


# --- LoLV 4.01.08 --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6])
def test_4_01_08_lolv_limit_is_one_hour_per_player(players: int) -> None:
    """4.01.08: the timer is one hour for every player in the game; then thirty more minutes."""
    dl = limits.deadlines(LIMITS["lolv"], players=players, started_at=START)
    assert dl.last_30 == START + players * H - 30 * M
    assert dl.last_turn == START + players * H
    assert dl.time_up == START + players * H + 30 * M


@pytest.mark.parametrize("players", [5, 6])
def test_4_01_08_lolv_states_under_a_moving_clock(players: int) -> None:
    """4.01.08: at the end of the limit the table gets thirty minutes to finish the turn it
    is on (no new turn), then time is up."""
    limit = LIMITS["lolv"]
    dl = limits.deadlines(limit, players=players, started_at=START)
    with time_machine.travel(START, tick=False) as traveller:
        assert limits.state_at(dl, now()) == RUNNING
        traveller.shift(players * H - 30 * M - timedelta(microseconds=1))
        assert limits.state_at(dl, now()) == RUNNING
        traveller.shift(timedelta(microseconds=1))
        assert limits.state_at(dl, now()) == LAST_30
        assert limits.may_start_turn(LAST_30, limit)
        traveller.shift(30 * M)
        assert limits.state_at(dl, now()) == LAST_TURN
        assert not limits.may_start_turn(LAST_TURN, limit)
        traveller.shift(30 * M)
        assert limits.state_at(dl, now()) == TIME_UP


def test_4_01_08_no_new_turn_stage_is_last_turn() -> None:
    """4.01.08: the turn in progress when the hour-per-player limit ends is the last one."""
    assert LIMITS["lolv"].no_new_turn == LAST_TURN


def test_4_01_08_lolv_has_no_start_grace() -> None:
    """4.01.03: the timer starts after the introduction; no grace period is defined."""
    assert limits.grace_ends(LIMITS["lolv"], START) is None


def test_0_02_lolv_games_go_at_most_ten_turns() -> None:
    """0.02: in tournament play a game goes to at most 10 turns; turn 10 shows as the last."""
    limit = LIMITS["lolv"]
    assert limit.max_turns == 10
    assert limits.display_state(RUNNING, turn=9, limit=limit) == RUNNING
    assert limits.display_state(RUNNING, turn=10, limit=limit) == LAST_TURN
    assert limits.display_state(LAST_30, turn=10, limit=limit) == LAST_TURN
    assert limits.display_state(TIME_UP, turn=10, limit=limit) == TIME_UP


def test_4_01_08_player_count_is_checked() -> None:
    """4.01.08 counts the players at the table: 1 to 6."""
    for bad in (0, 7, -1, True, "6"):
        with pytest.raises(InvalidDuration) as err:
            LIMITS["lolv"].time_limit(players=bad)  # type: ignore[arg-type]
        assert err.value.rule == "4.01.08"


# --- WBC heats and final ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6])
def test_wbc_heat_limit_is_five_hours_whatever_the_table_size(players: int) -> None:
    """WBC Preliminary Heat Duration: 10 game turns or 5 hours, whichever comes first."""
    dl = limits.deadlines(LIMITS["wbc_heat"], players=players, started_at=START)
    assert dl.time_up == START + 5 * H
    assert dl.last_30 == START + 4 * H + 30 * M
    assert dl.last_turn is None
    assert LIMITS["wbc_heat"].max_turns == 10


@pytest.mark.parametrize("players", [5, 6])
def test_wbc_heat_no_new_turn_within_30_minutes_of_the_end(players: int) -> None:
    """WBC: players should not begin a new game turn within 30 minutes of the heat's end;
    they may not continue past the time limit."""
    limit = LIMITS["wbc_heat"]
    dl = limits.deadlines(limit, players=players, started_at=START)
    with time_machine.travel(START + 4 * H + 29 * M, tick=False) as traveller:
        state = limits.state_at(dl, now())
        assert state == RUNNING and limits.may_start_turn(state, limit)
        traveller.shift(M)
        state = limits.state_at(dl, now())
        assert state == LAST_30 and not limits.may_start_turn(state, limit)
        traveller.shift(30 * M)
        assert limits.state_at(dl, now()) == TIME_UP
    assert limit.no_new_turn == LAST_30


def test_wbc_final_is_fifteen_turns_or_eight_hours() -> None:
    """WBC Final Round Duration: 15 turns or 8 hours, whichever comes first."""
    limit = LIMITS["wbc_final"]
    dl = limits.deadlines(limit, players=6, started_at=START)
    assert dl.time_up == START + 8 * H
    assert dl.last_30 == START + 7 * H + 30 * M
    assert limit.max_turns == 15
    assert limits.display_state(RUNNING, turn=14, limit=limit) == RUNNING
    assert limits.display_state(RUNNING, turn=15, limit=limit) == LAST_TURN


def test_wbc_final_limit_may_be_waived_by_all_players() -> None:
    """WBC Final Round Duration: if all players agree at the start, the limit may be
    disregarded: the clock has no deadlines and never runs out."""
    dl = limits.deadlines(LIMITS["wbc_final"], players=6, started_at=START, waived=True)
    assert dl == limits.NO_DEADLINES
    assert limits.state_at(dl, START + 100 * H) == RUNNING


def test_wbc_heat_limit_cannot_be_waived() -> None:
    """WBC heats: players do not have the option to continue past the time limit."""
    with pytest.raises(UnknownLimit):
        limits.deadlines(LIMITS["wbc_heat"], players=6, started_at=START, waived=True)


def test_wbc_start_grace_is_fifteen_minutes() -> None:
    """WBC: all games must begin within 15 minutes of the scheduled start time."""
    assert limits.grace_ends(LIMITS["wbc_heat"], START) == START + 15 * M
    assert limits.grace_ends(LIMITS["wbc_final"], START) == START + 15 * M
    assert limits.grace_ends(LIMITS["wbc_heat"], None) is None


def test_every_limit_is_named_once() -> None:
    assert sorted(LIMITS) == ["lolv", "wbc_final", "wbc_heat"]
    assert all(LIMITS[key].key == key for key in LIMITS)


def test_limit_keys_match_the_engines_time_up_clocks() -> None:
    """The game log's `time_up.clock` field takes exactly these keys."""
    from dune.engine.events import CLOCKS

    assert set(LIMITS) == set(CLOCKS)


# --- breaks (pauses) and extensions ----------------------------------------------------------


@pytest.mark.parametrize(("key", "players"), [("lolv", 5), ("lolv", 6), ("wbc_heat", 5), ("wbc_heat", 6)])
def test_wbc_breaks_pause_moves_every_later_deadline_by_its_length(key: str, players: int) -> None:
    """WBC Time Guidelines recommend 15-minute breaks after turns 4 and 8: a paused clock's
    deadlines move by exactly the length of the breaks."""
    plain = limits.deadlines(LIMITS[key], players=players, started_at=START)
    breaks = [
        Interval(START + 2 * H, START + 2 * H + 15 * M),
        Interval(START + 3 * H, START + 3 * H + 15 * M),
    ]
    paused = limits.deadlines(LIMITS[key], players=players, started_at=START, pauses=breaks)
    for name, moment in plain.as_dict().items():
        other = paused.as_dict()[name]
        assert (moment is None and other is None) or other - moment == 30 * M  # type: ignore[operator]


def test_pause_after_a_deadline_does_not_move_it() -> None:
    """A stage already reached stays where it was; only later deadlines move."""
    limit = LIMITS["wbc_heat"]
    pause = Interval(START + 4 * H + 40 * M, START + 4 * H + 50 * M)
    dl = limits.deadlines(limit, players=6, started_at=START, pauses=[pause])
    assert dl.last_30 == START + 4 * H + 30 * M
    assert dl.time_up == START + 5 * H + 10 * M


def test_open_pause_holds_the_deadlines() -> None:
    """While a break lasts, the deadlines after it are unknown (NULL in the database)."""
    dl = limits.deadlines(LIMITS["lolv"], players=5, started_at=START, pauses=[Interval(START + H)])
    assert dl == limits.NO_DEADLINES


def test_pause_under_a_moving_clock() -> None:
    """A clock paused for 20 minutes under a moving clock reaches its stages 20 minutes later."""
    limit = LIMITS["wbc_heat"]
    with time_machine.travel(START, tick=False) as traveller:
        traveller.shift(H)
        pause_start = now()
        traveller.shift(20 * M)
        pauses = [Interval(pause_start, now())]
        assert limits.active_time(started_at=START, pauses=pauses, now=now()) == H
        dl = limits.deadlines(limit, players=6, started_at=START, pauses=pauses)
        traveller.move_to(START + 5 * H)
        assert limits.state_at(dl, now()) == LAST_30
        traveller.move_to(START + 5 * H + 20 * M)
        assert limits.state_at(dl, now()) == TIME_UP


def test_extension_adds_exactly_the_given_minutes() -> None:
    """A head judge's extension moves every deadline by exactly its minutes."""
    added = limits.check_extension(17)
    assert added == 17 * M
    plain = limits.deadlines(LIMITS["lolv"], players=6, started_at=START)
    longer = limits.deadlines(LIMITS["lolv"], players=6, started_at=START, extension=added)
    for name in (LAST_30, LAST_TURN, TIME_UP):
        assert longer.at(name) - plain.at(name) == 17 * M  # type: ignore[operator]


@pytest.mark.parametrize("bad", [0, -5, 241, 10_000, 1.5, "15", True, None])
def test_extension_must_be_whole_minutes_between_1_and_240(bad: object) -> None:
    with pytest.raises(InvalidDuration) as err:
        limits.check_extension(bad)
    assert err.value.input == bad and err.value.rule == "minutes"


def test_negative_total_extension_is_refused() -> None:
    with pytest.raises(InvalidDuration):
        limits.deadlines(LIMITS["lolv"], players=6, started_at=START, extension=-M)


def test_malformed_pauses_are_refused() -> None:
    with pytest.raises(IntervalError, match="overlap"):
        limits.check_intervals(
            START, [Interval(START + H, START + 2 * H), Interval(START + H, START + 3 * H)]
        )
    with pytest.raises(IntervalError, match="only the last"):
        limits.check_intervals(START, [Interval(START + H), Interval(START + 2 * H, START + 3 * H)])
    with pytest.raises(IntervalError, match="before it starts"):
        limits.check_intervals(START, [Interval(START + H, START)])
    with pytest.raises(IntervalError):
        limits.check_intervals(START, [Interval(START - H, START)])


def test_next_deadline_skips_missing_stages() -> None:
    dl = limits.deadlines(LIMITS["wbc_heat"], players=6, started_at=START)
    assert limits.next_deadline(dl, RUNNING) == (LAST_30, START + 4 * H + 30 * M)
    assert limits.next_deadline(dl, LAST_30) == (TIME_UP, START + 5 * H)
    assert limits.next_deadline(dl, TIME_UP) is None
    assert limits.next_deadline(dl, limits.FINISHED) is None


@given(
    players=st.integers(min_value=1, max_value=6),
    key=st.sampled_from(sorted(LIMITS)),
    gaps=st.lists(
        st.tuples(st.integers(min_value=0, max_value=600), st.integers(min_value=0, max_value=60)), max_size=6
    ),
    extension=st.integers(min_value=0, max_value=240),
)
def test_deadlines_move_by_exactly_the_pauses_before_them(
    players: int, key: str, gaps: list[tuple[int, int]], extension: int
) -> None:
    """Property: each deadline equals the unpaused one plus the pauses that started before
    the clock reached it; the stages stay in order; the active time at a deadline is the
    stage's offset plus the extension."""
    limit = LIMITS[key]
    pauses: list[Interval] = []
    cursor = START
    for gap, length in gaps:
        start = cursor + gap * M
        pauses.append(Interval(start, start + length * M))
        cursor = start + length * M
    dl = limits.deadlines(limit, players=players, started_at=START, pauses=pauses, extension=extension * M)
    moments = [m for m in (dl.last_30, dl.last_turn, dl.time_up) if m is not None]
    assert moments == sorted(moments)
    for stage in limit.stages(players=players):
        moment = dl.at(stage.state)
        assert moment is not None
        assert limits.active_time(started_at=START, pauses=pauses, now=moment) == stage.at + extension * M


# --- call the clock ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "seconds", "event_action"),
    [("bid", 10, "bid"), ("turn", 120, "turn"), ("battle_plan", 120, "battle_plan"), ("nexus", 600, "nexus")],
)
def test_wbc_time_guidelines_call_the_clock(action: str, seconds: int, event_action: str) -> None:
    """WBC Time Guidelines: a called clock gives 10 s for a bid, 2 min for shipment and
    movement, 2 min for a battle plan and 10 min for a Nexus; on expiry the default action is
    taken (pass; no shipment or movement; lowest leader, dial 0, no spice, no cards; no change)."""
    rule = limits.call_rule(action)
    assert rule.duration == timedelta(seconds=seconds)
    assert rule.duration_text == (f"{seconds // 60} min" if seconds >= 60 else f"{seconds} s")
    assert limits.default_action_event(action, "harkonnen") == {
        "type": "default_action",
        "faction": "harkonnen",
        "action": event_action,
    }


def test_wbc_default_actions_are_valid_engine_events() -> None:
    """The default-action events parse as the engine's `default_action` events."""
    from dune.engine.events import DEFAULT_ACTIONS, event_from_dict

    for action in ("bid", "turn", "battle_plan", "nexus"):
        event = limits.default_action_event(action, "fremen")
        assert event is not None and event["action"] in DEFAULT_ACTIONS
        assert event_from_dict(event).to_dict()["action"] == event["action"]


def test_wbc_diplomacy_chip_is_two_minutes_three_per_player() -> None:
    """WBC: a diplomacy chip buys a timed 2-minute talk; each player gets 3 per game."""
    assert limits.call_rule("diplomacy").duration == 2 * M
    assert limits.default_action_event("diplomacy", "atreides") is None
    assert [limits.check_chip_available(used=n, faction="atreides", chips=3) for n in range(3)] == [2, 1, 0]
    with pytest.raises(ChipsExhausted) as err:
        limits.check_chip_available(used=3, faction="atreides", chips=3)
    assert err.value.rule == limits.CHIPS_RULE and "Atreides" in str(err.value)


def test_a_format_without_diplomacy_chips_refuses_the_first() -> None:
    """LoLV: no diplomacy chips (the WBC time guidelines are not its rules)."""
    with pytest.raises(ChipsExhausted) as err:
        limits.check_chip_available(used=0, faction="atreides", chips=0)
    assert "no diplomacy chips" in str(err.value)


def test_unknown_call_action_is_refused() -> None:
    with pytest.raises(UnknownLimit, match="'karama'"):
        limits.call_rule("karama")


def test_limits_module_imports_no_django() -> None:
    """The deadline arithmetic is a pure core: importing it loads no Django."""
    code = "import sys, dune.clock_limits; sys.exit(1 if any(m.startswith('django') for m in sys.modules) else 0)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
