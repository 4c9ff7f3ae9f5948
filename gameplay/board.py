"""The board picture of a table's game: the position after any record, drawn by the cores.

The drawing itself is the pure `dune.board_svg.board_svg`; this module only finds the position
a table was in after record N (the log is append-only, so `(game, N)` names one position for
ever) and refuses what has no board: a table whose record has not begun, or a record number
the log does not hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from dune.board_svg import board_svg, describe, stack_rows
from dune.engine.evaluation import evaluate
from dune.refusals import Refusal
from dune.text_rules import whole_number
from gameplay import engine_adapter as rules
from gameplay import services
from gameplay.models import Game, GameEvent
from tournament.models import Round

#: Bumped when the drawing changes, so a phone's cached picture of a record is drawn again.
DRAWING_VERSION = 1


class NoBoard(Refusal):
    """There is no board to draw: the record has not begun, or has no such record number."""

    status_code = 404


def recorded_game(table: Any) -> Game:
    """The table's recorded game. Raises NoBoard while the seating is unpublished or no
    record has been made (a visitor's look at the table never starts the record)."""
    if table.round.state == Round.State.PLANNED:
        raise NoBoard(_("Table %(number)s: the seating of this round is not published yet, so there is no board.") % {"number": table.number},
                      field="table")
    game = services.recorded_game(table)
    if game is None:
        raise NoBoard(_("Table %(number)s: the game has not begun (nothing is recorded yet), so there is no board.") % {"number": table.number},
                      field="table")
    return game


def record_number(raw: str | None, game: Game) -> int:
    """The record number asked for (`?seq=N`), or the latest. Raises NoBoard naming the range."""
    if raw is None or raw == "":
        return game.seq
    number = whole_number(raw)
    seq = -1 if number is None else number
    if not 1 <= seq <= game.seq:
        raise NoBoard(_("There is no record #%(raw)s at this table: its records run from #1 to #%(seq)s.") % {"raw": raw, "seq": game.seq},
                      field="seq", offending=raw)
    return seq


def _key(game: Game, seq: int) -> tuple[Any, ...]:
    return ("board-at", game.pk, game.created_at.isoformat(), seq)


def position_at(game: Game, seq: int) -> Any:
    """The position after record `seq` (1..game.seq): the latest from the game row, an earlier
    one from the position just before it when a viewer steps through the records, else from
    the nearest stored snapshot, replaying the records in between through the engine."""
    if seq == game.seq:
        return services.position_of(game)
    cached = rules.cached(_key(game, seq))
    if cached is not None:
        return cached
    start, position = 0, None
    before = rules.cached(_key(game, seq - 1))
    if before is not None:
        start, position = seq - 1, before
    else:
        snapshot = game.snapshots.filter(seq__lte=seq).order_by("-seq").first()
        if snapshot is not None:
            start, position = snapshot.seq, rules.load(snapshot.position)
    bodies = list(GameEvent.objects.filter(game=game, seq__gt=start, seq__lte=seq).order_by("seq")
                  .values_list("body", flat=True))
    if position is not None and any(body.get("type") == "void" for body in bodies):
        # A void cancels an earlier record: the engine replays the log up to it (rare).
        position = None
        bodies = list(GameEvent.objects.filter(game=game, seq__lte=seq).order_by("seq").values_list("body", flat=True))
    if position is None:
        position = rules.replay_bodies(bodies)
    else:
        for body in bodies:
            position = rules.advance(position, rules.parse_event(body), history=list)  # no void here
    key = _key(game, seq)
    transaction.on_commit(rules.remember_on_commit(key, position))  # only committed records are cached
    return position


@dataclass(frozen=True)
class Drawing:
    """A table's board after one record: the SVG, its ETag, and the stacks in words."""

    table: Any
    seq: int
    latest: int
    svg: str
    etag: str
    words: str
    #: The force stacks in the reader's words (territory id, place, faction, forces).
    rows: list[dict[str, Any]]


def picture_kind() -> str:
    """The picture's kind for its ETag: it is drawn in the reader's language."""
    return f"svg-{translation.get_language()}"


def etag_for(game: Game, seq: int, kind: str = "svg") -> str:
    """The ETag of a table's board after record `seq` (`kind`: the picture or the panel)."""
    return f'"board-{kind}-{DRAWING_VERSION}-{game.pk}-{seq}"'


def drawing(table: Any, seq: str | int | None = None, *, game: Game | None = None, uid: str = "") -> Drawing:
    """The table's board after record `seq` (the latest when None). Raises NoBoard.
    `uid` names the drawing's inner ids (several boards on one page need different ones)."""
    game = game if game is not None else recorded_game(table)
    at = record_number(None if seq is None else str(seq), game)
    position = position_at(game, at)
    answer = rules.answer_of(game.evaluation) if at == game.seq else None
    answer = answer if answer is not None else evaluate(position)
    title = _("Table %(number)s: the board after record #%(seq)s") % {"number": table.number, "seq": at}
    return Drawing(
        table=table,
        seq=at,
        latest=game.seq,
        svg=board_svg(position, answer=answer, title=title, seq=at, uid=uid or f"board-t{table.pk}", words=translation),
        etag=etag_for(game, at, picture_kind()),
        words=describe(position, answer, translation),
        rows=[
            {"territory": r.territory, "place": r.place(translation), "faction_name": r.faction_name,
             "words": r.words(translation)}
            for r in stack_rows(position)
        ],
    )
