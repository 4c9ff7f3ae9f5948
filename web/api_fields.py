"""Every API write reads only the fields its schema documents: any other field is refused by
name (400), never ignored, so a misspelt `expected_seq` or `minutes` cannot pass for a write
without it. The documented fields are read from the OpenAPI schema (`config.schema`), the one
description of each write's body."""

from __future__ import annotations

import functools
import re
from typing import Any

from django.utils.translation import gettext as _

from config.api_parsers import UnsafeInput
from config.schema import schema

_ROUTE_PART = re.compile(r"<(?:\w+:)?(\w+)>")


def _operation(request: Any) -> tuple[str, str] | None:
    """The OpenAPI path and method of `request` ("/api/tournaments/{id}/format/", "patch")."""
    match = getattr(getattr(request, "_request", request), "resolver_match", None)
    route = getattr(match, "route", None)
    if not route:
        return None
    path = "/" + _ROUTE_PART.sub(lambda m: "{" + ("id" if m.group(1) == "pk" else m.group(1)) + "}", route)
    return path, str(request.method).lower()


def documented_fields(request: Any) -> frozenset[str] | None:
    """The top-level fields the API's schema documents for this write's JSON body (none for a
    write without a body); None where it documents no fixed set (a free object)."""
    operation = _operation(request)
    return None if operation is None else _fields_of(*operation)


@functools.cache
def _fields_of(path: str, method: str) -> frozenset[str] | None:
    document = schema()
    operation = document["paths"].get(path, {}).get(method)
    if operation is None:
        return None
    if "requestBody" not in operation:
        return frozenset()  # a write that reads no body: any field is one it does not read
    found = operation["requestBody"].get("content", {}).get("application/json", {}).get("schema")
    if found is None:
        return None
    if "$ref" in found:
        found = document["components"]["schemas"][found["$ref"].rsplit("/", 1)[-1]]
    properties = found.get("properties")
    if found.get("type") != "object" or not properties or found.get("additionalProperties"):
        return None
    return frozenset(properties)


def refuse_unknown_fields(request: Any) -> None:
    """Raise UnsafeInput (400, naming the first) when the JSON body has fields the write does
    not read."""
    data = request.data
    if not isinstance(data, dict):
        return
    known = documented_fields(request)
    if known is None:
        return
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise UnsafeInput(unknown[0], _("unknown field%(s)s %(names)s: this write reads %(known)s") % {
            "s": "s" if len(unknown) > 1 else "", "names": ", ".join(unknown),
            "known": ", ".join(sorted(known)) or _("no field")})
