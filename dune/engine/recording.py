"""One event recorded on a position, in one call.

A table's record keeps, for every event, the event's canonical JSON, the position after it
(its snapshot) and that position's evaluation. `record(position, event, log=...)` answers all
of them together: it parses the event (an engine event passes as it is), gives a shipment,
revival or Ambassador that names no cost the rules' price when asked (`priced=True`), applies
it (a void or an insert replays the log with it, since either changes what came before), and
returns a `Recorded` step, with the three as the JSON text a record stores (written once, by
orjson: compact, keys in their order, non-text keys as text). The Django layer asks the engine
once per event (`gameplay.engine_adapter.record`) instead of once per part.

Raises what parsing and applying raise (`RuleViolation` and its subclasses), leaving
`position` unchanged (positions are immutable).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from dune.engine.codec.position import dump_position
from dune.engine.evaluation import evaluate
from dune.engine.events import AmbassadorPlaced, Event, ForcesPlaced, ForcesRevived, Insert, event_from_dict
from dune.engine.game_log import apply, replay
from dune.engine.payments import ambassador_price, own_revival_price, shipment_price
from dune.engine.position import Position

__all__ = ["Recorded", "record", "priced", "REPLAYED"]

#: The events whose position is the replay of the log with them appended (they change the past).
REPLAYED = frozenset({"void", "insert"})

#: The engine's JSON is plain (no moments, no decimals): only its non-text keys need saying.
_JSON_TEXT = orjson.OPT_NON_STR_KEYS


@dataclass(frozen=True, slots=True)
class Recorded:
    """An event applied: the typed event, its canonical JSON (as the log stores it), the
    position after it, that position's snapshot (`dump_position`) and its evaluation's JSON
    (`evaluate(position).to_dict()`); `texts`: the body, the snapshot and the evaluation as JSON
    text, in that order."""

    event: Event
    body: dict[str, Any]
    position: Position
    snapshot: dict[str, Any]
    evaluation: dict[str, Any]
    texts: tuple[str, str, str]


def priced(position: Position, event: Event) -> Event:
    """A shipment, revival or Ambassador that names no cost, with the rules' price for it where
    the engine knows one (`dune.engine.payments`: a shipment's, one's own revival at its own
    sheet's price, an Ambassador's rising price); an insert's event priced as at the end of
    the log; any other event as it is."""
    if isinstance(event, Insert):
        return dataclasses.replace(event, event=priced(position, event.event))
    if isinstance(event, ForcesPlaced) and event.cost is None:
        price = shipment_price(position, event)
    elif isinstance(event, ForcesRevived) and event.cost is None:
        price = own_revival_price(position, event)
    elif isinstance(event, AmbassadorPlaced) and event.cost is None:
        price = ambassador_price(position)
    else:
        return event
    return event if price is None else dataclasses.replace(event, cost=price)


def record(
    position: Position,
    event: Event | Mapping[str, Any],
    *,
    log: Callable[[], Iterable[Mapping[str, Any]]] | None = None,
    priced: bool = False,
) -> Recorded:
    """`event` (an engine event, or its JSON) applied to `position`, with the new position's
    snapshot and evaluation. `log()` gives the bodies of the events recorded so far; it is
    called only for a void or an insert. `priced`: see `priced()`.

    Raises RuleViolation (InvalidEvent, UnknownIdentifier naming the field; IllegalAction,
    VoidRefused... naming the rule)."""
    parsed = event if isinstance(event, Event) else event_from_dict(event)
    if priced:
        parsed = _priced(position, parsed)
    if parsed.type in REPLAYED:
        if log is None:
            raise ValueError(f"a {parsed.type} needs the log it changes")
        after = replay([*(event_from_dict(body) for body in log()), parsed])
    else:
        after = apply(position, parsed)
    body, snapshot, evaluation = parsed.to_dict(), dump_position(after), evaluate(after).to_dict()
    return Recorded(
        event=parsed, body=body, position=after, snapshot=snapshot, evaluation=evaluation,
        texts=(_text(body), _text(snapshot), _text(evaluation)),
    )


def _text(value: Any) -> str:
    return orjson.dumps(value, option=_JSON_TEXT).decode()


_priced = priced
