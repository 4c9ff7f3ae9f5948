"""A clock's commands, one per action, whichever door they come through.

The clock pages (`/tables/{id}/clock/{action}/`, `/rounds/{id}/clocks/{action}/`, forms) and
the API (`POST /api/tables/{id}/clock/{action}/`, `.../clock/call/`, `.../call/stop/`,
`/api/rounds/{id}/clocks/{action}/`, JSON) call the same two commands:

- `change_table_clock(table, action, data, actor=..., key=...)`: start, pause, resume, extend,
  waive, finish, call (a called-clock timer or a diplomacy chip), stop (a called timer);
- `change_round_clocks(round_, action, data, ...)`: start, pause or resume every table's clock.

`data` is the request's fields as the door received them (a form's `POST`, the API's JSON
object); each action parses it into its typed input here, once, so "all players agree" or
"15" minutes read the same through both doors. Who may act is `clocks.permissions`. The
answer is the clock's JSON (the API's body), stored with the idempotency key in the
transaction of the change, so a retried "extend" adds its minutes once. Refusals: `Refused`
(403 who may, 400 a malformed field, 400/422 the key) and the services' `ClockError`s (400
naming the rule, 409 `ClockStateError`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clocks import permissions, presenters, services
from dune import clock_limits as limits
from dune.engine.names import faction_name
from foundation import idempotency
from foundation.commands import Field, Refused, declared, read_fields, run, whole_number, yes

__all__ = [
    "TABLE_ACTIONS", "ROUND_ACTIONS", "Changed", "Reason", "Extension", "Waiver", "Call", "StopCall",
    "change_table_clock", "change_round_clocks", "NothingChanged",
]


# --- typed inputs -----------------------------------------------------------------------------


#: The reason every clock action may give, declared once for both doors.
REASON = Field("reason", help=gettext_lazy("Why (required to extend or waive)."))
#: The reason an extension or a waiver must give: it goes in the table's history.
REASON_REQUIRED = Field("reason", required=True, why=gettext_lazy("it goes in the table's history"))


def _minutes(data: Mapping[str, Any], field: Field) -> Any:
    """The minutes as a whole number when they are one; anything else is left for the clock's
    own rule to refuse (`dune.clock_limits`: from 1 to `MAX_EXTENSION_MINUTES`)."""
    minutes = data.get(field.name)
    if minutes is None or (isinstance(minutes, str) and not minutes.strip()):
        raise Refused(_("this field is required: whole minutes to add, e.g. 15"), field=field.name)
    return whole_number(minutes, signed=True)


@dataclass(frozen=True)
class Reason:
    """Start, pause, resume, finish, and the round's actions: an optional reason."""

    reason: str = ""

    FIELDS: ClassVar[dict[str, Field]] = declared(REASON)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Reason:
        return cls(**read_fields(cls.FIELDS, data))


@dataclass(frozen=True)
class Extension:
    """Minutes added to every deadline, and why (the table's history keeps it)."""

    minutes: Any
    reason: str

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("minutes", kind="number", required=True, low=1, high=limits.MAX_EXTENSION_MINUTES,
              help=gettext_lazy("extend: whole minutes to add."), reader=_minutes),
        REASON_REQUIRED,
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Extension:
        return cls(**read_fields(cls.FIELDS, data))


@dataclass(frozen=True)
class Waiver:
    """A WBC final's time limit waived, all players agreeing (a checked box or JSON true)."""

    reason: str
    all_players_agree: bool

    FIELDS: ClassVar[dict[str, Field]] = declared(
        REASON_REQUIRED,
        Field("all_players_agree", kind="flag",
              help=gettext_lazy("waive (WBC final only): every player agrees to play without the limit.")),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Waiver:
        return cls(**read_fields(cls.FIELDS, data))


@dataclass(frozen=True)
class Call:
    """The clock called on a faction's current action (or a diplomacy chip)."""

    action: str
    faction: str

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("action", required=True, max_length=20,
              help=format_lazy(gettext_lazy("One of {actions}."), actions=", ".join(sorted(limits.CALL_TIMERS)))),
        Field("faction", required=True, max_length=20, help=gettext_lazy("A faction at the table.")),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Call:
        return cls(**read_fields(cls.FIELDS, data))


@dataclass(frozen=True)
class StopCall:
    """A called timer stopped: the player acted in time."""

    timer: Any

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("timer", kind="number", required=True, help=gettext_lazy("The id of a running call timer."),
              reader=lambda data, field: whole_number(data.get(field.name))),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> StopCall:
        return cls(**read_fields(cls.FIELDS, data))


# --- the actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableAction:
    """One action on a table's clock: its input, its service, the words of its success."""

    name: str
    parse: Callable[[Mapping[str, Any]], Any]
    perform: Callable[[Any, Any, Any], Any]
    done: Callable[[Any, Any], str]
    #: The API's status for a success (a call creates a timer: 201).
    status: int = 200


def _simple(op: Callable[..., Any], past: str) -> tuple[Callable[[Any, Any, Any], Any], Callable[[Any, Any], str]]:
    def perform(table: Any, given: Reason, user: Any) -> Any:
        return op(table, user=user, reason=given.reason)

    def done(table: Any, given: Reason) -> str:
        return f"Table {table.number}: clock {past}."

    return perform, done


def _extend(table: Any, given: Extension, user: Any) -> Any:
    return services.extend(table, minutes=given.minutes, reason=given.reason, user=user)


def _waive(table: Any, given: Waiver, user: Any) -> Any:
    return services.waive(table, user=user, reason=given.reason, all_players_agree=given.all_players_agree)


def _call(table: Any, given: Call, user: Any) -> Any:
    return services.call_clock(table, action=given.action, faction=given.faction, user=user)


def _stop(table: Any, given: StopCall, user: Any) -> Any:
    return services.stop_call(table, timer_id=given.timer, user=user)


def _called(table: Any, given: Call) -> str:
    rule = limits.CALL_TIMERS.get(given.action)
    label = rule.label if rule is not None else given.action
    return f"Clock called: {label} for {faction_name(given.faction)}."


#: Every action on a table's clock, in the order the page shows them: one list for both doors.
TABLE_ACTIONS: dict[str, TableAction] = {
    action.name: action
    for action in (
        TableAction("start", Reason.parse, *_simple(services.start, "started")),
        TableAction("pause", Reason.parse, *_simple(services.pause, "paused")),
        TableAction("resume", Reason.parse, *_simple(services.resume, "resumed")),
        TableAction("extend", Extension.parse, _extend, lambda t, g: f"Table {t.number}: {g.minutes} minutes added."),
        TableAction("waive", Waiver.parse, _waive, lambda t, g: f"Table {t.number}: time limit waived."),
        TableAction("finish", Reason.parse, *_simple(services.finish, "finished")),
        TableAction("call", Call.parse, _call, _called, status=201),
        TableAction("stop", StopCall.parse, _stop, lambda t, g: "Timer stopped: the action was completed in time."),
    )
}

#: The round's actions on every table clock, and each one's past tense.
ROUND_ACTIONS: dict[str, tuple[Callable[..., dict[str, list[int]]], str]] = {
    "start": (services.start_round, gettext_lazy("no table clock of this round could be started")),
    "pause": (services.pause_round, gettext_lazy("no table clock of this round could be paused")),
    "resume": (services.resume_round, gettext_lazy("no table clock of this round could be resumed")),
}


@dataclass(frozen=True)
class Changed(idempotency.Answer):
    """A clock command's answer (the clock's JSON, the API's body) and the words a page shows."""

    message: str = ""


class NothingChanged(services.ClockStateError):
    """A round-wide action that found no table clock to change (409), saying why for each."""


def _action(action: str, known: Mapping[str, Any]) -> None:
    if action not in known:
        raise Refused(_("expected one of %(value)s, not %(action)s") % {"value": ', '.join(known), "action": repr(action)}, field="action", offending=action)


def _parse(parse: Callable[[Mapping[str, Any]], Any], data: Any) -> Any:
    if not isinstance(data, Mapping):
        raise Refused(_("expected a JSON object, not %(name)s") % {"name": type(data).__name__}, offending=data)
    return parse(data)


def change_table_clock(table: Any, action: str, data: Any, *, actor: Any, key: str | None) -> Changed:
    """Take `action` on the table's clock with the request's fields `data`, at most once per
    (actor, table, key). `table` is loaded with its round and tournament.

    Raises Refused (400 unknown action or malformed field, 403 who may, 400/422 the key),
    ClockError (400, its rule), ClockStateError (409).
    """
    _action(action, TABLE_ACTIONS)
    step = TABLE_ACTIONS[action]
    if not permissions.may_change_table_clock(actor, table, action):
        raise Refused(permissions.refusal_text(action), status=403)
    given = _parse(step.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        done = step.perform(table, given, actor)
        body = presenters.table_clock_answer(table)
        if action == "call":
            body["timer"] = done.pk
        return step.status, body

    answer = run(
        actor=actor, scope=idempotency.scope_for(table.pk, "clock"), key=key,
        body={"action": action, **asdict(given)}, perform=perform,
    )
    return Changed(**asdict(answer), message=step.done(table, given))


def _refuse_early_start(round_: Any) -> None:
    """Refuse (409, field `early`) a round-wide start long before the scheduled start, saying
    when the round is scheduled and how early this is; `early: true` confirms it."""
    early = limits.early_by(round_.starts_at, services.db_now())
    if early is None:
        return
    raise Refused(
        _(
            "%(round)s is scheduled to start at %(at)s, in %(early)s: starting every clock now starts "
            "them early. Confirm to start them anyway (early)."
        )
        % {"round": round_.label, "at": timezone.localtime(round_.starts_at).strftime("%H:%M %Z"), "early": presenters.duration_words(early)},
        field="early",
        status=409,
    )


def change_round_clocks(round_: Any, action: str, data: Any, *, actor: Any, key: str | None) -> Changed:
    """Start, pause or resume every table clock of the round (a head judge's), at most once per
    (actor, round, key). The answer lists the round's clocks, `tables_changed` and
    `tables_skipped`; its message names them and says why each was left alone.

    Raises Refused (as `change_table_clock`), NothingChanged (409) when no clock could change.
    """
    _action(action, ROUND_ACTIONS)
    op, none_done = ROUND_ACTIONS[action]
    if not permissions.may_change_round_clocks(actor, round_):
        raise Refused(permissions.refusal_text(None), status=403)
    given = _parse(Reason.parse, data)
    if action == "start" and not _parse(lambda d: yes(d.get("early")), data):
        _refuse_early_start(round_)

    def perform() -> tuple[int, dict[str, Any]]:
        outcome = op(round_, user=actor, reason=given.reason)
        if not outcome["done"]:
            why = presenters.left_alone(round_, outcome["skipped"], action)
            raise NothingChanged(
                rule=action,
                msg=(_("%(none_done)s. Left alone: %(why)s.") % {"none_done": none_done, "why": "; ".join(why)})
                if why else str(none_done),
                input=outcome["skipped"],
            )
        body = presenters.round_clocks_answer(round_)
        body["tables_changed"] = outcome["done"]
        body["tables_skipped"] = outcome["skipped"]
        return 200, body

    answer = run(
        actor=actor, scope=idempotency.scope_for(round_.pk, "clocks", kind="round"), key=key,
        body={"action": action, **asdict(given)}, perform=perform,
    )
    done = answer.body["tables_changed"]
    tables = ", ".join(str(n) for n in done)
    message = {
        "start": ngettext("Clocks started at table %(tables)s", "Clocks started at tables %(tables)s", len(done)),
        "pause": ngettext("Clocks paused at table %(tables)s", "Clocks paused at tables %(tables)s", len(done)),
        "resume": ngettext("Clocks resumed at table %(tables)s", "Clocks resumed at tables %(tables)s", len(done)),
    }[action] % {"tables": tables}
    message += f" ({given.reason})." if given.reason else "."
    return Changed(**asdict(answer), message=message)
