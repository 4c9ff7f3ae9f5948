"""The API's JSON parser: refuses deep nesting and unsafe text before any view sees the body.

One place for what every endpoint (the anonymous engine evaluation included) accepts: JSON at
most `MAX_JSON_DEPTH` levels deep, strings without NUL, lone surrogates or control
characters (dune/text_rules.py), and numbers of a bounded size: at most
`JSON_NUMBER_DIGITS` digits and an exponent that keeps them below 10**`JSON_NUMBER_DIGITS`
(`1E+999999999` would otherwise be read as infinity, or as a billion-digit integer by the
code that reads it exactly). Each field then holds its own, narrower bounds (the report's and
the snapshot's decimals: dune/engine/numbers.py). A refusal is a 400 naming the field.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from dune.engine.numbers import decimal_problem
from dune.text_rules import (
    MAX_JSON_DEPTH,
    MAX_JSON_LIST,
    MAX_WHOLE,
    RefusedNumber,
    nesting_depth_exceeds,
    overlong_list,
    structure_problems,
)

#: The most digits a JSON number may have, before or after the point (seeds take 19).
JSON_NUMBER_DIGITS = 40


class UnsafeInput(ParseError):
    """A body or field no endpoint accepts; `field` names where (config/api_errors.py shapes it)."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class BodyTooLarge(UnsafeInput):
    """A body over an endpoint's own limit (413), refused before it is parsed."""

    status_code = 413


def refusal_body(field: str, problem: str) -> dict[str, Any]:
    """The one shape of these refusals, readable by every endpoint's 400 description."""
    text = f"{field}: {problem}"
    body: dict[str, Any] = {"detail": text, "message": text, "rule": "", "field": field, "player": None}
    # Also keyed by the field itself, as a serializer's refusal is ({"seed": ["…"]}).
    body.setdefault(field, [problem])
    return body


#: Where a request keeps the body a door before the view parsed with this parser already
#: (web.idempotency_api, looking for a retry's answer): (its bytes, its encoding, the value).
PARSED = "parsed_json"


class SafeJSONParser(JSONParser):
    #: The largest body this parser reads (bytes); None: the platform's upload limit alone.
    limit: int | None = None

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read() if self.limit is None else stream.read(self.limit + 1)
        if self.limit is not None and len(raw) > self.limit:
            raise BodyTooLarge("body", _("the body is larger than this endpoint's limit of %(kb)s kB (%(bytes)s bytes)")
                               % {"kb": self.limit // 1024, "bytes": self.limit})
        read = getattr(getattr(parser_context.get("request"), "_request", None), PARSED, None)
        if read is not None and read[0] == raw and read[1] == encoding:
            return read[2]  # the same bytes, parsed and checked once in this request
        return self.parse_text(raw, encoding)

    def parse_text(self, raw: bytes, encoding: str) -> Any:
        """The JSON value of `raw`, checked; raises UnsafeInput (ParseError) naming the field."""
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise UnsafeInput("body", f"not {encoding} text") from exc
        if nesting_depth_exceeds(text):
            raise UnsafeInput("body", f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
        if text.count(",") >= MAX_JSON_LIST:
            # Enough values for an overlong list: find it with the plain parser (no per-number
            # checks) and refuse it by name before any slower reading.
            try:
                found = overlong_list(json.loads(text))
            except (ValueError, RecursionError):
                found = None
            if found is not None:
                raise UnsafeInput(*found)
        try:
            data = json.loads(
                text, parse_constant=self._refuse_constant, parse_float=_read_float, parse_int=_read_int
            )
        except (ValueError, RecursionError) as exc:
            raise UnsafeInput("body", f"not valid JSON ({exc})") from exc
        for field, problem in structure_problems(data).items():
            raise UnsafeInput(field, problem)
        return data

    @staticmethod
    def _refuse_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")


def _number_problem(text: str) -> str | None:
    problem = decimal_problem(
        text, digits=JSON_NUMBER_DIGITS, whole=JSON_NUMBER_DIGITS, places=JSON_NUMBER_DIGITS
    )
    return None if problem is None else f"the number {text if len(text) <= 24 else text[:16] + '…'} {problem}"


def _read_float(text: str) -> Any:
    problem = _number_problem(text)
    return RefusedNumber(problem) if problem else float(text)


def _read_int(text: str) -> Any:
    problem = _number_problem(text) if len(text) > JSON_NUMBER_DIGITS else None
    if problem:
        return RefusedNumber(problem)
    number = int(text)
    if not -MAX_WHOLE - 1 <= number <= MAX_WHOLE:
        # The database and orjson (the idempotency records, the answers) hold 64 bits.
        shown = text if len(text) <= 24 else text[:16] + "…"
        return RefusedNumber(f"the number {shown} is larger than a 64-bit integer (at most {MAX_WHOLE})")
    return number
