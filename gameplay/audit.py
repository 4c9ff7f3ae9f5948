"""Every recorded game checked against its own log: the log is the truth (DESIGN.md principle
2), the game row's position and evaluation and its periodic snapshots are what the log folds
to through the rules engine. `manage.py check_games` reports each place they differ.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.utils.translation import gettext as _

from foundation import json_text
from gameplay import engine_adapter as rules
from gameplay.models import Game, GameEvent


def _stored(value: Any) -> Any:
    """`value` as the database keeps it (JSON: tuples as lists, keys as text)."""
    return json_text.loads(json_text.dumps(value))


def _differing(stored: Any, folded: Any) -> str:
    """Which top-level parts of two snapshots differ, in words."""
    if isinstance(stored, Mapping) and isinstance(folded, Mapping):
        keys = sorted(k for k in set(stored) | set(folded) if stored.get(k) != folded.get(k))
        return ", ".join(str(k) for k in keys)
    return ""


def disagreements() -> Iterator[str]:
    """One sentence per game whose stored position, evaluation or snapshot is not what its log
    replays to (none when every game agrees with its log)."""
    games = Game.objects.select_related("table__round__tournament").order_by("pk")
    for game in games.iterator(chunk_size=50):
        bodies = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("body", flat=True))
        if not bodies:
            continue
        where = str(game.table)
        if len(bodies) != game.seq:
            yield _("%(table)s: the game says record #%(seq)d is its last, its log holds %(count)d records.") % {
                "table": where, "seq": game.seq, "count": len(bodies)}
        try:
            position = rules.replay_bodies(bodies)
        except Exception as exc:  # the log itself no longer replays: the worst disagreement
            yield _("%(table)s: its log does not replay through the rules engine (%(error)s).") % {
                "table": where, "error": f"{type(exc).__name__}: {exc}"[:300]}
            continue
        folded = _stored(rules.dump(position))
        if folded != game.position:
            yield _("%(table)s: the stored position after record #%(seq)d is not what its log replays to "
                    "(differing: %(parts)s).") % {"table": where, "seq": game.seq,
                                                  "parts": _differing(game.position, folded)}
        if _stored(rules.evaluation(position)) != game.evaluation:
            yield _("%(table)s: the stored evaluation after record #%(seq)d is not the evaluation of the "
                    "position its log replays to.") % {"table": where, "seq": game.seq}
        for snapshot in game.snapshots.order_by("seq"):
            at = _stored(rules.dump(rules.replay_bodies(bodies[:snapshot.seq])))
            if at != snapshot.position:
                yield _("%(table)s: the snapshot after record #%(seq)d is not what its log replays to "
                        "(differing: %(parts)s).") % {"table": where, "seq": snapshot.seq,
                                                      "parts": _differing(snapshot.position, at)}
