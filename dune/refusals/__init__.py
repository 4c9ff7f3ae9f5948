"""One shape for every refusal the platform answers with.

A refusal is a request the platform will not carry out: an illegal game action, a malformed
report, a seating that cannot be made, a clock operation out of turn, a bad form field. Each
area raises its own subclass (the rules engine's `RuleViolation`, scoring's `ScoringError`, the
planner's `SeatingUserError`, the clocks' `ClockError`, the head judge's `Refused`), and each
carries the same facts:

- `message`: what a person reads, naming players, factions and territories by their names;
- `rule` or `field`: the rule number that refuses, or the input field at fault;
- `offending`: the input that was refused (never shown raw to a person);
- `status`: the HTTP status the API answers with (400 unless the area says otherwise);
- `extra`: what a page or API needs to offer a way forward (empty unless the area sets it).

The API turns any `Refusal` into its answer in one place (`config.api_errors`); pages show
`message` next to `field`. Pure code: the cores import this module, so it imports nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar

#: Marks "no offending input recorded" (None is a legitimate input to refuse).
NO_INPUT: Any = object()


class Refusal(ValueError):
    """Base of every refusal: message, rule or field, offending input, HTTP status."""

    #: The HTTP status of this kind of refusal, unless the instance says otherwise.
    status_code: ClassVar[int] = 400

    message: str
    rule: str
    field: str | None
    offending: Any
    status: int
    extra: dict[str, Any]

    def __init__(
        self,
        message: str,
        *,
        rule: str = "",
        field: str | None = None,
        offending: Any = NO_INPUT,
        status: int | None = None,
        text: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(text if text is not None else message)
        self.message = message
        self.rule = rule
        self.field = field
        self.offending = offending
        self.status = status if status is not None else self.status_code
        self.extra = extra or {}

    @property
    def has_offending(self) -> bool:
        return self.offending is not NO_INPUT

    def form_errors(self, default_field: str) -> dict[str, list[str]]:
        """The refusal as a page shows it: the message under its field (or `default_field`)."""
        return {self.field or default_field: [self.message]}

    def to_dict(self) -> dict[str, Any]:
        """The API's body for this refusal: `detail`, and `rule` / `field` when known."""
        body: dict[str, Any] = {"detail": self.message}
        if self.field:
            body["field"] = self.field
        if self.rule:
            body["rule"] = self.rule
        return body
