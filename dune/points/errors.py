"""Errors raised by the scoring systems.

Every error carries the rule it enforces and the offending input, and is raised, never
collected. User-fixable problems with a filed report derive from `ReportError`; asking for
something a tournament cannot decide by its rules (a true tie across the finals cut) is a
`TieAtCutError`.
"""

from __future__ import annotations

from collections.abc import Hashable

from dune.refusals import NO_INPUT, Refusal


class ScoringError(Refusal):
    """Base class of every scoring refusal; `rule` names the rule text that refuses."""

    def __init__(self, msg: str, *, rule: str, field: str | None = None, offending: object = NO_INPUT) -> None:
        super().__init__(msg, rule=rule, field=field, offending=offending, text=f"{msg} (rule {rule})")
        self.msg = msg


class UnknownSystemError(ScoringError, LookupError):
    """A format key that no registered scoring system answers to."""

    def __init__(self, key: object, *, known: tuple[str, ...]) -> None:
        super().__init__(
            f"no scoring system for format {key!r}; known formats: {', '.join(known)}",
            rule="DESIGN formats",
        )
        self.key = key


class UnsupportedResultError(ScoringError):
    """A result kind the format's points table does not contain."""

    def __init__(self, kind: object, *, format_key: str, rule: str, why: str) -> None:
        super().__init__(f"result {kind!r} does not exist in format {format_key!r}: {why}", rule=rule)
        self.kind = kind
        self.format_key = format_key
        self.why = why


class ReportError(ScoringError):
    """A game report that cannot be accepted; names the row (player) and field at fault.

    `player` is None and `field` names a top-level key when the fault is not in one row. The
    message names the row by `player_name` when the caller knows the player's name.
    """

    def __init__(
        self,
        msg: str,
        *,
        rule: str,
        field: str,
        player: Hashable | None = None,
        value: object = None,
        player_name: str | None = None,
    ) -> None:
        if player is None:
            where = f"field {field!r}"
        else:
            where = f"row {player_name or repr(player)}, field {field!r}"
        super().__init__(f"{where}: {msg}", rule=rule, field=field, offending=value)
        self.player = player
        self.player_name = player_name
        self.value = value


class ReportShapeError(ReportError):
    """A report whose keys, types or rows are malformed."""


class ResultKindError(ReportError):
    """A row whose result kind is unknown or absent from the format."""


class WinnersContradictResultError(ReportError):
    """The winning rows disagree with their result kind (count, allies, faction, ending)."""


class StandingsError(ScoringError):
    """Results that cannot form standings (a final among heats, a disqualified player seated)."""


class TieAtCutError(ScoringError):
    """Players tied on every tiebreaker straddle the finals cut and no lot drawing was supplied."""

    def __init__(self, players: tuple[Hashable, ...], *, seats: int, rule: str) -> None:
        super().__init__(
            f"players {players!r} are tied on every tiebreaker across the cut of {seats} finalist seats;"
            " supply a seeded random.Random to draw lots",
            rule=rule,
        )
        self.players = players
        self.seats = seats
