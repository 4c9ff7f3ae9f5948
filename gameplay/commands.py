"""A table judge's commands on a game, one service each, whichever door they come through.

The table page (a form, plain or htmx) and `POST /api/tables/{id}/game/events/` both call
these; each door only translates the request in and the answer or refusal out:

- `record_event(table, event, actor=..., key=..., expected_seq=..., reason=...)` records one
  engine event (play, a correction such as `loss_corrected` or `board_spice_set`, a time-up);
- `void_event(table, seq, reason, ...)` cancels an earlier event (an event of its own).

A command either returns `Recorded` (the answer that was stored with the idempotency key, so a
repeat through either door gets it back) or raises a `dune.refusals.Refusal` carrying its
message, the rule or the field, and the HTTP status:

- `Refused` for who may record it (403), a round not published, a malformed command
  (400 naming the field), and the `Idempotency-Key` header (400 malformed, 422 reused for
  another command);
- the engine's `RuleViolation` (400 naming the rule) for an event the rules refuse;
- `Stale` (409) when the log moved past `expected_seq`, with the events the writer missed.

Exactly once: the answer is stored with the key for the table (`table:<id>:events`, whichever
door) in the transaction that appends the event (`foundation.commands.keep`), and looked up
only when that write is refused or rolled back (`foundation.commands.earlier`: a repeat is
refused as stale, or its key's insert fails, before it gets the first answer); the stored
answer is the API's answer (the game and the event), the page shows its sequence number and type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

from dune.refusals import Refusal
from foundation import idempotency
from foundation.commands import Field, Refused, declared, earlier, keep, read_fields, run
from gameplay import presenters, services
from gameplay.models import Game, GameEvent, PhoneSeen
from tournament.models import Round
from tournament.permissions import can_judge_table
from tournament.table_rows import table_with_round

__all__ = [
    "Refused", "Stale", "Recorded", "EVENT_FIELDS", "SEEN_FIELDS", "read_fields", "record_event", "stored_event", "void_event", "judges_table", "SCOPE", "report_seen",
    "phone_seen", "EventCommand", "NotJudge", "record", "event_scope",
]

def _as_sent(data: Mapping[str, Any], field: Field) -> Any:
    """The value as sent: the command words its own refusal (`_check_command`, `_count`)."""
    return data.get(field.name, 0 if field.name == "refilled" else ("" if field.name == "reason" else None))


#: The one declaration of an event command's body (the API's JSON; the page builds the same
#: from its form): the API's schema is built from it, and a field it does not list is refused.
EVENT_FIELDS = declared(
    Field("event", kind="value", required=True, help=gettext_lazy("an engine event: {'type': ..., <fields>}"),
          reader=_as_sent),
    Field("expected_seq", kind="number", required=True, low=0,
          help=gettext_lazy("the sequence number this write was made against"), reader=_as_sent),
    Field("reason", help=gettext_lazy("why (a void's reason)"), reader=_as_sent),
)

#: The one declaration of a phone's report on the records it saw (`phone_seen`).
SEEN_FIELDS = declared(
    Field("seen", kind="number", required=True, low=0,
          help=gettext_lazy("the highest record number this phone was told for the table"), reader=_as_sent),
    Field("server_had", kind="number", nullable=True, low=0,
          help=gettext_lazy("the record number this server showed, when lower"), reader=_as_sent),
    Field("refilled", kind="number", low=0, help=gettext_lazy("acknowledged records just sent again"), reader=_as_sent),
)


#: The idempotency scope of a table's event commands (`table:<id>:events`), one for both doors.
SCOPE = "events"


def event_scope(pk: int) -> str:
    """The idempotency scope of table `pk`'s event commands, whichever door they came by."""
    return idempotency.scope_for(pk, SCOPE)


class Stale(Refusal):
    """The log moved on since `expected_seq` (409); carries the events the writer missed."""

    status_code = 409

    def __init__(self, error: services.StaleWrite) -> None:
        super().__init__(str(error), field="expected_seq", offending=error.expected_seq)
        self.expected_seq = error.expected_seq
        self.current_seq = error.current_seq
        self._error = error

    @property
    def changes(self) -> list[GameEvent]:
        """The events the writer missed, read when the answer shows them (`StaleWrite`)."""
        return self._error.changes


@dataclass(frozen=True)
class Recorded(idempotency.Answer):
    """A recorded command's answer: the game after it and the event (the API's JSON), and
    whether it is the stored answer of an earlier send under the same key."""

    @property
    def seq(self) -> int:
        return int(self.body["event"]["seq"])

    @property
    def type(self) -> str:
        return str(self.body["event"]["type"])


def judges_table(user: Any, table: Any) -> bool:
    """`can_judge_table`, answering the common case (the table's own judge) without a query."""
    if getattr(user, "is_authenticated", False) and table.judge_id == user.pk:
        return True
    return can_judge_table(user, table)


def _check_command(event: Any, expected_seq: Any, reason: Any) -> None:
    """The command's shape (the engine checks the event's own fields). Raises Refused."""
    if not isinstance(event, Mapping):
        raise Refused(_("an event object is required (its 'type' and fields)"), field="event", offending=event)
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise Refused(
            _("the sequence number this write was made against is required (an integer)"),
            field="expected_seq", offending=expected_seq,
        )
    if not isinstance(reason, str):
        raise Refused(_("must be a string"), field="reason", offending=reason)


@dataclass(frozen=True)
class EventCommand:
    """An event command's typed input, parsed once by its door (the page's form:
    `web.gameplay.actions.command_of`; the API's JSON: `record_event`): the engine event's
    JSON, the sequence number it was made against, a void's reason, and what the table does
    next (`then_phase`, `then_turn`); `priced`: a shipment or revival naming no cost pays the
    rules' price."""

    event: Any
    expected_seq: Any
    reason: Any = ""
    then_phase: str | None = None
    then_turn: bool = False
    priced: bool = False


class NotJudge(Refused):
    """Who may record a table's game: its judge or a head judge (403)."""

    def __init__(self) -> None:
        super().__init__(_("Only this table's judge or a head judge may record its game."), status=403)


def record_event(
    table: Any, event: Any, *, actor: Any, key: str | None, expected_seq: Any, reason: Any = "",
    then_phase: str | None = None, then_turn: bool = False, priced: bool = False,
) -> Recorded:
    """`record` with the command's fields one by one (the API's door). Raises as `record`."""
    command = EventCommand(event, expected_seq, reason, then_phase=then_phase, then_turn=then_turn, priced=priced)
    return record(table, command, actor=actor, key=key)


def record(table: Any, command: EventCommand, *, actor: Any, key: str | None) -> Recorded:
    """Record `command.event` on the table's game, at most once per (actor, table, key).

    `then_phase`, `then_turn`: what the table does next is the move to that later phase of the
    turn (phases may be skipped, never gone back to: LoLV 1.00.00, AH V), and/or the next turn
    (the Mentat Pause and the next turn: LoLV 1.09.04), recorded right after the event in the
    same transaction under the same key: all are recorded or none (a victory that stands
    refuses the next turn). The answer's event is the first one, the game as after them all.

    `priced`: a shipment or revival naming no cost pays the rules' price (`services.append_event`);
    the key still stands for the command as sent, so a retry gets the first answer.

    Who may and the key are answered here, once, whichever door the command came by. `table`
    is loaded with its round. Raises NotJudge (403 not this table's judge or a head judge),
    Refused (400 round not published, malformed command or key; 422 key reused for another
    command), RuleViolation (the engine refuses the event; nothing recorded), Stale (409).
    """
    if not judges_table(actor, table):
        raise NotJudge()
    event, expected_seq, reason = command.event, command.expected_seq, command.reason
    _check_command(event, expected_seq, reason)
    if table.round.state == Round.State.PLANNED:
        raise Refused(_("the seating of this round is not published yet"), field="table")

    sent = _command(command)
    try:
        # One transaction: the write, then its answer stored with the key. A refusal, or a key
        # whose answer is stored already (the key's unique constraint), rolls it all back.
        with transaction.atomic():
            body = _perform(table, command, actor)
            answer = keep(actor=actor, scope=event_scope(table.pk), key=key, body=sent, status=201, data=body)
    except Exception:
        # Refused or rolled back: a repeat of a send whose answer is stored (committed before
        # or while this one waited for the game's lock) gets that answer; else the refusal stands.
        stored = earlier(actor=actor, scope=event_scope(table.pk), key=key, body=sent)
        if stored is None:
            raise
        answer = stored
    return Recorded(body=answer.body, replayed=answer.replayed, status=answer.status, text=answer.text)


def _perform(table: Any, command: EventCommand, actor: Any) -> dict[str, Any]:
    """The command's write, in the caller's transaction (a refusal rolls all of it back), and
    its answer: the game after it and the event, as the presenters' plain JSON shapes (moments
    already text), not copied through JSON text to be shown."""
    event = command.event
    try:
        recorded = services.append_event(
            table, event, expected_seq=command.expected_seq, user=actor, reason=command.reason, savepoint=False,
            priced=command.priced,
        )
        game = recorded.game
        for then in _then(command):
            game = services.append_event(table, then, expected_seq=game.seq, user=actor, savepoint=False).game
    except services.StaleWrite as stale:
        raise Stale(stale) from None
    except PermissionDenied as denied:  # who may record what (adjudication, voids, time-up)
        raise Refused(str(denied), status=403, field=_ROLE_FIELD.get(str(event.get("type")))) from None
    except ValidationError as invalid:
        raise _refusal_of(invalid) from None
    body = presenters.game_json(game, judge=True)
    body["event"] = presenters.event_json(recorded, judge=True, revealed=True)
    return body


def stored_event(table_pk: int, sent: Mapping[str, Any], *, actor: Any, key: str | None) -> Recorded | None:
    """The answer `record` would send a retry of the API's post (`sent`: its `EVENT_FIELDS`)
    from its record, or None when it would do anything else (no record yet, another body, a
    malformed command or key, not this table's judge or a head judge, a round not published):
    then `record` answers as ever.

    The record is read first: a first send finds none, and its `record` takes that read as its
    own (`idempotency.replayed`). The table (with its round) is read only for an answer found:
    only the actor's own records are read, and only a judge of the table gets one back."""
    command = EventCommand(sent["event"], sent["expected_seq"], sent["reason"])
    try:
        _check_command(command.event, command.expected_seq, command.reason)
        answer = idempotency.replayed(
            user=actor, scope=event_scope(table_pk), key=key, body=_command(command)
        )
    except (Refused, idempotency.BadKey, idempotency.KeyReused):
        return None
    if answer is None:
        return None
    table = table_with_round(table_pk)
    if table is None or not judges_table(actor, table) or table.round.state == Round.State.PLANNED:
        return None
    return Recorded(body=answer.body, replayed=True, status=answer.status, text=answer.text)


def _then(command: EventCommand) -> list[dict[str, Any]]:
    """The events a "then" button records right after the command's event."""
    after: list[dict[str, Any]] = [{"type": "phase_advanced", "phase": command.then_phase}] if command.then_phase else []
    if command.then_turn:
        after.append({"type": "turn_advanced", "turn": None})
    return after


def _command(command: EventCommand) -> dict[str, Any]:
    """The command as sent, which an idempotency key stands for (what it left empty left out)."""
    given = {"reason": command.reason, "then_phase": command.then_phase, "then_turn": command.then_turn}
    return {"event": dict(command.event), "expected_seq": command.expected_seq, **{k: v for k, v in given.items() if v}}


def void_event(table: Any, seq: Any, reason: str, *, actor: Any, key: str | None, expected_seq: Any) -> Recorded:
    """Cancel event #`seq` with a reason (a `void` event; the engine checks the rest of the log
    still holds). Raises as `record_event`."""
    return record_event(
        table, {"type": "void", "seq": seq, "reason": reason}, actor=actor, key=key, expected_seq=expected_seq,
        reason=reason,
    )


#: The field a refusal of who may record an event is about, by event type.
_ROLE_FIELD = {"adjudication_confirmed": "override_reason", "void": "seq"}


def _refusal_of(error: ValidationError) -> Refused:
    """A Django ValidationError (the seating cannot start a game, a time-up without a reason)
    as a refusal naming its first field."""
    if hasattr(error, "error_dict"):
        field, messages = next(iter(error.message_dict.items()))
        return Refused(" ".join(messages), field=field)
    return Refused(" ".join(error.messages))


def _count(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 10_000_000:
        raise Refused(_("must be a record number or a count (0 or more)"), field=field, offending=value)
    return value


def report_seen(table: Any, *, seen: Any, refilled: Any = 0, server_had: Any = None, actor: Any) -> PhoneSeen:
    """A phone's report on the table's records (DESIGN.md principle 9): the highest record
    number it was told (`seen`), the record number it found this server at when that was lower
    (`server_had`: the server was restored from a backup), and how many of its acknowledged
    records it has just sent again (`refilled`). Kept per table: the highest seen, the first
    `server_had`, the sum of `refilled`. Raises Refused (403 not this table's judge or a
    head judge; 400 naming the field that is not a count)."""
    if not judges_table(actor, table):
        raise Refused(gettext("Only this table's judge or a head judge may report its records."), status=403)
    seen = _count(seen, "seen")
    refilled = _count(refilled, "refilled")
    had = None if server_had is None else _count(server_had, "server_had")
    with transaction.atomic():
        row, _ = PhoneSeen.objects.select_for_update().get_or_create(table=table)
        row.highest_seq = max(row.highest_seq, seen)
        if had is not None and had < row.highest_seq and row.behind_at_seq is None:
            row.behind_at_seq = had
        row.refilled += refilled
        row.reported_by = actor if getattr(actor, "is_authenticated", False) else None
        row.save()
    return row


def phone_seen(table: Any, data: Any, *, actor: Any, key: str | None) -> idempotency.Answer:
    """`report_seen` with the request's fields (`seen`, `server_had`, `refilled`), at most once
    per (actor, table, key): a retried report adds its `refilled` records once. 200, the
    table's record number, what the phones saw and how far behind they are."""
    fields = data if isinstance(data, Mapping) else {}
    body = read_fields(SEEN_FIELDS, fields)

    def perform() -> tuple[int, dict[str, Any]]:
        row = report_seen(table, actor=actor, **body)
        game_seq = Game.objects.filter(table=table).values_list("seq", flat=True).first() or 0
        return 200, {
            "seq": game_seq, "highest_seen": row.highest_seq, "behind_at_seq": row.behind_at_seq,
            "refilled": row.refilled, "behind": max(0, row.highest_seq - game_seq),
        }

    return run(actor=actor, scope=idempotency.scope_for(table.pk, "seen"), key=key, body=body, perform=perform)
