"""`apply(position, event)` and `replay(events)`: the only way a position changes.

`apply` checks that the game is set up and not over, runs the event's handler (which
validates, then lists the changed parts), and returns a new Position; a refused event
raises a RuleViolation and changes nothing. `replay` folds a log through `apply`, so
`replay(a + b) == fold(apply, b, replay(a))`.

Corrections: `void(seq)` refolds the log without event `seq` (1-based index in the log,
voids included). If some later event is illegal without it, the void is refused.
`insert(before, event)` refolds the log with `event` counted just before event `before` (an
action entered late, refused as out of order after records that should follow it); the insert
itself is recorded at the end of the log, so the correction stays in the record, and a void of
the insert takes it out again. If the inserted event, or any later one, is illegal there, the
insert is refused with that event's rule. `insertion_point(position, event)` finds where a
refused event would hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from dune.engine import events as ev
from dune.engine.ambassador_supply import apply_ambassador_supply_set, apply_ambassadors_drawn
from dune.engine.apply_battle import apply_battle
from dune.engine.apply_ending import (
    apply_adjudication_confirmed,
    apply_bg_prediction_revealed,
    apply_concession,
    apply_dropout,
    apply_game_ended,
    apply_last_turn_ended,
    apply_victory_claimed,
)
from dune.engine.apply_flow import (
    apply_chip,
    apply_default_action,
    apply_die_rolled,
    apply_phase_advanced,
    apply_quick_record,
    apply_time_up,
    apply_turn_advanced,
    apply_win_attempt,
)
from dune.engine.apply_forces import (
    apply_coexistence,
    apply_forces_flipped,
    apply_forces_moved,
    apply_forces_placed,
    apply_forces_removed,
    apply_forces_revived,
)
from dune.engine.apply_pieces import (
    apply_action_ended,
    apply_ambassador_placed,
    apply_ambassador_removed,
    apply_duke_vidal,
    apply_hms_moved,
    apply_loss_corrected,
    apply_no_field_placed,
    apply_no_field_revealed,
    apply_spice_in_front,
    apply_terror_placed,
    apply_terror_revealed,
)
from dune.engine.apply_setup import apply_bg_prediction_made, apply_game_setup
from dune.engine.apply_table import (
    apply_alliance_broken,
    apply_alliance_formed,
    apply_cards_set,
    apply_family_atomics,
    apply_leader_changed,
    apply_spice_changed,
    apply_spice_set,
    apply_storm_moved,
    apply_storm_placed,
    apply_worm,
)
from dune.engine.coexistence import assume_coexisting, note_vacated
from dune.engine.editions import refined
from dune.engine.errors import (
    GameOver,
    IllegalAction,
    InsertRefused,
    InvalidEvent,
    RuleViolation,
    VoidRefused,
)
from dune.engine.income import (
    apply_card_bought,
    apply_charity_collected,
    apply_inflation_placed,
    apply_spice_harvested,
)
from dune.engine.position import EMPTY, Log, Position, evolve
from dune.engine.spice import apply_board_spice_set, apply_spice_blow, apply_spice_collected
from dune.engine.turn_order import apply_order_card

Handler = Callable[[Position, Any], dict[str, Any]]

#: One handler per event type; each validates and returns the changed Position fields.
HANDLERS: dict[type[ev.Event], Handler] = {
    ev.GameSetup: apply_game_setup,
    ev.BgPredictionMade: apply_bg_prediction_made,
    ev.BgPredictionRevealed: apply_bg_prediction_revealed,
    ev.StormPlaced: apply_storm_placed,
    ev.StormMoved: apply_storm_moved,
    ev.Worm: apply_worm,
    ev.FamilyAtomics: apply_family_atomics,
    ev.AllianceFormed: apply_alliance_formed,
    ev.AllianceBroken: apply_alliance_broken,
    ev.ForcesPlaced: apply_forces_placed,
    ev.ForcesMoved: apply_forces_moved,
    ev.ForcesRemoved: apply_forces_removed,
    ev.ForcesRevived: apply_forces_revived,
    ev.FlipForces: apply_forces_flipped,
    ev.CoexistenceDeclared: apply_coexistence,
    ev.SpiceSet: apply_spice_set,
    ev.SpiceChanged: apply_spice_changed,
    ev.CardsSet: apply_cards_set,
    ev.LeaderChanged: apply_leader_changed,
    ev.PhaseAdvanced: apply_phase_advanced,
    ev.TurnAdvanced: apply_turn_advanced,
    ev.QuickRecord: apply_quick_record,
    ev.WinAttemptConfirmed: apply_win_attempt,
    ev.VictoryClaimed: apply_victory_claimed,
    ev.LastTurnEnded: apply_last_turn_ended,
    ev.Concession: apply_concession,
    ev.TimeUp: apply_time_up,
    ev.DefaultAction: apply_default_action,
    ev.DiplomacyChipUsed: apply_chip,
    ev.Dropout: apply_dropout,
    ev.DieRolled: apply_die_rolled,
    ev.AdjudicationConfirmed: apply_adjudication_confirmed,
    ev.GameEnded: apply_game_ended,
    ev.HmsMoved: apply_hms_moved,
    ev.NoFieldPlaced: apply_no_field_placed,
    ev.NoFieldRevealed: apply_no_field_revealed,
    ev.TerrorPlaced: apply_terror_placed,
    ev.TerrorRevealed: apply_terror_revealed,
    ev.AmbassadorPlaced: apply_ambassador_placed,
    ev.AmbassadorRemoved: apply_ambassador_removed,
    ev.AmbassadorSupplySet: apply_ambassador_supply_set,
    ev.AmbassadorsDrawn: apply_ambassadors_drawn,
    ev.DukeVidal: apply_duke_vidal,
    ev.SpiceInFront: apply_spice_in_front,
    ev.ActionEnded: apply_action_ended,
    ev.LossCorrected: apply_loss_corrected,
    ev.SpiceBlow: apply_spice_blow,
    ev.SpiceCollected: apply_spice_collected,
    ev.BoardSpiceSet: apply_board_spice_set,
    ev.Battle: apply_battle,
    ev.OrderCardPlayed: apply_order_card,
    ev.CardBought: apply_card_bought,
    ev.CharityCollected: apply_charity_collected,
    ev.SpiceHarvested: apply_spice_harvested,
    ev.InflationPlaced: apply_inflation_placed,
}

#: Events still allowed once the game has a result (closing the record, corrections).
_AFTER_OUTCOME = (ev.GameEnded, ev.Void, ev.Insert)
#: The corrections: entries of the log that change how the rest of it replays.
_CORRECTIONS = (ev.Void, ev.Insert)


def _coerce(event: ev.Event | Mapping[str, Any]) -> ev.Event:
    if isinstance(event, ev.Event):
        return event
    if isinstance(event, Mapping):
        return ev.event_from_dict(event)
    raise InvalidEvent(rule="event schema", msg="an event is an Event or its dict", input=event)


def _step(position: Position, event: ev.Event) -> Position:
    """Validate and apply one non-void event; the log grows by it."""
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise InvalidEvent(rule="event schema", msg=f"no rule handles {type(event).__name__}", input=event)
    if position.setup is None and not isinstance(event, ev.GameSetup):
        raise IllegalAction(
            rule="setup",
            msg="the first event of a game is game_setup",
            phase=position.phase,
            input=event.type,
        )
    if position.ended or (position.outcome is not None and not isinstance(event, _AFTER_OUTCOME)):
        raise GameOver(
            rule=position.ruleset.cite["end_game"],
            msg="the game is over; only a correction (void) may follow",
            phase=position.phase,
            input=event.type,
        )
    changes = handler(position, event)
    if "losses" not in changes and position.losses:
        changes["losses"] = ()
    if "spice_lost" not in changes and position.spice_lost:
        changes["spice_lost"] = ()
    if "pieces_lost" not in changes and position.pieces_lost:
        changes["pieces_lost"] = ()
    if position.declared_apart or "declared_apart" in changes:
        changes = note_vacated(position, changes)
    after = evolve(position, seq=position.seq + 1, log=Log(event, position.log), **changes)
    if after.setup is not None and after.ruleset.coexistence_assumed and refined(after):
        coexisting = assume_coexisting(after)  # AH XV.B
        if coexisting != after.coexisting:
            after = evolve(after, coexisting=coexisting)
    return after


def _raw_log(position: Position) -> list[ev.Event]:
    out: list[ev.Event] = []
    node = position.log
    while node is not None:
        out.append(node.event)
        node = node.prev
    out.reverse()
    return out


def _inserted(raw: list[ev.Event], voided: frozenset[int]) -> dict[int, list[tuple[int, ev.Event]]]:
    """The events inserts place before each index: (the insert's own index, the event), in the
    order the inserts were recorded; a voided insert places nothing."""
    out: dict[int, list[tuple[int, ev.Event]]] = {}
    for i, event in enumerate(raw, start=1):
        if isinstance(event, ev.Insert) and i not in voided:
            out.setdefault(event.before, []).append((i, event.event))
    return out


def _fold(
    raw: list[ev.Event], voided: frozenset[int], *, refused: type[RuleViolation] = VoidRefused,
    without: str = "without the voided event", start: Position = EMPTY, first: int = 1,
    seen: Callable[[int, Position], None] | None = None,
) -> Position:
    """The log replayed from the start (or from `start`, the position before event `first`):
    voided events skipped, inserted ones in their place. A refusal on the way raises `refused`
    naming the event refused. `seen(i, position)` is told the position after each event."""
    pos = start
    inserts = _inserted(raw, voided)
    for i in range(first, len(raw) + 1):
        event = raw[i - 1]
        for at, early in inserts.get(i, ()):
            try:  # counts before event i; the log and its numbers stay as recorded
                pos = evolve(_step(pos, early), seq=pos.seq, log=pos.log)
            except RuleViolation as exc:
                raise refused(
                    rule=exc.rule,
                    msg=f"{without}, the {early.type} inserted by event {at} before event {i} would be refused:"
                    f" {exc.message}",
                    phase=exc.phase,
                    input=exc.input,
                    field=exc.field,
                ) from exc
        if isinstance(event, _CORRECTIONS) or i in voided:
            pos = evolve(pos, seq=i, log=Log(event, pos.log))
        else:
            try:
                pos = _step(pos, event)
            except RuleViolation as exc:
                raise refused(
                    rule=exc.rule,
                    msg=f"{without}, event {i} ({event.type}) would be refused: {exc.message}",
                    phase=exc.phase,
                    input=exc.input,
                ) from exc
        if seen is not None:
            seen(i, pos)
    return evolve(pos, voided=voided)


def _void(position: Position, event: ev.Void) -> Position:
    if not event.reason.strip():
        raise VoidRefused(
            rule="correction", msg="a void needs a reason", phase=position.phase, input=event.seq
        )
    if position.log is None or position.seq != len(_raw_log(position)):
        raise VoidRefused(rule="correction", msg="this position has no event log to correct", input=event.seq)
    raw = _raw_log(position)
    if not 1 <= event.seq <= len(raw):
        raise VoidRefused(
            rule="correction", msg=f"no event {event.seq} in a log of {len(raw)}", input=event.seq
        )
    if isinstance(raw[event.seq - 1], ev.Void):
        raise VoidRefused(rule="correction", msg="a void cannot itself be voided", input=event.seq)
    if event.seq in position.voided:
        raise VoidRefused(rule="correction", msg=f"event {event.seq} is already void", input=event.seq)
    folded = _fold(raw, position.voided | {event.seq})
    return evolve(folded, seq=folded.seq + 1, log=Log(event, folded.log))


def _insert(position: Position, event: ev.Insert) -> Position:
    def refuse(msg: str, field: str) -> InsertRefused:
        return InsertRefused(rule="correction", msg=msg, phase=position.phase, input=event.before, field=field)

    if not event.reason.strip():
        raise refuse("an insert needs a reason", "reason")
    raw = _raw_log(position)
    if position.log is None or position.seq != len(raw):
        raise refuse("this position has no event log to correct", "before")
    if not 2 <= event.before <= len(raw):
        raise refuse(f"an event is inserted before one of events 2 to {len(raw)} (after the game's setup),"
                     f" not before event {event.before}", "before")
    log = [*raw, event]
    folded = _fold(log, position.voided, refused=InsertRefused,
                   without=f"with the {event.event.type} inserted before event {event.before}")
    return folded  # the insert is the last entry of the log it replayed


def apply(position: Position, event: ev.Event | Mapping[str, Any]) -> Position:
    """The position after `event` (an Event or its dict).

    Raises a RuleViolation subclass (InvalidEvent, UnknownIdentifier, IllegalAction,
    WrongPhase, GameOver, OutOfTime, VoidRefused, InvalidPosition) and changes nothing
    when the event is refused.
    """
    event = _coerce(event)
    if isinstance(event, ev.Void):
        return _void(position, event)
    if isinstance(event, ev.Insert):
        return _insert(position, event)
    return _step(position, event)


def is_legal(position: Position, event: ev.Event | Mapping[str, Any]) -> bool:
    """Whether `apply` would accept the event."""
    try:
        apply(position, event)
    except RuleViolation:
        return False
    return True


def replay(events: Iterable[ev.Event | Mapping[str, Any]], *, start: Position = EMPTY) -> Position:
    """Fold a log through `apply` (from an empty game, or from `start`).

    Raises the RuleViolation of the first refused event.
    """
    pos = start
    for event in events:
        pos = apply(pos, event)
    return pos


def log_of(position: Position) -> list[ev.Event]:
    """The raw event log behind a position (voided and void events included)."""
    return _raw_log(position)


def insertion_point(
    position: Position, event: ev.Event | Mapping[str, Any], *, reason: str = "recorded late", back: int = 12
) -> int | None:
    """The latest event before which `event`, refused at the end of the log, would hold: the
    index an `insert` names, looking back at most `back` events (voided events and
    corrections are no place to insert before); None when no such place is found or the event
    holds at the end. Pure: the log is replayed once, then its tail from each place tried."""
    event = _coerce(event)
    raw = _raw_log(position)
    if position.log is None or position.seq != len(raw) or event.type in ev.NOT_INSERTED or is_legal(position, event):
        return None
    places = [b for b in range(len(raw), 1, -1)
              if b not in position.voided and not isinstance(raw[b - 1], _CORRECTIONS)][:back]
    if not places:
        return None
    before: dict[int, Position] = {}  # the position after each event just before a place tried
    wanted = {b - 1 for b in places}
    _fold(raw, position.voided, seen=lambda i, pos: before.__setitem__(i, pos) if i in wanted else None)
    log = [*raw, ev.Insert(before=0, event=event, reason=reason)]
    for b in places:
        log[-1] = ev.Insert(before=b, event=event, reason=reason)
        try:
            _fold(log, position.voided, refused=InsertRefused, start=before[b - 1], first=b)
        except RuleViolation:
            continue
        return b
    return None
