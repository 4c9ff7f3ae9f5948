"""The frame every app's commands share: one way in for each write, whichever door it came by.

A command (`tournament.commands`, `clocks.commands`, `gameplay.commands`, `scoring.commands`)
takes its target, a typed input (a frozen dataclass the door parsed once), the actor and an
idempotency key. It asks its app's permissions module, calls the services inside the
transaction `run` opens, and returns the answer stored with the key; or it raises a
`dune.refusals.Refusal` naming the field or the rule. The page (a form) and the API (JSON)
only translate the request in and the answer or refusal out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dune import text_rules
from dune.refusals import Refusal
from foundation import idempotency

__all__ = ["Refused", "run", "text_field", "yes", "whole_number", "number_field", "id_list"]


class Refused(Refusal):
    """A command refused before its services ran: who may (403), a malformed field (400), the
    idempotency key (400 malformed, 422 reused for another input)."""

    def to_dict(self) -> dict[str, Any]:
        """`detail` and `field`, and the message under the field's own name, as a form and
        DRF's validation answered a malformed field before (`{"minutes": ["..."]}`)."""
        body = super().to_dict()
        if self.field and self.field not in body:
            body[self.field] = [self.message]
        return body


def run(
    *, actor: Any, scope: str, key: str | None, body: Any, perform: Callable[[], tuple[int, dict[str, Any]]]
) -> idempotency.Answer:
    """`perform` at most once per (actor, scope, key): the first answer, or the stored one for
    a repeat (`idempotency.once`). Raises Refused for a malformed or reused key, and whatever
    `perform` raises (its transaction rolled back)."""
    try:
        return idempotency.once(user=actor, scope=scope, key=key, body=body, perform=perform)
    except (idempotency.KeyReused, idempotency.BadKey) as exc:
        raise Refused(str(exc), field=idempotency.HEADER, status=exc.status, offending=key) from None


# --- parsing shared by both doors: a form's text and JSON's values read the same -------------

#: What a checkbox or a JSON flag says when it says yes (a form's "on", JSON's true, a script's "1").
YES = frozenset({"true", "on", "1", "yes"})


def yes(value: Any) -> bool:
    """Whether a flag says yes: JSON `true`, or the text of a checked box or a script ("on",
    "true", "1", "yes", any case). Anything else (missing, false, "off", 0) is no."""
    if isinstance(value, bool):
        return value
    return isinstance(value, str) and value.strip().lower() in YES


def text_field(
    data: Mapping[str, Any], name: str, *, required: bool = False, max_length: int = 500, why: str = ""
) -> str:
    """The text field `name`, stripped ("" when missing or null). Raises Refused naming it
    when it is not text, required and empty, or too long."""
    value = data.get(name, "")
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise Refused(f"must be text, not {value!r}", field=name, offending=value)
    value = value.strip()
    if required and not value:
        raise Refused(f"this field is required{f' ({why})' if why else ''}", field=name)
    if len(value) > max_length:
        raise Refused(f"at most {max_length} characters", field=name, offending=value)
    return value


def whole_number(value: Any, *, signed: bool = False) -> Any:
    """A form's or a script's digits as an int (`"15"`, `" -5 "` when `signed`, read by the one
    parser `dune.text_rules.whole_number`); anything else unchanged, for the domain's own check
    to refuse with its rule (`2.5`, `"ten"`, `"①"`)."""
    if isinstance(value, str):
        number = text_rules.whole_number(value, signed=signed)
        return value if number is None else number
    return value


def number_field(
    data: Mapping[str, Any], name: str, *, required: bool = True, low: int | None = None, high: int | None = None,
    what: str = "a whole number",
) -> int | None:
    """The whole number `name` (JSON's 7 or a form's "7"); None when it is missing and not
    `required`. Raises Refused naming it when it is not a whole number or outside low..high."""
    value = data.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise Refused(f"this field is required: {what}", field=name)
        return None
    number = text_rules.whole_number(value, signed=True)
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        bounds = f" from {low} to {high}" if low is not None and high is not None else ""
        raise Refused(f"expected {what}{bounds}, not {value!r}", field=name, offending=value)
    return number


def id_list(data: Mapping[str, Any], name: str, *, required: bool = False) -> list[int] | None:
    """The list of ids `name`: a JSON list of whole numbers, or a form's text listing them
    separated by commas, spaces or new lines. None when it is missing (or null) and not
    `required`. Raises Refused naming it otherwise."""
    value = data.get(name)
    if value is None:
        if required:
            raise Refused("this field is required: a list of ids", field=name)
        return None
    items = value.replace(",", " ").split() if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise Refused(f"expected a list of ids, not {value!r}", field=name, offending=value)
    ids = [text_rules.whole_number(item, signed=True) for item in items]
    if any(i is None for i in ids):
        raise Refused(f"expected whole numbers, not {value!r}", field=name, offending=value)
    return [i for i in ids if i is not None]
