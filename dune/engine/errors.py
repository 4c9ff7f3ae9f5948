"""Typed refusals of the rules engine.

Every refusal is a `RuleViolation` (a `ValueError`) that names the rule it enforces
(`"1.06.04.06"`, `"WBC VI.9"`, `"AH XII.E.5"`), the phase it happened in, a plain
message and the offending input (as `repr`). One subclass per cause, so callers can
tell a bad request from an illegal action; the engine always raises, never collects.
"""

from __future__ import annotations

from typing import Any

from dune.refusals import NO_INPUT, Refusal


class RuleViolation(Refusal):
    """Base of every engine refusal; `to_dict()` is what the API answers with. `field` names
    the event's field at fault when one is (a page shows the message next to it)."""

    def __init__(
        self, *, rule: str, msg: str, phase: str | None = None, input: Any = None, field: str | None = None
    ) -> None:
        self.phase = phase
        self.input = input
        text = f"{msg} (rule {rule})"
        if phase:
            text += f" [phase {phase}]"
        super().__init__(
            msg, rule=rule, field=field, offending=NO_INPUT if input is None else input, text=text
        )

    def to_dict(self) -> dict[str, Any]:
        """The refusal as JSON: rule, message, phase, the offending input as `repr` and the
        field at fault (only when the refusal names one)."""
        body: dict[str, Any] = {
            "rule": self.rule,
            "message": self.message,
            "phase": self.phase,
            "input": None if self.input is None else repr(self.input),
            "detail": f"{self.rule}: {self.message}" if self.rule else self.message,
        }
        if self.field:
            body["field"] = self.field
        return body


class IllegalAction(RuleViolation):
    """The event is well formed but the rules forbid it in this position."""


class InvalidPosition(RuleViolation):
    """A snapshot (or the result of an event) describes a position the rules cannot reach."""


class UnknownIdentifier(RuleViolation):
    """A faction, territory, sector, ruleset, phase, leader or result kind id is unknown."""


class InvalidEvent(RuleViolation):
    """An event dict is malformed: unknown type, missing or badly typed field (named)."""


class WrongPhase(IllegalAction):
    """The kind of event is not allowed in the current phase."""


class GameOver(IllegalAction):
    """The game has ended; only a correction (`void`) may follow."""


class OutOfTime(IllegalAction):
    """The table's clock ran out: no new turn may start."""


class VoidRefused(IllegalAction):
    """A correction would void an unknown event or leave a later event illegal."""


class InsertRefused(IllegalAction):
    """A correction would record an event before an unknown event, or the log with the event
    inserted would not replay: the inserted event or a later one would be refused there."""


class BoardDataError(ValueError):
    """The shipped board or faction data is inconsistent; lists every problem at once."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("board data is inconsistent:\n  " + "\n  ".join(problems))


class ResultRefused(IllegalAction):
    """A game report claims a result the rules (or the engine's record of the game) do not
    allow. `faction` is the seat at fault (None for the report as a whole), `field` the
    report's field (`result`, `alliances`, `turns`, `ended_by`, `results`) and `value` the
    refused value."""

    def __init__(
        self, *, rule: str, msg: str, field: str, faction: str | None = None, value: Any = None
    ) -> None:
        super().__init__(rule=rule, msg=msg, input=value, field=field)
        self.faction = faction
        self.value = value
