"""Every API write reads only the fields its schema documents: any other field is refused by
name (400), never ignored, so a misspelt `expected_seq` or `minutes` cannot pass for a write
without it. The documented fields are read from the OpenAPI schema (`config.schema`), the one
description of each write's body."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from config.api_parsers import UnsafeInput
from config.schema import schema
from foundation.commands import Field

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


def _serializer_field(field: Field, body: str) -> serializers.Field:
    """The DRF field (for the OpenAPI schema) of one declared input field of the body `body`
    (a list of rows is a list of `{body}Row`)."""
    common: dict[str, Any] = {"required": field.required, "help_text": field.help or None}
    if field.kind == "text" and field.choices:
        return serializers.ChoiceField(choices=list(field.choices), allow_blank=not field.required, **common)
    if field.kind == "text":
        return serializers.CharField(max_length=field.max_length, allow_blank=not field.required,
                                     allow_null=field.nullable, **common)
    if field.kind == "number":
        return serializers.IntegerField(min_value=field.low, max_value=field.high, allow_null=field.nullable, **common)
    if field.kind == "flag":
        return serializers.BooleanField(**common)
    if field.kind == "ids":
        return serializers.ListField(child=serializers.IntegerField(), allow_null=field.nullable, **common)
    if field.kind == "email":
        return serializers.EmailField(max_length=field.max_length, allow_blank=not field.required, **common)
    if field.kind == "texts":
        return serializers.ListField(child=serializers.CharField(max_length=field.max_length), **common)
    if field.kind == "object":
        return serializers.DictField(**common)
    if field.kind == "decimal":
        return serializers.FloatField(allow_null=field.nullable, **common)
    if field.kind == "rows":
        row = body_of(f"{body}Row", {f.name: f for f in field.rows})
        return serializers.ListField(child=row(), allow_null=field.nullable, **common)
    if field.kind == "file":
        return serializers.FileField(**common)
    if field.kind == "moment":
        return serializers.DateTimeField(allow_null=field.nullable, **common)
    return serializers.JSONField(**common)


def body_of(name: str, *declared: Mapping[str, Field], optional: bool = False) -> type[serializers.Serializer]:
    """The API body's schema of a command's declared input (`foundation.commands.Field`): the
    OpenAPI document shows it, and `refuse_unknown_fields` refuses any field it does not list.
    Several declarations make one body (an endpoint whose path names the action); `optional`
    when no field is required of every action. A field declared twice keeps its first form."""
    fields: dict[str, Field] = {}
    for one in declared:
        for field in one.values():
            fields.setdefault(field.name, dataclasses.replace(field, required=False) if optional else field)
    attrs = {field.name: _serializer_field(field, name) for field in fields.values()}
    return type(name, (serializers.Serializer,), attrs)
