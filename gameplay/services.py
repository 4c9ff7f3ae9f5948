"""The table game's services: what the pages, the API, scoring and the clocks call.

- `game_for(table)` creates the game from the seating on first use (writers only);
- `read_game(table)` / `game_events(game)` read it, never writing: before the first judge
  event a table's game is the one its seating implies, kept in memory only, so a visitor's
  page view cannot start the record (which freezes the table's seating);
- `current_position(table)` reads the cached position and its sequence number;
- `append_event(table, event, expected_seq=..., user=...)` validates through the engine and
  appends atomically, refusing a stale `expected_seq` with `StaleWrite`;
- `prefill_report(table)` drafts the game report (in scoring's shape) from the position.

Writes lock the game row (`SELECT ... FOR UPDATE`), so two judges posting at once are
serialised and the second one, now stale, is refused instead of silently overwriting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dune.formats import Tracking
from dune.refusals import Refusal
from dune.seating import marker_sector
from foundation import json_text
from gameplay import engine_adapter as rules
from gameplay import log_store
from gameplay.models import SNAPSHOT_EVERY, Game, GameEvent, GameSnapshot
from gameplay.reporting import draft_report
from tournament.models import Table
from tournament.permissions import is_head_judge

__all__ = [
    "StaleWrite",
    "game_for",
    "read_game",
    "recorded_game",
    "game_events",
    "current_position",
    "append_event",
    "prefill_report",
    "events_since",
    "voided_seqs",
    "setup_event_for",
    "start_game",
]


class ReportFiled(Refusal):
    """The table's game report is filed: its record stays as the report was filed from."""

    status_code = 409


class StaleWrite(Exception):
    """A write named a sequence number that is no longer the game's last one.

    Carries what the writer missed: `current_seq` and the events after `expected_seq` up to
    it (`changes`), read only when asked for: a retry that finds its first answer stored never
    shows them. The log is append-only, so they read the same after the write's transaction
    as within it.
    """

    def __init__(self, *, expected_seq: int, current_seq: int, game: Game) -> None:
        self.expected_seq = expected_seq
        self.current_seq = current_seq
        self._game = game
        self._changes: list[GameEvent] | None = None
        super().__init__(
            f"the game moved on: this write was made against event #{expected_seq}, "
            f"the log is now at #{current_seq}"
        )


    @property
    def changes(self) -> list[GameEvent]:
        if self._changes is None:
            self._changes = events_since(self._game, self.expected_seq, through=self.current_seq)
        return self._changes


# --- creating the game -------------------------------------------------------------------


def setup_event_for(table: Any) -> dict[str, Any]:
    """The `game_setup` event the seating implies: ruleset of the tournament's format,
    factions in seat order, each player marker on its dot (LoLV 0.07, 0.10).

    Raises ValidationError if a seat has no faction yet.
    """
    round_ = table.round
    tournament = round_.tournament
    seats = list(table.seats.all())
    if not seats:
        raise ValidationError({"table": _("table %(number)s has nobody seated") % {"number": table.number}})
    missing = [f"{s.player.name} (seat {s.seat})" for s in seats if not s.faction]
    if missing:
        raise ValidationError(
            {"faction": ngettext("%(names)s has no faction yet; the game cannot start",
                                 "%(names)s have no faction yet; the game cannot start", len(missing))
             % {"names": ", ".join(missing)}}
        )
    factions = [s.faction for s in seats]
    quick = tournament.rules.tracking_for(round_.kind) is Tracking.QUICK
    return {
        "type": "game_setup",
        "ruleset": tournament.ruleset,
        "factions": factions,
        # LoLV 0.07/0.10: seat 1 nearest Tuek's Sietch, markers on the dots from there on.
        "markers": {s.faction: marker_sector(s.seat, len(seats)) for s in seats},
        # The same turn limit the table's clock enforces (WBC heats 10, final 15; LoLV 10).
        "turns": tournament.rules.turn_limit(round_.kind),
        "quick": quick,
        "options": list(tournament.rules.setup_options),
        # WBC house rules: a 3-faction alliance may form at a 6-player heat table whose players
        # all agreed at the start (never at the final, WBC Final Round Format); the judge
        # records one only then. The same rule judges a paper report (dune.engine.result_check).
        "three_alliances": tournament.rules.ruleset.most_allies(len(seats), round_.kind) == 3,
        # Full tracking lets the engine remove what storms, worms and the ally rule destroy;
        # new games are played under the current rulings (older rows have neither field and
        # keep replaying as they were recorded).
        "automatic_losses": not quick,
        "edition": rules.CURRENT_EDITION,
    }


def _head(game: Game) -> int | None:
    """The id of the game's last recorded event: read with the row where the reader asked for
    it (`read_game`, `log_store.lock`), else looked up."""
    head = getattr(game, "head_event", None)
    if head is None:
        head = game.events.order_by("-seq").values_list("pk", flat=True).first()
        game.head_event = head  # type: ignore[attr-defined]
    return head


def _identity(game: Game) -> tuple[Any, ...]:
    """The key of a game's position in the process's cache: the exact record it is the position
    after. Two histories may both reach record #10 (one process's refused, another's kept),
    never with the same event: ids are handed out once, committed or not."""
    return (game.pk, game.created_at.isoformat(), game.seq, _head(game))


def _remember(game: Game, position: Any) -> None:
    """Keep `position` in this process's cache once the transaction that wrote it commits
    (at once outside a transaction): a cache holds only committed truth, so a write rolled
    back (a two-step command refused at its second step) leaves nothing behind; the commit
    only hands the position over (`rules.remember_on_commit`), the cache takes it at its next use."""
    transaction.on_commit(rules.remember_on_commit(_identity(game), position))


#: The id of a game's last event, read along with the game's row.
_HEAD = Subquery(GameEvent.objects.filter(game=OuterRef("pk")).order_by("-seq").values("pk")[:1])


def _seated_at(table: Any) -> Any:
    """When the seating a game not recorded yet comes from was made: its publication, else the
    round's last seating change (the same moment on every read)."""
    round_ = table.round
    if round_.published_at is not None:
        return round_.published_at
    last = round_.seating_audit.order_by("-at").values_list("at", flat=True).first()
    return last or timezone.now()


def recorded_game(table: Any) -> Game | None:
    """The table's recorded game (with its last event's id, the key of its position in the
    cache), or None before its first event."""
    return Game.objects.filter(table=table).annotate(head_event=_HEAD).first()


def read_game(table: Any) -> Game:
    """The table's game for reading: the recorded one, or (before any judge event) the game
    its seating implies, built in memory and never saved. Writes nothing.

    Raises ValidationError if the seating cannot start a game, RuleViolation if the engine
    refuses the setup.
    """
    game = recorded_game(table)
    if game is not None:
        return game
    setup = rules.parse_event(setup_event_for(table))
    body = rules.event_body(setup)
    position = rules.replay_bodies([body])
    game = Game(
        table=table,
        ruleset=body["ruleset"],
        tracking=Game.Tracking.QUICK if body["quick"] else Game.Tracking.FULL,
        seq=1,
        position=rules.dump(position),
        evaluation=rules.evaluation(position),
    )
    game.unrecorded_setup = GameEvent(  # type: ignore[attr-defined]
        game=game, seq=1, type=setup.type, body=body, reason="from the seating", created_at=_seated_at(table)
    )
    return game


def game_events(game: Game, *, after: int = 0, latest: int | None = None) -> list[GameEvent]:
    """The game's events after `after`, in order (or only the `latest` few, newest first);
    for a game not recorded yet, its implied setup event."""
    if game.pk is None:
        setup = game.unrecorded_setup  # type: ignore[attr-defined]
        return [setup] if setup.seq > after else []
    events = game.events.filter(seq__gt=after).select_related("author")
    if latest is not None:
        return list(events.order_by("-seq")[:latest])
    return list(events.order_by("seq"))


def game_for(table: Any) -> Game:
    """The table's game, created from the seating on first use (its event #1 is the setup).

    Raises ValidationError if the seating cannot start a game, RuleViolation if the engine
    refuses the setup.
    """
    game = Game.objects.filter(table=table).first()
    if game is not None:
        return game
    return start_game(table, setup_event_for(table), user=None)


def start_game(table: Any, setup: Mapping[str, Any], *, user: Any) -> Game:
    """Start the table's game from an explicit `game_setup` event (a table that set up
    differently from the seating's default markers, or a game imported from another record).
    The setup's factions must be the seated ones. If the table already has a game, that game
    is returned unchanged.

    Raises ValidationError (factions differ from the seating), RuleViolation (the engine
    refuses the setup).
    """
    existing = Game.objects.filter(table=table).first()
    if existing is not None:
        return existing
    event = rules.parse_event(setup)
    body = rules.event_body(event)
    if event.type != "game_setup":
        raise ValidationError({"event": _("a game starts with a game_setup event, not %(type)s") % {"type": repr(event.type)}})
    ruleset = table.round.tournament.ruleset
    if body["ruleset"] != ruleset:
        raise ValidationError({"ruleset": _("this tournament plays %(ruleset)s, not %(body)s") % {"ruleset": repr(ruleset), "body": repr(body['ruleset'])}})
    seated = sorted(s.faction for s in table.seats.all())
    if sorted(body["factions"]) != seated:
        raise ValidationError({"factions": _("the setup names %(sorted)s, the table seats %(seated)s") % {"sorted": sorted(body['factions']), "seated": seated}})
    position = rules.replay_bodies([rules.event_body(event)])
    try:
        with transaction.atomic():
            game = Game.objects.create(
                table=table,
                ruleset=body["ruleset"],
                tracking=Game.Tracking.QUICK if body["quick"] else Game.Tracking.FULL,
                seq=1,
                position=rules.dump(position),
                evaluation=rules.evaluation(position),
            )
            setup_row = GameEvent.objects.create(
                game=game, seq=1, type=event.type, body=body,
                author=user if getattr(user, "is_authenticated", False) else None,
                reason="from the seating" if user is None else "setup recorded by the judge",
            )
            # The seating of this table is frozen from now on (tournament.services.heats).
            Table.objects.filter(pk=table.pk, game_started_at=None).update(game_started_at=game.created_at)
    except IntegrityError:
        # Someone else created it in the meantime: theirs is the game.
        return Game.objects.get(table=table)
    game.head_event = setup_row.pk  # type: ignore[attr-defined]
    _remember(game, position)
    return game


# --- reading -----------------------------------------------------------------------------


def position_of(game: Game) -> Any:
    """The engine position of a game row at its `seq`, from the cache or its snapshot."""
    if game.pk is None:  # not recorded yet (read_game): nothing to cache it under
        return rules.load(game.position)
    position = rules.cached(_identity(game))
    if position is None:
        text = getattr(game, "position_text", None)  # read with the lock (log_store.lock)
        position = rules.load(game.position if text is None else json_text.loads(text))
        _remember(game, position)
    return position


def current_position(table: Any) -> tuple[Any, int]:
    """(position, last sequence number), from the cached snapshot; never replays the log nor
    writes (a table without a record reads as its seating's setup, sequence number 1)."""
    game = read_game(table)
    return position_of(game), game.seq


def events_since(game: Game, seq: int, *, through: int | None = None) -> list[GameEvent]:
    """The events recorded after `seq` (up to `through`, when given), in order."""
    events = game.events.filter(seq__gt=seq)
    if through is not None:
        events = events.filter(seq__lte=through)
    return list(events.select_related("author").order_by("seq"))


def voided_seqs(events: Iterable[GameEvent]) -> set[int]:
    """Sequence numbers cancelled by a `void` event."""
    return {int(e.body.get("seq", 0)) for e in events if e.type == "void"}


def insertion_point(table: Any, event: Mapping[str, Any]) -> int | None:
    """The latest record before which `event`, refused at the end of the table's log, would
    hold (an `insert` correction), or None: nowhere in the last records, or not an event of play."""
    game = Game.objects.filter(table=table).first()
    if game is None:
        return None
    try:
        parsed = rules.parse_event(event)
    except Refusal:
        return None
    bodies = list(game.events.order_by("seq").values_list("body", flat=True))
    return rules.insertion_point(bodies, parsed)


# --- writing -----------------------------------------------------------------------------


#: The events whose recording depends on who records them (`_check_role`); any other event is
#: the engine's alone to judge, so the hot path asks the engine once (`rules.record`).
ROLE_EVENTS = frozenset({"time_up", "adjudication_confirmed", "void"})

#: Events only a head judge may cancel with a `void`: they end a game on time or decide it.
HEAD_JUDGE_VOIDS = frozenset({"time_up", "adjudication_confirmed"})


def _type_of(event: Any) -> str | None:
    """The type an event's JSON names (None when it names none the engine could know)."""
    kind = event.get("type") if isinstance(event, Mapping) else None
    return kind if isinstance(kind, str) else None


def _who_may(table: Any, game: Game, event: Any, user: Any, reason: str) -> tuple[Any, str]:
    """The event as the engine is to be asked it, and its reason. An event whose recording
    depends on who records it (`ROLE_EVENTS`) is parsed here and who may is answered first
    (`_check_role`); any other goes to the engine as sent. Raises as `_check_role`, and
    RuleViolation for an event the engine cannot read."""
    if user is None or _type_of(event) not in ROLE_EVENTS:
        return event, reason
    parsed = rules.parse_event(event)
    reason = reason or str(getattr(parsed, "reason", None) or "")
    _check_role(table, game, parsed, user, reason)
    return parsed, reason


def _check_role(table: Any, game: Game, parsed: Any, user: Any, reason: str) -> None:
    """Who may record what, which the engine cannot know (WBC adjudication, LoLV 4.01.08).

    - `time_up` comes from the clock (no user), or from a head judge who gives a reason;
    - a table judge confirms the engine's adjudication once; setting it aside (an override),
      confirming it again after a void, and voiding a confirmation or a `time_up` are the
      head judge's calls;
    - only a head judge voids an event a head judge recorded.

    Raises PermissionDenied, or ValidationError for a head judge's `time_up` without a reason.
    """
    if user is None:  # the server itself: the clock recording time_up or voiding it
        return
    if parsed.type not in ROLE_EVENTS:
        return  # the hot path (a table judge recording play) costs no query here
    tournament = table.round.tournament
    if is_head_judge(user, tournament):
        if parsed.type == "time_up" and not reason.strip():
            raise ValidationError({"reason": _("a head judge declaring time up gives the reason (it goes in the log)")})
        return
    if parsed.type == "time_up":
        raise PermissionDenied(_("time_up comes from the table's clock; only a head judge may record it by hand"))
    if parsed.type == "adjudication_confirmed":
        if getattr(parsed, "override_reason", None):
            raise PermissionDenied(
                _("only a head judge may override the engine's adjudication; confirm its ranking instead")
            )
        if game.events.filter(type="adjudication_confirmed").exists():
            raise PermissionDenied(_("the adjudication was confirmed before; only a head judge may confirm it again"))
    if parsed.type == "void":
        target = game.events.filter(seq=int(getattr(parsed, "seq", 0))).select_related("author").first()
        if target is None:
            return  # the engine refuses a void of an event that does not exist
        if target.type in HEAD_JUDGE_VOIDS:
            raise PermissionDenied(_("only a head judge may void a %(type)s event") % {"type": target.type})
        if target.author is not None and is_head_judge(target.author, tournament):
            raise PermissionDenied(_("event #%(seq)s was recorded by a head judge; only a head judge may void it") % {"seq": target.seq})


def append_event(
    table: Any, event: Mapping[str, Any], *, expected_seq: int, user: Any, reason: str = "", savepoint: bool = True,
    priced: bool = False,
) -> GameEvent:
    """Validate `event` through the engine against the position at `expected_seq` and append it.

    Atomic: the game row is locked, the sequence number compared, the engine applies the event,
    then the event, the new latest position and (every SNAPSHOT_EVERY events) a snapshot are
    written. A refusal writes nothing.

    `savepoint=False` when the caller's own transaction is the unit (a refusal rolls all of it
    back): it saves two round trips per event.

    `priced`: a shipment or revival that names no cost pays the rules' price where the engine
    knows it, priced at the position it applies to (`rules.priced`).
    The engine is asked once (`rules.record`: parsed, priced, applied, snapshot, evaluation).

    Raises StaleWrite (the log is no longer at `expected_seq`), RuleViolation (the engine
    refuses the event; its `.rule` names the rule), ValidationError (the table cannot start
    a game).
    """
    # The stored evaluation is not read back (it is written anew); the position comes from
    # this process's cache, or on a miss from the text the lock read with the row.
    with transaction.atomic(savepoint=savepoint):
        game = log_store.lock(table.pk)
        if game is None:  # first use: create it from the seating, then lock it
            game_for(table)
            game = log_store.lock(table.pk)
            assert game is not None
        if int(expected_seq) != game.seq:
            raise StaleWrite(expected_seq=int(expected_seq), current_seq=game.seq, game=game)
        if getattr(game, "report_filed", False):  # read with the lock (log_store.lock)
            raise ReportFiled(
                _("table %(number)s's game report is filed and counts in the standings: its record is closed (no event is added or voided); a head judge reopens the report, with a reason, to correct it") % {"number": table.number},
                field="table",
            )
        asked, reason = _who_may(table, game, event, user, reason)
        position = position_of(game)

        def history() -> list[dict[str, Any]]:
            return list(game.events.order_by("seq").values_list("body", flat=True))

        step = rules.record(position, asked, history=history, priced=priced)
        if not reason:  # an event that carries its own reason (a void, a correction) has it in the log
            reason = str(getattr(step.event, "reason", None) or "")
        new_position = step.position
        seq = game.seq + 1
        recorded = log_store.record(
            game, seq=seq, type=step.event.type, body=step.body,
            author=user if getattr(user, "is_authenticated", False) else None, reason=reason,
            position=step.snapshot, evaluation=step.evaluation, texts=step.texts,
        )
        if game.seq % SNAPSHOT_EVERY == 0:
            GameSnapshot.objects.create(game=game, seq=game.seq, position=game.position)
    game.head_event = recorded.pk
    _remember(game, new_position)
    return recorded  # recorded.game is the updated game row (seq, position, evaluation)


# --- the game report -----------------------------------------------------------------------


def prefill_report(table: Any) -> dict[str, Any]:
    """The game report (in scoring's shape) drafted from the position and the log.

    One row per seated player: result kind, win attempts, strongholds, forces, weighted tokens,
    spice, cards, active leaders, PP; the judge checks it before filing.
    """
    game = read_game(table)
    seats = list(table.seats.select_related("player").order_by("seat"))
    return draft_report(game=game, seats=seats)
