"""Table time limits as data, and the deadline arithmetic of a table's clock.

Pure Python: no Django, no wall clock. Every function takes the moments it needs
(`started_at`, the paused intervals, `now`) as timezone-aware datetimes, so the same
arithmetic runs in the web process, in a Celery worker and under a controlled clock in tests.

The stages of a clock, in order: `running`, `last_30` (the last thirty minutes of the time
limit, or a format document's no-new-turn window of other minutes: `Limit.warning`), `last_turn` (the limit has passed, the table finishes the turn it is on), `time_up`
(play is over) and `finished` (the game ended, set by the table, never by time). A limit
lists which stages it has and at what *active* time (time the clock ran, pauses excluded)
each one starts; `no_new_turn` names the stage from which the rules forbid starting a new
turn, which is when the table's game log receives its `time_up` event.

Sources: LoLV 4.01.08 (one hour per player, then thirty minutes to finish the turn) and
0.02 (at most 10 turns); WBC 2018 "Preliminary Heat Duration" (10 turns or 5 hours, no new
turn within 30 minutes of the end), "Final Round Duration" (15 turns or 8 hours, waivable
by all players at the start), the 15-minute start grace, and the "Time Guidelines" for
calling the clock (with their default actions) and the diplomacy chips.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Generic, TypeVar

from dune.engine.names import faction_name
from dune.engine.rulesets import get_ruleset
from dune.refusals import NO_INPUT, Refusal
from dune.words import ENGLISH, Words

# --- states ------------------------------------------------------------------------------

PENDING = "pending"
RUNNING = "running"
LAST_30 = "last_30"
LAST_TURN = "last_turn"
TIME_UP = "time_up"
FINISHED = "finished"

#: Every state a clock can be in, in the order time moves it.
STATES: tuple[str, ...] = (PENDING, RUNNING, LAST_30, LAST_TURN, TIME_UP, FINISHED)
#: The states the passing of time moves a clock between (pending waits for a start,
#: finished is set by the table).
TIMED_STATES: tuple[str, ...] = (RUNNING, LAST_30, LAST_TURN, TIME_UP)
#: States in which the clock still counts.
LIVE_STATES: tuple[str, ...] = (RUNNING, LAST_30, LAST_TURN)

STATE_LABELS: Mapping[str, str] = {
    PENDING: "Not started",
    RUNNING: "Running",
    LAST_30: "Last 30 minutes",
    LAST_TURN: "Last turn",
    TIME_UP: "Time up",
    FINISHED: "Finished",
}

MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)


# --- errors ------------------------------------------------------------------------------


class ClockError(Refusal):
    """A refused clock operation: carries the rule (or field) and the offending input."""

    def __init__(self, *, rule: str, msg: str, input: object = NO_INPUT) -> None:
        self.input = None if input is NO_INPUT else input
        text = f"{rule}: {msg}" if rule else msg
        if input is not NO_INPUT:
            text += f" (got {input!r})"
        super().__init__(msg, rule=rule, offending=input, text=text)

    def to_dict(self) -> dict[str, object]:
        return {"detail": str(self), "rule": self.rule, "input": repr(self.input)}


class UnknownLimit(ClockError):
    """An unknown format, round kind, limit key or call-the-clock action."""


class InvalidDuration(ClockError):
    """A negative, zero or implausibly large extension, or a bad player count."""


class IntervalError(ClockError):
    """Paused intervals that overlap, run backwards or start before the clock did."""


class ChipsExhausted(ClockError):
    """A player tried to spend a fourth diplomacy chip in one game."""


# --- limits ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stage:
    """A clock enters `state` once it has run `at` (pauses excluded) since its start."""

    state: str
    at: timedelta


@dataclass(frozen=True, slots=True)
class Limit:
    """One format's time limit.

    `base` is the fixed limit, `per_player` is added once per player at the table (LoLV);
    `finish_turn` is the extra time after the limit to finish the turn in progress (LoLV);
    `no_new_turn_before_end` is how long before the end no new turn may start (WBC).
    The turn limit is not the clock's: `max_turns` reads the game ruleset's limit for the
    limit's round kind (`Ruleset.turn_limit_for`), so the clock and the game agree.
    """

    key: str
    label: str
    rule: str
    #: The engine ruleset the limit's tables play, and the kind of round it times.
    ruleset: str
    round_kind: str
    base: timedelta = timedelta(0)
    per_player: timedelta = timedelta(0)
    finish_turn: timedelta = timedelta(0)
    no_new_turn_before_end: timedelta = timedelta(0)
    warning: timedelta = 30 * MINUTE
    start_grace: timedelta = timedelta(0)
    grace_rule: str = ""
    waivable: bool = False
    #: The turn limit of the format the clock belongs to, with its rule (a format document
    #: sets them; 0: the ruleset's for the round kind).
    turns: int = 0
    turns_rule_text: str = ""
    #: The name of the format whose own document built the limit ("" for a preset's limit,
    #: named by its `label`); `limit_words` describes such a limit from its numbers.
    format_name: str = ""

    @property
    def max_turns(self) -> int:
        """The most game turns a table under this limit plays (its format's, else the ruleset's
        for its round kind)."""
        return self.turns or get_ruleset(self.ruleset).turn_limit_for(self.round_kind)

    @property
    def turns_rule(self) -> str:
        """The rule setting `max_turns` (LoLV 0.02; WBC heat or final duration)."""
        return self.turns_rule_text or get_ruleset(self.ruleset).round(self.round_kind).turns_rule

    def time_limit(self, *, players: int) -> timedelta:
        """The limit proper (before any finishing time) for a table of `players`.

        Raises InvalidDuration for fewer than 1 or more than 6 players.
        """
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 6:
            raise InvalidDuration(rule=self.rule, msg="a table has 1 to 6 players", input=players)
        return self.base + self.per_player * players

    def stages(self, *, players: int) -> tuple[Stage, ...]:
        """The timed stages after `running`, in order, with the active time each starts at.

        Raises InvalidDuration for a bad player count.
        """
        limit = self.time_limit(players=players)
        stages = [Stage(LAST_30, limit - self.warning)]
        if self.finish_turn:
            stages.append(Stage(LAST_TURN, limit))
            stages.append(Stage(TIME_UP, limit + self.finish_turn))
        else:
            stages.append(Stage(TIME_UP, limit))
        return tuple(stages)

    @property
    def no_new_turn(self) -> str:
        """The stage from which no new turn may start (the game log's `time_up` event)."""
        if self.finish_turn:
            return LAST_TURN  # LoLV 4.01.08: the limit passed, finish the turn in progress
        if self.no_new_turn_before_end == self.warning:
            return LAST_30  # WBC: no new turn within the last 30 minutes (a document: N)
        if not self.no_new_turn_before_end:
            return TIME_UP  # a document without the window: turns start until the time is up
        raise UnknownLimit(rule=self.rule, msg="limit has no stage where new turns stop", input=self.key)

    def stage_label(self, state: str) -> str:
        """A state as the clock pages name it under this limit: the warning stage is the last
        30 minutes, or the document's no-new-turn window ("Last 20 minutes")."""
        if state == LAST_30 and self.warning != 30 * MINUTE:
            minutes = int(self.warning / MINUTE)
            return f"Last {minutes} minute{'' if minutes == 1 else 's'}"
        return STATE_LABELS[state]


def _hours(delta: timedelta, words: Words) -> str:
    """A whole or part number of hours in words ("5 hours", "1.5 hours": the reader's decimal
    mark)."""
    exact = (Decimal(int(delta.total_seconds() // 60)) / 60).quantize(Decimal("0.001"), ROUND_HALF_UP)
    hours = format(exact.normalize(), "f")
    number = hours.replace(".", words.pgettext("the decimal mark of a number", "."))
    return words.ngettext("%(hours)s hour", "%(hours)s hours", 1 if hours == "1" else 2) % {"hours": number}


def limit_words(limit: Limit, words: Words = ENGLISH) -> str:
    """The limit in words, as the clock pages show it: a preset's by its label (which the
    catalogue translates), a format's own from its numbers ("Club heat: 9 turns or 4 hours, no
    new turn in the last 20 minutes")."""
    if not limit.format_name:
        return words.gettext(limit.label) if limit.label else limit.label
    kind = (
        words.pgettext("a round's kind in a time limit's name", "heat")
        if limit.round_kind == "heat"
        else words.pgettext("a round's kind in a time limit's name", "final")
    )
    per_player = words.gettext("%(time)s per player") % {"time": _hours(limit.per_player, words)}
    if limit.base and limit.per_player:
        time = words.gettext("%(time)s and %(per_player)s") % {"time": _hours(limit.base, words), "per_player": per_player}
    else:
        time = per_player if limit.per_player else _hours(limit.base, words)
    fields = {"name": limit.format_name, "kind": kind, "turns": limit.max_turns, "time": time}
    turns = limit.max_turns
    if limit.finish_turn:
        fields["minutes"] = int(limit.finish_turn / MINUTE)
        return words.ngettext(
            "%(name)s %(kind)s: %(turns)s turn, %(time)s, then %(minutes)s minutes to finish the turn",
            "%(name)s %(kind)s: %(turns)s turns, %(time)s, then %(minutes)s minutes to finish the turn",
            turns,
        ) % fields
    window = int(limit.no_new_turn_before_end / MINUTE)
    if not window:
        return words.ngettext("%(name)s %(kind)s: %(turns)s turn or %(time)s", "%(name)s %(kind)s: %(turns)s turns or %(time)s", turns) % fields
    fields["minutes"] = window
    return words.ngettext(
        "%(name)s %(kind)s: %(turns)s turn or %(time)s, no new turn in the last %(minutes)s minutes",
        "%(name)s %(kind)s: %(turns)s turns or %(time)s, no new turn in the last %(minutes)s minutes",
        turns,
    ) % fields


LOLV_LIMIT = Limit(
    key="lolv",
    label="LoLV: 1 hour per player, then 30 minutes to finish the turn",
    rule="4.01.08",
    ruleset="lolv-2.8.4",
    round_kind="heat",
    per_player=HOUR,
    finish_turn=30 * MINUTE,
)
WBC_HEAT_LIMIT = Limit(
    key="wbc_heat",
    label="WBC heat: 10 turns or 5 hours, no new turn in the last 30 minutes",
    rule="WBC Preliminary Heat Duration",
    ruleset="wbc2018",
    round_kind="heat",
    base=5 * HOUR,
    no_new_turn_before_end=30 * MINUTE,
    start_grace=15 * MINUTE,
    grace_rule="WBC start grace",
)
WBC_FINAL_LIMIT = Limit(
    key="wbc_final",
    label="WBC final: 15 turns or 8 hours, no new turn in the last 30 minutes",
    rule="WBC Final Round Duration",
    ruleset="wbc2018",
    round_kind="final",
    base=8 * HOUR,
    no_new_turn_before_end=30 * MINUTE,
    start_grace=15 * MINUTE,
    grace_rule="WBC start grace",
    waivable=True,
)

#: Every clock limit by the name a clock row stores (`TableClock.limit_key`), for the
#: database's choices and constraint. Which limit a table plays is its format's answer
#: (`Format.clock(round_kind)`), never a lookup by this name.
LIMITS: Mapping[str, Limit] = {limit.key: limit for limit in (LOLV_LIMIT, WBC_HEAT_LIMIT, WBC_FINAL_LIMIT)}

#: Each preset limit by its name in a sentence (the game's record of the clock that ran out
#: names its key: `time_up.clock`).
LIMIT_NAMES: Mapping[str, str] = {"lolv": "LoLV", "wbc_heat": "WBC heat", "wbc_final": "WBC final"}


MAX_EXTENSION_MINUTES = 240


def check_extension(minutes: object) -> timedelta:
    """A head judge's extension as a duration.

    Raises InvalidDuration unless `minutes` is an integer from 1 to MAX_EXTENSION_MINUTES.
    """
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise InvalidDuration(rule="minutes", msg="an extension is a whole number of minutes", input=minutes)
    if minutes < 1:
        raise InvalidDuration(rule="minutes", msg="an extension must be at least 1 minute", input=minutes)
    if minutes > MAX_EXTENSION_MINUTES:
        raise InvalidDuration(
            rule="minutes", msg=f"an extension may be at most {MAX_EXTENSION_MINUTES} minutes", input=minutes
        )
    return minutes * MINUTE


# --- deadline arithmetic -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Interval:
    """A pause from `start` to `end` (`None`: still paused)."""

    start: datetime
    end: datetime | None = None


def check_intervals(started_at: datetime, pauses: Sequence[Interval]) -> None:
    """Raises IntervalError if the pauses are not ordered, disjoint, after the start, with
    only the last one open."""
    previous_end = started_at
    for i, pause in enumerate(pauses):
        if pause.start < previous_end:
            raise IntervalError(rule="pauses", msg="pauses must be ordered and not overlap", input=pause)
        if pause.end is None:
            if i != len(pauses) - 1:
                raise IntervalError(rule="pauses", msg="only the last pause may be open", input=pause)
            return
        if pause.end < pause.start:
            raise IntervalError(rule="pauses", msg="a pause cannot end before it starts", input=pause)
        previous_end = pause.end


def wall_time(
    active: timedelta,
    *,
    started_at: datetime,
    pauses: Sequence[Interval],
    extension: timedelta = timedelta(0),
) -> datetime | None:
    """The moment the clock reaches `active` running time (plus the extensions), pushing it
    back by every pause that began before it; `None` while an open pause holds it.

    A pause that starts after the moment does not move it: a stage already reached stays
    where it was. Raises IntervalError for malformed pauses.
    """
    check_intervals(started_at, pauses)
    target = started_at + active + extension
    for pause in pauses:
        if pause.start >= target:
            break
        if pause.end is None:
            return None
        target += pause.end - pause.start
    return target


def active_time(*, started_at: datetime, pauses: Sequence[Interval], now: datetime) -> timedelta:
    """How long the clock has run by `now`, pauses excluded. Raises IntervalError."""
    check_intervals(started_at, pauses)
    if now <= started_at:
        return timedelta(0)
    paused = timedelta(0)
    for pause in pauses:
        if pause.start >= now:
            break
        end = now if pause.end is None or pause.end > now else pause.end
        paused += end - pause.start
    return now - started_at - paused


@dataclass(frozen=True, slots=True)
class Deadlines:
    """The wall-clock moment of each timed stage (`None`: held by an open pause, or no such
    stage, or the limit was waived)."""

    last_30: datetime | None
    last_turn: datetime | None
    time_up: datetime | None

    def at(self, state: str) -> datetime | None:
        """Raises UnknownLimit for a state that has no deadline."""
        if state not in (LAST_30, LAST_TURN, TIME_UP):
            raise UnknownLimit(rule="state", msg="only timed stages have deadlines", input=state)
        moment: datetime | None = getattr(self, state)
        return moment

    def as_dict(self) -> dict[str, datetime | None]:
        return {LAST_30: self.last_30, LAST_TURN: self.last_turn, TIME_UP: self.time_up}


NO_DEADLINES = Deadlines(None, None, None)


def deadlines(
    limit: Limit,
    *,
    players: int,
    started_at: datetime,
    pauses: Sequence[Interval] = (),
    extension: timedelta = timedelta(0),
    waived: bool = False,
) -> Deadlines:
    """Every stage's deadline for a clock started at `started_at`.

    A waived limit (WBC final, all players agreeing) has no deadlines. Raises
    InvalidDuration for a bad player count or a negative extension, IntervalError for bad pauses.
    """
    if extension < timedelta(0):
        raise InvalidDuration(rule="extension", msg="the total extension cannot be negative", input=extension)
    if waived:
        if not limit.waivable:
            raise UnknownLimit(rule=limit.rule, msg="this time limit cannot be waived", input=limit.key)
        return NO_DEADLINES
    moments: dict[str, datetime | None] = {LAST_30: None, LAST_TURN: None, TIME_UP: None}
    for stage in limit.stages(players=players):
        moments[stage.state] = wall_time(stage.at, started_at=started_at, pauses=pauses, extension=extension)
    return Deadlines(**moments)


def state_at(dl: Deadlines, now: datetime) -> str:
    """The timed state a running clock with these deadlines is in at `now`."""
    state = RUNNING
    for name in (LAST_30, LAST_TURN, TIME_UP):
        moment = dl.at(name)
        if moment is not None and moment <= now:
            state = name
    return state


def next_deadline(dl: Deadlines, state: str) -> tuple[str, datetime] | None:
    """The first stage after `state` that has a deadline, and when; `None` if none."""
    if state not in TIMED_STATES:
        return None
    later = TIMED_STATES[TIMED_STATES.index(state) + 1 :]
    for name in later:
        moment = dl.at(name)
        if moment is not None:
            return name, moment
    return None


def display_state(state: str, *, turn: int | None, limit: Limit) -> str:
    """The state a page shows: a live clock on the game's last allowed turn shows `last_turn`
    (LoLV 0.02, WBC 10/15 turns) even before time says so."""
    if state in (RUNNING, LAST_30) and turn is not None and turn >= limit.max_turns:
        return LAST_TURN
    return state


def may_start_turn(state: str, limit: Limit) -> bool:
    """Whether a new turn may start in this state (False from the limit's no-new-turn stage)."""
    if state in (PENDING, RUNNING):
        return True
    if state == FINISHED:
        return False
    order = (LAST_30, LAST_TURN, TIME_UP)
    return order.index(state) < order.index(limit.no_new_turn)


# --- the room's end ---------------------------------------------------------------------

#: Clocks that end within this of one another end together for the room: a round-wide start
#: (or pause and resume) sets them going one after another, some milliseconds apart. It is
#: shorter than the shortest extension (one minute), so an extended table always ends apart.
ROOM_END_TOLERANCE = timedelta(seconds=30)

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RoomEnd(Generic[K]):
    """When a round's time is up for the room: `ends_at` (the latest end among the tables that
    end together, so that at zero every one of them is up), those tables, and each table that
    ends at another time (an extension, a later start, a pause of its own) with its end."""

    ends_at: datetime
    together: tuple[K, ...]
    otherwise: tuple[tuple[K, datetime], ...]


def room_end(ends: Mapping[K, datetime], *, tolerance: timedelta = ROOM_END_TOLERANCE) -> RoomEnd[K] | None:
    """The room's end among the tables' ends (`None` when no table has one).

    The ends are grouped in time order, each group holding the ends within `tolerance` of its
    first; the room's group is the one most tables share, the earliest on a tie (an extension
    or a late start only moves a table later)."""
    if not ends:
        return None
    ordered = sorted(ends.items(), key=lambda item: item[1])
    groups: list[list[tuple[K, datetime]]] = []
    for item in ordered:
        if groups and item[1] - groups[-1][0][1] <= tolerance:
            groups[-1].append(item)
        else:
            groups.append([item])
    room = max(enumerate(groups), key=lambda pair: (len(pair[1]), -pair[0]))[1]
    others = tuple(item for group in groups if group is not room for item in group)
    return RoomEnd(
        ends_at=room[-1][1],
        together=tuple(key for key, _ in room),
        otherwise=others,
    )


# --- start grace -------------------------------------------------------------------------


#: A round-wide start earlier than this before the scheduled start asks the head judge first.
EARLY_START_WARNING = 30 * MINUTE


def early_by(scheduled_start: datetime | None, now: datetime) -> timedelta | None:
    """How long before the scheduled start a start at `now` would be, when that is more than
    EARLY_START_WARNING (a clock started half a day early is a mistake to ask about); `None`
    otherwise, or when no start is scheduled."""
    if scheduled_start is None or scheduled_start - now <= EARLY_START_WARNING:
        return None
    return scheduled_start - now


def grace_ends(limit: Limit, scheduled_start: datetime | None) -> datetime | None:
    """When the start grace after the scheduled start ends (WBC: games begin within 15
    minutes); `None` when the format has none or no start is scheduled."""
    if scheduled_start is None or not limit.start_grace:
        return None
    return scheduled_start + limit.start_grace


# --- call the clock ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CallRule:
    """A call-the-clock timer: how long the action may take and what happens on expiry."""

    action: str
    label: str
    duration: timedelta
    default: str
    #: The `default_action.action` the game log records on expiry (`None`: nothing).
    event_action: str | None

    @property
    def duration_text(self) -> str:
        """`10 s`, `2 min`: how the time guidelines state the limit."""
        seconds = int(self.duration.total_seconds())
        return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"


CALL_RULE = "WBC time guidelines"
CHIPS_RULE = "WBC diplomacy chips"

CALL_TIMERS: Mapping[str, CallRule] = {
    "bid": CallRule("bid", "Treachery card bid", timedelta(seconds=10), "pass (no bid)", "bid"),
    "turn": CallRule(
        "turn", "Shipment and movement", 2 * MINUTE, "pass: no shipment and no movement", "turn"
    ),
    "battle_plan": CallRule(
        "battle_plan",
        "Battle plan",
        2 * MINUTE,
        "lowest available leader, dial 0, no spice, no cards",
        "battle_plan",
    ),
    "nexus": CallRule("nexus", "Nexus", 10 * MINUTE, "no change to alliances", "nexus"),
    "diplomacy": CallRule("diplomacy", "Diplomacy chip", 2 * MINUTE, "the talk ends", None),
}


def call_rules() -> tuple[CallRule, ...]:
    """Every call-the-clock timer, in the order a judge chooses from."""
    return tuple(CALL_TIMERS.values())


def call_rule(action: str) -> CallRule:
    """Raises UnknownLimit for an action without a call-the-clock timer."""
    try:
        return CALL_TIMERS[action]
    except KeyError:
        raise UnknownLimit(
            rule=CALL_RULE, msg=f"expected one of {sorted(CALL_TIMERS)}", input=action
        ) from None


def default_action_event(action: str, faction: str) -> dict[str, str] | None:
    """The game-log event recorded when a called clock expires, or `None` (a diplomacy chip's
    talk simply ends). Raises UnknownLimit for an unknown action."""
    rule = call_rule(action)
    if rule.event_action is None:
        return None
    return {"type": "default_action", "faction": faction, "action": rule.event_action}


def check_chip_available(*, used: int, faction: str, chips: int) -> int:
    """The chips the faction has left after spending one more of the `chips` its format gives.

    Raises ChipsExhausted if the format has none or the faction has spent them all already.
    """
    if chips <= 0:
        raise ChipsExhausted(rule=CALL_RULE, msg="these tournament rules have no diplomacy chips", input=faction)
    if used >= chips:
        raise ChipsExhausted(
            rule=CHIPS_RULE,
            msg=f"each player has {chips} diplomacy chips per game and {faction_name(faction)} has used them all",
            input=faction,
        )
    return chips - used - 1
