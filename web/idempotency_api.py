"""The API's side of `foundation.idempotency`: the header in the OpenAPI schema, and a
command's answer as a response (the stored JSON text as it is, marked when replayed)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from foundation.idempotency import FORM_FIELD, HEADER, Answer
from web.api_fields import refuse_unknown_fields

__all__ = ["SCHEMA_PARAMETER", "SCHEMA_REUSED", "answered", "key_of", "form_key"]

#: The header as an OpenAPI parameter, and the answer to a key reused for another body.
SCHEMA_PARAMETER = OpenApiParameter(
    HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="a key made by the client for this one action (a UUID): a retry with the same key "
    "gets the first answer back and records nothing; kept at least 24 hours",
)
SCHEMA_REUSED = OpenApiResponse(OpenApiTypes.OBJECT, description=f"the {HEADER} was already used for another body")


def key_of(request: Request) -> str | None:
    """The request's `Idempotency-Key` header (None without one). Every API write reads its key
    first, so its body is read here too: a body no write takes (malformed or too deep:
    config/api_parsers.py; a field the write does not read: web/api_fields.py) is refused
    before any command runs, also by the writes that read no field of it."""
    if request.method in ("POST", "PUT", "PATCH") and request.headers.get("Content-Length", "0") not in ("", "0"):
        refuse_unknown_fields(request)
    return request.headers.get(HEADER)


def form_key(request: HttpRequest) -> str | None:
    """A page form's key: its `idempotency_key` field (`{% command_key %}`), or the
    `Idempotency-Key` header the page's outbox sends it with (None without either)."""
    return request.POST.get(FORM_FIELD) or request.headers.get(HEADER)


def answered(request: Request, answer: Answer) -> HttpResponseBase:
    """The API's response for `answer`: its JSON text as written when the client takes JSON
    (not encoded a second time), else DRF's rendering of its body; a replayed answer says so in
    the `Idempotent-Replayed` header."""
    response: HttpResponseBase
    renderer = getattr(request, "accepted_renderer", None)
    if answer.text is not None and getattr(renderer, "format", None) == "json":
        response = HttpResponse(answer.text, status=answer.status, content_type="application/json")
    else:
        response = Response(answer.body, status=answer.status)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response
