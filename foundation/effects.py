"""What a command's write causes in other apps, said by the command itself.

A command names the effect where it writes (`effects.cause(effects.REPORT_FILED, ...)`), and
the app that acts on it says so once, when it is ready (`effects.on(effects.REPORT_FILED,
handler)`): the app that writes never imports the apps that follow it (the layer order), and a
write that no command made (a shell, a migration) causes nothing. Each effect's facts are
plain ids, never model instances: a handler reads what it needs.

Handlers run after the command's transaction commits (at once outside one): a recompute, a
backup or anything sent to the worker sees only what was written, and a write rolled back
causes nothing. A handler registered with `in_transaction=True` runs instead within the
command's transaction, right away: only for a write that belongs to the same record of truth
(a filed report's table clock stops with the filing, or neither does).

Grep for an effect's name to see who causes it and who acts on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

#: A game report was filed (again). Facts: report_id, table_id, tournament_id.
REPORT_FILED = "report filed"
#: A filed report was reopened to be corrected. Facts: report_id, table_id, tournament_id.
REPORT_REOPENED = "report reopened"
#: A round was closed (its games are over). Facts: round_id.
ROUND_CLOSED = "round closed"
#: A head judge linked a player to a person, or unlinked them. Facts: player_id.
PLAYER_RELINKED = "player relinked"
#: A round's seating was published: players may read their tables. Facts: round_id.
ROUND_PUBLISHED = "round published"
#: The final was seated (or seated again): its finalists are known. Facts: round_id.
FINAL_SEATED = "final seated"

#: Someone registered online; their email is to be confirmed. Facts: registration_id, token
#: (the confirmation link's, known only to this effect and the message it sends).
REGISTRATION_MADE = "registration made"
#: A registrant confirmed their email and became a player, active or on the waiting list.
#: Facts: player_id.
PLAYER_REGISTERED = "player registered"
#: A player moved up from the waiting list: they have a place. Facts: player_id.
PLAYER_MOVED_UP = "player moved up"

EFFECTS = frozenset({
    REPORT_FILED, REPORT_REOPENED, ROUND_CLOSED, PLAYER_RELINKED, REGISTRATION_MADE, PLAYER_REGISTERED,
    PLAYER_MOVED_UP, ROUND_PUBLISHED, FINAL_SEATED,
})

Handler = Callable[..., None]

_after_commit: dict[str, list[Handler]] = {}
_in_transaction: dict[str, list[Handler]] = {}


def on(effect: str, handler: Handler, *, in_transaction: bool = False) -> None:
    """Run `handler(**facts)` whenever a command causes `effect` (once per handler)."""
    if effect not in EFFECTS:
        raise ValueError(f"unknown effect {effect!r}")
    handlers = (_in_transaction if in_transaction else _after_commit).setdefault(effect, [])
    if handler not in handlers:
        handlers.append(handler)


def cause(effect: str, **facts: Any) -> None:
    """A command's write causes `effect`: its in-transaction handlers run now, the others
    once the transaction commits."""
    if effect not in EFFECTS:
        raise ValueError(f"unknown effect {effect!r}")
    for handler in _in_transaction.get(effect, []):
        handler(**facts)
    for handler in _after_commit.get(effect, []):
        transaction.on_commit(lambda handler=handler: handler(**facts))  # type: ignore[misc]
