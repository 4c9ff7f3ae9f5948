"""JSON shapes of a table's game for the API (and the stale-write answer of the page).

Who sees what: a judge of the table (or a head judge) sees everything, with authors and
reasons; anyone else sees the game without reasons and with the BG prediction hidden until it
is revealed (LoLV 2.02.03).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gameplay import engine_adapter as rules
from gameplay import record_words
from gameplay.models import Game, GameEvent


def event_json(event: GameEvent, *, judge: bool, revealed: bool, voided: set[int] | None = None) -> dict[str, Any]:
    body = event.body if judge else rules.redact_event(event.body, revealed=revealed)
    out: dict[str, Any] = {
        "seq": event.seq,
        "type": event.type,
        "event": body,
        "created_at": event.created_at.isoformat(),
    }
    if voided is not None:
        out["voided"] = event.seq in voided
    if judge:
        # Reasons are free text (a judge may write a BG prediction there): judges only.
        out["reason"] = event.reason
        out["author"] = event.author.get_username() if event.author_id and event.author else None
    return out


def revealed(game: Game) -> bool:
    return rules.prediction_revealed(game.position or {}, rules.answer_of(game.evaluation))


def game_json(game: Game, *, judge: bool) -> dict[str, Any]:
    """The game as the API answers it; a non-judge gets the redacted snapshot and evaluation."""
    if judge:
        snapshot, answer = game.position, game.evaluation
    else:
        typed = rules.answer_of(game.evaluation)
        shown = rules.redact_answer(game.position or {}, typed)
        snapshot = rules.redact(game.position or {}, typed)
        answer = dict(game.evaluation or {}) if shown is typed or shown is None else shown.to_dict()
    return {
        "table": game.table_id,
        "ruleset": game.ruleset,
        "tracking": game.tracking,
        "seq": game.seq,
        "position": snapshot,
        "evaluation": answer,
    }


def game_etag(game: Game, *, judge: bool) -> str:
    """The ETag of `game_json(game, judge=judge)`: what it shows changes only with a new
    record (the sequence number), so a poll of an unchanged game is answered 304 without
    reading the position. The table page carries it (`data-etag`) for its polls."""
    return f'"game-{game.table_id}-{game.seq}-{game.tracking}-{"j" if judge else "p"}"'


def events_json(events: Iterable[GameEvent], *, game: Game, judge: bool, voided: set[int]) -> list[dict[str, Any]]:
    shown = revealed(game)
    out = [event_json(e, judge=judge, revealed=shown, voided=voided) for e in events]
    for e in out:  # what happened, in words, for people (None for a kind shown by its fields)
        e["said"] = record_words.said(e["event"])
    return out
