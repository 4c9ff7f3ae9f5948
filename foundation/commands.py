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
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from dune import text_rules
from dune.refusals import Refusal
from foundation import idempotency

__all__ = [
    "DOOR_FIELDS", "Refused", "run", "keep", "earlier", "text_field", "yes", "whole_number", "number_field", "id_list",
    "text_list", "Field", "declared",
    "read_fields", "refuse_unknown",
]


class Refused(Refusal):
    """A command refused: who may (403), a malformed field (400), the idempotency key (400
    malformed, 422 reused for another input), or the services' refusal of a domain rule. The
    one refusal of every app's commands; the message names the field or the rule, and nothing
    was written.

    `extra` carries what the page or API needs to offer a way forward (the seating options of an
    unsplittable count, the refused rows of a CSV import)."""

    def to_dict(self) -> dict[str, Any]:
        """`detail`, `field` and `rule`, the message under the field's own name, as a form and
        DRF's validation answered a malformed field before (`{"minutes": ["..."]}`), and `extra`."""
        body = super().to_dict()
        if self.field and self.field not in body:
            body[self.field] = [self.message]
        body.update(self.extra)
        return body


def run(
    *, actor: Any, scope: str, key: str | None, body: Any, perform: Callable[[], tuple[int, dict[str, Any]]],
    plain: bool = False,
) -> idempotency.Answer:
    """`perform` at most once per (actor, scope, key): the first answer, or the stored one for
    a repeat (`idempotency.once`; `plain`: `perform` answers plain JSON values). Raises Refused
    for a malformed or reused key, and whatever `perform` raises (its transaction rolled back)."""
    try:
        return idempotency.once(user=actor, scope=scope, key=key, body=body, perform=perform, plain=plain)
    except (idempotency.KeyReused, idempotency.BadKey) as exc:
        raise Refused(str(exc), field=idempotency.HEADER, status=exc.status, offending=key) from None


def keep(
    *, actor: Any, scope: str, key: str | None, body: Any, status: int, data: dict[str, Any]
) -> idempotency.Answer:
    """The answer of the write the command has just done, stored with its key in the write's
    own transaction (`idempotency.keep`): a command that performs first and stores after, with
    no callback (`gameplay.commands.record`). Raises Refused for a malformed key."""
    try:
        return idempotency.keep(user=actor, scope=scope, key=key, body=body, status=status, data=data)
    except idempotency.BadKey as exc:
        raise Refused(str(exc), field=idempotency.HEADER, status=exc.status, offending=key) from None


def earlier(*, actor: Any, scope: str, key: str | None, body: Any) -> idempotency.Answer | None:
    """When the command's write was refused or rolled back: the answer stored under its key for
    this body (`idempotency.earlier`), or None (the write's refusal stands). Raises Refused for
    a malformed key (before the write's refusal, as `run` refuses it before the write) or a key
    used for another input."""
    try:
        return idempotency.earlier(user=actor, scope=scope, key=key, body=body)
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
        raise Refused(_("must be text, not %(value)s") % {"value": repr(value)}, field=name, offending=value)
    value = value.strip()
    if required and not value:
        raise Refused(
            _("this field is required (%(why)s)") % {"why": why} if why else _("this field is required"), field=name
        )
    if len(value) > max_length:
        raise Refused(_("at most %(max_length)s characters") % {"max_length": max_length}, field=name, offending=value)
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
            raise Refused(_("this field is required: %(what)s") % {"what": what}, field=name)
        return None
    number = text_rules.whole_number(value, signed=True)
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        said = {"what": what, "low": low, "high": high, "value": repr(value)}
        expected = (
            _("expected %(what)s from %(low)s to %(high)s, not %(value)s") % said
            if low is not None and high is not None
            else _("expected %(what)s, not %(value)s") % said
        )
        raise Refused(expected, field=name, offending=value)
    return number


def id_list(data: Mapping[str, Any], name: str, *, required: bool = False) -> list[int] | None:
    """The list of ids `name`: a JSON list of whole numbers, or a form's text listing them
    separated by commas, spaces or new lines (or a form's several values of `name`). None when it is missing (or null) and not
    `required`. Raises Refused naming it otherwise."""
    value = data.get(name)
    if hasattr(data, "getlist") and value is not None:  # a form: a select of several, or a text
        value = " ".join(str(v) for v in data.getlist(name))
    if value is None:
        if required:
            raise Refused(_("this field is required: a list of ids"), field=name)
        return None
    items = value.replace(",", " ").split() if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise Refused(_("expected a list of ids, not %(value)s") % {"value": repr(value)}, field=name, offending=value)
    ids = [text_rules.whole_number(item, signed=True) for item in items]
    if any(i is None for i in ids):
        raise Refused(_("expected whole numbers, not %(value)s") % {"value": repr(value)}, field=name, offending=value)
    return [i for i in ids if i is not None]


def text_list(data: Mapping[str, Any], name: str, *, max_length: int = 500) -> list[str]:
    """The list of texts `name`, each stripped, empty ones left out: a JSON list of strings, a
    form's several values of `name`, or one text listing them separated by commas or spaces
    ([] when missing or null). Raises Refused naming it otherwise."""
    value = data.get(name)
    if hasattr(data, "getlist") and value is not None:  # a form: several selects, or one text
        value = [v for item in data.getlist(name) for v in str(item).replace(",", " ").split()]
    if value is None:
        return []
    items = value.replace(",", " ").split() if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not all(isinstance(item, str) for item in items):
        raise Refused(_("expected a list of texts, not %(value)s") % {"value": repr(value)}, field=name, offending=value)
    texts = [item.strip() for item in items if item.strip()]
    if any(len(text) > max_length for text in texts):
        raise Refused(_("at most %(max_length)s characters") % {"max_length": max_length}, field=name, offending=value)
    return texts


# --- a command's typed input, declared once --------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One field of a command's typed input, declared once: the command reads it with this
    (`read`), and the web layer builds the API body's schema from it (`web.api_fields.body_of`),
    which also refuses any field a write does not declare. So a limit is written in one place.

    `kind`: "text" (at most `max_length` characters, stripped), "number" (a whole number from
    `low` to `high`), "flag" (a checked box or JSON true), "ids" (a list of ids), "moment" (a
    date and time, ISO 8601), "file" (an uploaded file, sent as a form's part), "email" (text
    the domain checks as an address), "texts" (a list of texts, each at most `max_length`),
    "object" (a JSON object the domain reads), "decimal" (a number the domain reads exactly),
    "rows" (a list of objects, each of the fields `rows` declares) or "value" (any JSON value
    the domain checks itself, such as a
    series named by id or name). `choices` lists the text values the domain accepts (shown in
    the schema; the domain refuses others with its own words)."""

    name: str
    kind: str = "text"
    required: bool = False
    max_length: int = 500
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False
    help: str = ""
    why: str = ""
    #: Reads the field where the domain words its own refusal (a clock's minutes name the
    #: clock rule they break): `reader(data, field)`; the declaration still gives its type and
    #: bounds to the schema.
    reader: Callable[[Mapping[str, Any], Field], Any] | None = None
    #: A "rows" field's row: the fields of each object of the list.
    rows: tuple[Field, ...] = ()

    def read(self, data: Mapping[str, Any]) -> Any:
        """This field of `data` (a form's POST or the API's JSON object), parsed; raises Refused
        naming it when it is malformed."""
        if self.reader is not None:
            return self.reader(data, self)
        if self.kind in ("text", "email"):
            return text_field(data, self.name, required=self.required, max_length=self.max_length, why=self.why)
        if self.kind == "number":
            return number_field(data, self.name, required=self.required, low=self.low, high=self.high,
                                what=self.help or "a whole number")
        if self.kind == "flag":
            return yes(data.get(self.name))
        if self.kind == "ids":
            return id_list(data, self.name, required=self.required)
        if self.kind == "texts":
            return text_list(data, self.name, max_length=self.max_length)
        if self.required and data.get(self.name) in (None, ""):
            raise Refused(_("this field is required (%(why)s)") % {"why": self.why} if self.why
                          else _("this field is required"), field=self.name)
        return data.get(self.name)

    def sent(self, data: Mapping[str, Any]) -> bool:
        return self.name in data


def declared(*fields: Field) -> dict[str, Field]:
    """A typed input's fields by name, in order (`FIELDS = declared(Field("name"), ...)`)."""
    return {f.name: f for f in fields}


def read_fields(fields: Mapping[str, Field], data: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared field of `data`, read by its declaration (in declaration order)."""
    return {name: field.read(data) for name, field in fields.items()}


#: What every page form sends beside its command's fields: the CSRF token and the form's key.
DOOR_FIELDS = frozenset({"csrfmiddlewaretoken", idempotency.FORM_FIELD})


def refuse_unknown(data: Mapping[str, Any], fields: Mapping[str, Field], *, also: frozenset[str] = frozenset()) -> None:
    """Raise Refused (400, naming the first) for a field of `data` the input does not declare
    (nor `also`, what the door itself reads, such as a form's CSRF token)."""
    unknown = sorted(str(k) for k in data if k not in fields and k not in also)
    if unknown:
        raise Refused(_("unknown field %(name)r: this write reads %(known)s") % {
            "name": unknown[0], "known": ", ".join(fields) or _("no field")}, field=unknown[0], offending=unknown[0])
