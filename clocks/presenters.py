"""What a page or an API answer shows of a clock, computed against one `now` (the database's)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clocks.dbtime import db_now
from clocks.game_log import current_turn, decided_tables, turns_for
from clocks.models import CallTimer, ClockPause, TableClock
from dune import clock_limits as limits
from foundation.core_words import core_word
from tournament.table_state import CLOCK_STOPPED, TableState, table_state


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _frozen_deadlines(clock: TableClock, now: datetime) -> limits.Deadlines:
    """While paused: the deadlines the clock would have if it resumed right now."""
    if clock.started_at is None or clock.waived:
        return limits.NO_DEADLINES
    pauses = [p.as_interval() for p in clock.pauses.order_by("started_at")]
    if pauses and pauses[-1].end is None:
        pauses[-1] = limits.Interval(pauses[-1].start, max(now, pauses[-1].start))
    return limits.deadlines(
        clock.limit,
        players=clock.players,
        started_at=clock.started_at,
        pauses=pauses,
        extension=clock.extension,
    )


def table_states(tables: list[Any]) -> dict[int, TableState]:
    """The state of each table (`tournament.table_state`) by id, with the facts the clocks
    and the game log own: each clock's stage and pause, and whether the game holds a result
    (two queries for all of them)."""
    ids = [t.pk for t in tables]
    clocks = dict(
        (table_id, (state, paused_at is not None))
        for table_id, state, paused_at in TableClock.objects.filter(table_id__in=ids).values_list(
            "table_id", "state", "paused_at"
        )
    )
    decided = set(decided_tables(ids))
    states = {}
    for t in tables:
        stage, paused = clocks.get(t.pk, (None, False))
        states[t.pk] = table_state(t, decided=t.pk in decided, clock=stage, paused=paused)
    return states


def clock_views(tables: list[Any], *, now: datetime, turns: dict[int, int | None] | None = None) -> list[dict[str, Any]]:
    """`clock_view` of each table, with the clocks and the game results read in one query each."""
    clocks = {c.table_id: c for c in TableClock.objects.filter(table__in=[t.pk for t in tables]).select_related("table__round__tournament")}
    decided = set(decided_tables([t.pk for t in tables]))
    turns = turns or {}
    return [clock_view(t, clocks.get(t.pk), now=now, turn=turns.get(t.pk), decided=t.pk in decided) for t in tables]


def _state(table: Any, clock: TableClock | None, decided: bool | None) -> TableState:
    """The table's state with its clock; `decided` None: the game record is asked."""
    if decided is None:
        decided = bool(decided_tables([table.pk]))
    return table_state(
        table,
        decided=decided,
        clock=clock.state if clock is not None else None,
        paused=clock is not None and clock.paused_at is not None,
    )


def clock_view(
    table: Any, clock: TableClock | None, *, now: datetime, turn: int | None = None, decided: bool | None = None
) -> dict[str, Any]:
    """A plain dict for templates: state, labels, the next deadline and the time left, and the
    table's state (`table_state`; `decided`: whether its game holds a result, asked when None).
    A game that is over shows its clock finished, with no time left to count."""
    state = _state(table, clock, decided)
    if clock is None:
        return {
            "table": table,
            "table_state": state,
            "clock": None,
            "state": limits.PENDING,
            "display_state": limits.PENDING,
            "state_label": core_word(limits.STATE_LABELS[limits.PENDING]),
            "paused": False,
            "next_state": None,
            "next_label": "",
            "next_at": None,
            "remaining_seconds": None,
            "turn": turn,
        }
    limit = clock.limit
    paused = clock.paused_at is not None
    dl = _frozen_deadlines(clock, now) if paused else clock.get_deadlines()
    upcoming = limits.next_deadline(dl, clock.state) if clock.started_at else None
    remaining = None
    if upcoming is not None:
        remaining = max((upcoming[1] - now) / timedelta(seconds=1), 0.0)
    shown = limits.display_state(clock.state, turn=turn, limit=limit)
    if state.over and clock.state != limits.FINISHED:
        # The game is over: the clocks finish this one; until then it has nothing to time.
        upcoming, remaining, shown, paused = None, None, limits.FINISHED, False
    return {
        "table": table,
        "table_state": state,
        "clock": clock,
        "limit": limit,
        "state": clock.state,
        "display_state": shown,
        # A paused clock says so first and only: its stage shows again once it runs.
        "state_label": _("Paused: clock stopped") if paused else core_word(limit.stage_label(shown)),
        "paused": paused,
        "deadlines": dl,
        "next_state": upcoming[0] if upcoming else None,
        "next_label": core_word(limit.stage_label(upcoming[0])) if upcoming else "",
        "next_at": upcoming[1] if upcoming else None,
        "remaining_seconds": remaining,
        "turn": turn,
        "extension_minutes": int(clock.extension / timedelta(minutes=1)),
        "grace_ends": limits.grace_ends(limit, table.round.starts_at),
        "may_start_turn": limits.may_start_turn(clock.state, limit),
        # The warning stage's short name ("Last 30"; a document's window: "Last 20").
        "warning_label": f"Last {int(limit.warning / limits.MINUTE)}",
    }


def clock_payload(
    table: Any, clock: TableClock | None, *, now: datetime, turn: int | None = None, decided: bool | None = None
) -> dict[str, Any]:
    """The JSON answer of `GET /api/tables/{id}/clock/`.

    Long because it lists every key of the public answer in one place, where API clients can
    read them.
    """
    view = clock_view(table, clock, now=now, turn=turn, decided=decided)
    body: dict[str, Any] = {
        "table": table.pk,
        "table_number": table.number,
        "round": table.round_id,
        "server_now": now.isoformat(),
        "state": view["state"],
        "table_state": view["table_state"].key,
        "table_state_label": view["table_state"].label,
        "display_state": view["display_state"],
        "state_label": view["state_label"],
        "paused": view["paused"],
        "turn": turn,
        "next": None,
        "remaining_seconds": view["remaining_seconds"],
    }
    if clock is None:
        body.update({"started": False, "deadlines": {}})
        return body
    limit = clock.limit
    deadlines = view["deadlines"]
    body.update(
        {
            "started": clock.started_at is not None,
            "limit": clock.limit_key,
            "limit_label": limits.limit_words(limit, translation),
            "rule": limit.rule,
            "players": clock.players,
            "max_turns": limit.max_turns,
            "started_at": _iso(clock.started_at),
            "paused_at": _iso(clock.paused_at),
            "deadlines": {k: _iso(v) for k, v in deadlines.as_dict().items()},
            # The same clock-face times the pages print (in the server's time zone).
            "deadline_labels": {
                k: (timezone.localtime(v).strftime("%H:%M") if v else None)
                for k, v in deadlines.as_dict().items()
            },
            "next": (
                {
                    "state": view["next_state"],
                    "at": _iso(view["next_at"]),
                    "label": view["next_label"],
                    # What the countdown counts down to, as the pages say it.
                    "words": _("to %(stage)s") % {"stage": view["next_label"]},
                }
                if view["next_at"] is not None
                else None
            ),
            "extension_minutes": view["extension_minutes"],
            "waived": clock.waived,
            "grace_ends": _iso(view["grace_ends"]),
            "may_start_turn": view["may_start_turn"],
            "version": clock.version,
            "calls": [
                {
                    "id": t.pk,
                    "action": t.action,
                    "faction": t.faction,
                    "ends_at": _iso(t.ends_at),
                    "remaining_seconds": max((t.ends_at - now) / timedelta(seconds=1), 0.0),
                    "default": limits.call_rule(t.action).default,
                }
                for t in CallTimer.objects.filter(table=table, state=CallTimer.State.RUNNING).order_by(
                    "ends_at"
                )
            ],
        }
    )
    return body


def duration_words(span: timedelta) -> str:
    """A long span in words, to the hour ("12 hours"), or to the minute under an hour."""
    hours, minutes = divmod(round(span.total_seconds() / 60), 60)
    if hours:
        hours += minutes >= 30
        return ngettext("%(hours)d hour", "%(hours)d hours", hours) % {"hours": hours}
    return ngettext("%(minutes)d minute", "%(minutes)d minutes", minutes) % {"minutes": minutes}


def hms(seconds: float | None) -> str:
    """`1:05:09` style; `—` when there is nothing to count."""
    if seconds is None:
        return "—"
    total = max(int(seconds), 0)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


def round_pause(round_: Any) -> ClockPause | None:
    """The pause of the whole round in force now (the earliest still open), if any."""
    return (
        ClockPause.objects.filter(clock__table__round=round_, round_wide=True, ended_at__isnull=True)
        .select_related("started_by")
        .order_by("started_at")
        .first()
    )


def left_alone(round_: Any, numbers: list[int], action: str) -> list[str]:
    """Why a round-wide start, pause or resume left these tables alone, one phrase per table."""
    clocks = {
        c.table.number: c
        for c in TableClock.objects.filter(table__round=round_, table__number__in=numbers).select_related("table__round__tournament")
    }
    own_pause = set(
        ClockPause.objects.filter(
            clock__table__round=round_, clock__table__number__in=numbers, ended_at__isnull=True, round_wide=False
        ).values_list("clock__table__number", flat=True)
    )
    said = []
    for number in numbers:
        clock = clocks.get(number)
        if clock is None or clock.started_at is None:
            why = _("its clock has not started")
        elif clock.state == limits.FINISHED:
            why = _("its game is finished")
        elif action == "resume" and number in own_pause:
            why = _("it was paused on its own, not by the round: resume it with its own Resume button")
        elif action == "resume":
            why = _("it was not paused")
        elif action == "pause" and clock.paused_at is not None:
            why = _("it was already paused")
        elif action == "start":
            why = _("its clock is already running")
        else:
            state = core_word(limits.STATE_LABELS.get(clock.state, clock.state)).lower()
            why = {
                "start": _("its clock cannot be started now (%(state)s)"),
                "pause": _("its clock cannot be paused now (%(state)s)"),
                "resume": _("its clock cannot be resumed now (%(state)s)"),
            }.get(action, _("its clock cannot change now (%(state)s)")) % {"state": state}
        said.append(_("table %(number)s: %(why)s") % {"number": number, "why": why})
    return said


def table_clock_answer(table: Any) -> dict[str, Any]:
    """`GET /api/tables/{id}/clock/`'s answer now, and every clock command's answer."""
    clock = TableClock.objects.filter(table=table).select_related("table__round__tournament").first()
    return clock_payload(table, clock, now=db_now(), turn=current_turn(table))


def round_clocks_answer(round_: Any) -> dict[str, Any]:
    """`GET /api/rounds/{id}/clocks/`'s answer now: every table's clock, by table number."""
    now = db_now()
    clocks = {
        c.table_id: c
        for c in TableClock.objects.filter(table__round=round_).select_related("table__round__tournament")
    }
    tables = list(round_.tables.select_related("round__tournament").order_by("number"))
    turns = turns_for(t.pk for t in tables)
    decided = set(decided_tables([t.pk for t in tables]))
    rows = [
        clock_payload(t, clocks.get(t.pk), now=now, turn=turns.get(t.pk), decided=t.pk in decided) for t in tables
    ]
    return {"round": round_.pk, "server_now": now.isoformat(), "clocks": rows}


def _ending_otherwise(
    ends: tuple[tuple[int, datetime], ...], clocks: dict[int, TableClock], now: datetime
) -> list[dict[str, Any]]:
    """The tables that end apart from the room, by table number, each with its end."""
    return [
        {
            "table": clocks[pk].table_id,
            "table_number": clocks[pk].table.number,
            "ends_at": moment,
            "remaining_seconds": max((moment - now) / timedelta(seconds=1), 0.0),
        }
        for pk, moment in sorted(ends, key=lambda item: clocks[item[0]].table.number)
    ]


def round_timer(round_: Any, *, now: datetime) -> dict[str, Any]:
    """The projector timer of a round: one countdown to the moment the room's time is up.

    The tables still playing (a started clock, no report filed, not finished) end together when
    a round-wide start set them going (`dune.clock_limits.room_end` groups ends within its
    tolerance); the room's end is the one most of them share, and each table ending at another
    moment (an extension, a later start, a pause of its own) is listed apart with its end.
    `counts_down_to`: the stage the big countdown reaches at zero (time up); `no_new_turn_at`:
    when the room's tables may start no new turn. `state`: "pending" (no clock started yet),
    "running", "paused" (every playing clock is paused: the time left is frozen), "time_up",
    "over" (every table finished or filed)."""
    clocks = list(
        TableClock.objects.filter(table__round=round_)
        .select_related("table__round__tournament")
        .order_by("table__number")
    )
    # Each table's state (`tournament.table_state`): a game that is over times nothing.
    states = table_states(list(round_.tables.all()))
    playing = [c for c in clocks if c.started_at is not None and states[c.table_id].counting]
    tables = len(states)
    base = {
        "tables": tables,
        "playing": len(playing),
        "ends_at": None,
        "remaining_seconds": None,
        "counts_down_to": limits.TIME_UP,
        "no_new_turn_at": None,
        "tables_ending_otherwise": [],
        "others": 0,
    }
    if not playing:
        done = {pk for pk, state in states.items() if state.clock == CLOCK_STOPPED}
        return {**base, "state": "over" if tables and len(done) == tables else "pending"}
    deadlines = {
        c.pk: _frozen_deadlines(c, now) if c.paused_at is not None else c.get_deadlines() for c in playing
    }
    paused = sum(1 for c in playing if c.paused_at is not None)
    room = limits.room_end({pk: dl.time_up for pk, dl in deadlines.items() if dl.time_up is not None})
    if room is None:  # every playing clock's limit was waived
        return {**base, "state": "running"}
    by_pk = {c.pk: c for c in playing}
    no_new_turn = [
        deadlines[pk].at(by_pk[pk].limit.no_new_turn)
        for pk in room.together
        if by_pk[pk].limit.no_new_turn != limits.TIME_UP
    ]
    remaining = max((room.ends_at - now) / timedelta(seconds=1), 0.0)
    state = "paused" if paused == len(playing) else ("time_up" if remaining <= 0 else "running")
    otherwise = _ending_otherwise(room.otherwise, by_pk, now)
    return {
        **base,
        "state": state,
        "ends_at": room.ends_at,
        "remaining_seconds": remaining,
        "no_new_turn_at": max((m for m in no_new_turn if m is not None), default=None),
        "tables_ending_otherwise": otherwise,
        "others": len(otherwise),
    }


def round_timer_answer(round_: Any) -> dict[str, Any]:
    """`GET /api/rounds/{id}/timer/`'s answer now: what the projector timer shows."""
    now = db_now()
    timer = round_timer(round_, now=now)
    return {
        "round": round_.pk,
        "server_now": now.isoformat(),
        "state": timer["state"],
        "ends_at": _iso(timer["ends_at"]),
        "remaining_seconds": timer["remaining_seconds"],
        "counts_down_to": timer["counts_down_to"],
        "counts_down_to_label": core_word(limits.STATE_LABELS[timer["counts_down_to"]]),
        "no_new_turn_at": _iso(timer["no_new_turn_at"]),
        "tables": timer["tables"],
        "playing": timer["playing"],
        "tables_ending_otherwise": [
            {**row, "ends_at": _iso(row["ends_at"])} for row in timer["tables_ending_otherwise"]
        ],
    }
