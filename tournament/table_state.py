"""A table's state: the one definition every page, the API, the room screen and the exports read.

A table is

- **seated**: its players know their seats; no clock has started and no game record has begun;
- **playing**: its clock has started or its game record has begun;
- **ended**: the game is over (the game record holds its result) but no report is filed yet;
- **filed**: its game report is filed (the result counts in the standings).

Beside it, the table's clock is **not started**, **running**, **paused**, **time up** or
**stopped**. A game that is over has nothing left to time: its clock is stopped whatever
the clock's row still says (the clocks finish it, `clocks.transitions.finish_decided_games`).

Like the round's state (`tournament/round_state.py`) it is read from the table's own columns,
written by the higher apps: `Table.clock_started_at` (the clocks), `Table.game_started_at` (the
game log) and `Table.report_filed_at` (scoring). Two facts owned higher up are handed in as data
by the app that owns them: whether the game record holds a result (`decided`) and the clock's
stage and pause (`clock`, `paused`); `clocks.presenters.table_states` gathers both for many
tables in two queries. `state_of` is pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from dune import clock_limits as limits

SEATED = "seated"
PLAYING = "playing"
ENDED = "ended"
FILED = "filed"
STATES = (SEATED, PLAYING, ENDED, FILED)

#: The words a page shows for each state (the API's `state` is the key).
LABELS = {
    SEATED: gettext_lazy("Seated"),
    PLAYING: gettext_lazy("Playing"),
    ENDED: gettext_lazy("Game over, report not filed"),
    FILED: gettext_lazy("Report filed"),
}

CLOCK_NOT_STARTED = "not_started"
CLOCK_RUNNING = "running"
CLOCK_PAUSED = "paused"
CLOCK_TIME_UP = "time_up"
CLOCK_STOPPED = "stopped"
CLOCK_STATES = (CLOCK_NOT_STARTED, CLOCK_RUNNING, CLOCK_PAUSED, CLOCK_TIME_UP, CLOCK_STOPPED)

CLOCK_LABELS = {
    CLOCK_NOT_STARTED: gettext_lazy("Clock not started"),
    CLOCK_RUNNING: gettext_lazy("Clock running"),
    CLOCK_PAUSED: gettext_lazy("Clock paused"),
    CLOCK_TIME_UP: gettext_lazy("Time is up"),
    CLOCK_STOPPED: gettext_lazy("Clock stopped"),
}


@dataclass(frozen=True)
class TableState:
    key: str
    clock: str

    @property
    def label(self) -> str:
        """The state in the reader's language."""
        return str(LABELS[self.key])

    @property
    def clock_label(self) -> str:
        """The clock's state in the reader's language."""
        return str(CLOCK_LABELS[self.clock])

    @property
    def words(self) -> str:
        """The state and the clock's in one line, e.g. "Report filed · Clock stopped"."""
        return f"{self.label} · {self.clock_label}"

    @property
    def over(self) -> bool:
        """The game is over (ended or filed): nothing is left to time."""
        return self.key in (ENDED, FILED)

    @property
    def filed(self) -> bool:
        return self.key == FILED

    @property
    def counting(self) -> bool:
        """Whether the clock's countdown means anything now (running, paused or time up)."""
        return self.clock in (CLOCK_RUNNING, CLOCK_PAUSED, CLOCK_TIME_UP)


def state_of(
    *,
    game_started: bool,
    clock_started: bool,
    filed: bool,
    decided: bool = False,
    clock: str | None = None,
    paused: bool = False,
) -> TableState:
    """The state of a table: `game_started`, `clock_started` and `filed` are its columns,
    `decided` whether its game record holds a result, `clock` the clock's stage
    (`dune.clock_limits.STATES`, None without a clock) and `paused` whether it is paused."""
    if filed:
        key = FILED
    elif decided:
        key = ENDED
    elif game_started or clock_started:
        key = PLAYING
    else:
        key = SEATED
    if key in (ENDED, FILED) or clock == limits.FINISHED:
        clock_key = CLOCK_STOPPED
    elif clock is None or clock == limits.PENDING:
        clock_key = CLOCK_NOT_STARTED
    elif paused:
        clock_key = CLOCK_PAUSED
    elif clock == limits.TIME_UP:
        clock_key = CLOCK_TIME_UP
    else:
        clock_key = CLOCK_RUNNING
    return TableState(key=key, clock=clock_key)


def table_state(table: Any, *, decided: bool = False, clock: str | None = None, paused: bool = False) -> TableState:
    """The state of a Table row from its columns, with the facts owned higher up handed in."""
    return state_of(
        game_started=table.game_started_at is not None,
        clock_started=table.clock_started_at is not None,
        filed=table.report_filed_at is not None,
        decided=decided,
        clock=clock,
        paused=paused,
    )
