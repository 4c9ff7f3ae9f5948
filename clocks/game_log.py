"""The one place the clocks talk to the table's game log (gameplay.services and its models).

A clock's state never depends on these calls: the state change is committed first, and a
failure here is written to the clock's history (and retried by the sweep a few times).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from dune.engine.evaluation import Evaluation
from gameplay import engine_adapter, services
from gameplay.models import Game

log = logging.getLogger(__name__)

#: Tries when another write to the same game moved its sequence number in between.
STALE_RETRIES = 3


@dataclass(frozen=True)
class LogResult:
    ok: bool
    seq: int | None = None
    error: str = ""


def record_in_game(table: Any, event: dict[str, Any], *, reason: str, user: Any = None) -> LogResult:
    """Append `event` to the table's game through `gameplay.services.append_event`.

    Never raises: the outcome (the new event's sequence number, or why it failed) is returned.
    """
    error = ""
    for _ in range(STALE_RETRIES):
        try:
            _position, seq = services.current_position(table)
            written = services.append_event(table, dict(event), expected_seq=seq, user=user, reason=reason)
        except services.StaleWrite as exc:  # another write moved the log meanwhile: try again
            error = f"{type(exc).__name__}: {exc}"
            continue
        except Exception as exc:  # noqa: BLE001 - the clock must survive any failure of the game log
            error = f"{type(exc).__name__}: {exc}"
            log.warning(
                "clock could not record %r for table %s: %s", event, getattr(table, "pk", table), error
            )
            return LogResult(False, error=error)
        return LogResult(True, seq=written.seq)
    return LogResult(False, error=error)


def _evaluations(table_ids: Iterable[int]) -> dict[int, Evaluation]:
    """The games' cached evaluations by table id (tables without a game, or a game without an
    evaluation yet, are missing).

    Reads the game rows only: a page showing clocks never creates a game or runs the engine.
    """
    rows = Game.objects.filter(table_id__in=list(table_ids)).values_list("table_id", "evaluation")
    answers = {table_id: engine_adapter.answer_of(evaluation) for table_id, evaluation in rows}
    return {table_id: answer for table_id, answer in answers.items() if answer is not None}


def turns_for(table_ids: Iterable[int]) -> dict[int, int | None]:
    """The game's turn number per table id, for display (`None`: no game yet)."""
    return {table_id: answer.turn for table_id, answer in _evaluations(table_ids).items()}


def current_turn(table: Any) -> int | None:
    """The game's turn number for display, or `None` if the table has no game yet."""
    return turns_for([table.pk]).get(table.pk)


def decided_tables(table_ids: Iterable[int]) -> list[int]:
    """Tables whose game has its result recorded (victory, last turn, concession or
    adjudication): their clocks have nothing left to time."""
    return sorted(t for t, answer in _evaluations(table_ids).items() if answer.outcome is not None)
