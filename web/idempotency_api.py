"""The API's side of `foundation.idempotency`: the header in the OpenAPI schema, a command's
answer as a response (the stored JSON text as it is, marked when replayed), and a retry
answered from its stored answer before anything else is set up (`StoredAnswerMiddleware`)."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_parsers import PARSED, SafeJSONParser
from config.token_auth import READ, token_user
from dune.refusals import Refusal
from foundation.commands import Field
from foundation.idempotency import FORM_FIELD, HEADER, Answer, BadKey, check_key
from foundation.sql_rows import Along
from web.api_fields import refuse_unknown_fields

__all__ = [
    "SCHEMA_PARAMETER", "SCHEMA_REUSED", "answered", "key_of", "form_key", "answers_retries", "StoredAnswerMiddleware",
]

T = TypeVar("T")

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


# --- a retry answered first ---------------------------------------------------------------------

#: The attribute of an API view whose POST's retry may be answered before anything is set up:
#: (the write's declared fields, `stored(user, data, key, **url_kwargs) -> Answer | None`, the
#: key's scope `scope(**url_kwargs)`).
RETRIED = "answers_retries"


def answers_retries(
    fields: Mapping[str, Field], stored: Callable[..., Answer | None], scope: Callable[..., str],
    target: Callable[..., Along] | None = None,
) -> Callable[[T], T]:
    """Mark an API view whose POST's retry `StoredAnswerMiddleware` may answer from its stored
    answer. `stored` is the answer the view itself would send from the record (the command's
    own check), or None when the view must answer (no record, a refusal, another body); the
    body it is given reads only the write's declared `fields` (any other: the view refuses it).
    `scope` is the scope the command keeps its keys in, from the URL's arguments: the record
    is read with the token, in one statement; `target`, the row the write is about (its
    table), read in that statement too (`foundation.sql_rows.Along`), for the view or `stored`."""

    def mark(view: T) -> T:
        setattr(view, RETRIED, (fields, stored, scope, target))
        return view

    return mark


@functools.lru_cache(maxsize=4096)
def _retried_view(
    path: str,
) -> tuple[type, Mapping[str, Field], Callable[..., Answer | None], str, Callable[[], Along] | None, dict[str, Any]] | None:
    """(view class, declared fields, stored answer, the key's scope, its target's reading, URL
    arguments) of a path whose view answers
    retries early; None for any other path. Kept per path, as `web.live` keeps its polled pages."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    view = getattr(match.func, "cls", None)
    marked = getattr(view, RETRIED, None)
    if view is None or marked is None or match.args:
        return None
    kwargs = dict(match.kwargs)
    target = None if marked[3] is None else functools.partial(marked[3], **kwargs)
    return view, marked[0], marked[1], marked[2](**kwargs), target, kwargs


@functools.cache
def _view_headers(view: type) -> tuple[dict[str, str], list[str]]:
    """What the view's answer carries beside its body: DRF's `Allow` (HEAD with GET, as
    `as_view` serves it) and what it varies by (DRF's `Accept`; `Cookie`, since a session
    would decide who asks)."""
    instance = view()
    if hasattr(instance, "get") and not hasattr(instance, "head"):
        instance.head = instance.get
    headers = dict(instance.default_response_headers)
    vary = headers.pop("Vary", "")
    return headers, [*(v.strip() for v in vary.split(",") if v.strip()), "Cookie"]


def _token(request: HttpRequest, answer: tuple[str, str], along: Along | None) -> tuple[Any, Any] | None:
    """The active user and token of the request's `Authorization: Token <key>`, read as DRF's
    token authentication reads it, with the answer stored under `answer` (scope, key) for the
    user (config.token_auth); None for any other (or no) credentials."""
    words = request.META.get("HTTP_AUTHORIZATION", "").split()
    if len(words) != 2 or words[0].lower() != "token":
        return None
    found = token_user(words[1], answer=answer, along=along)
    return found if found is not None and found[0].is_active else None


def _body(request: HttpRequest, fields: Mapping[str, Field]) -> dict[str, Any] | None:
    """The JSON object the write's parser reads (config.api_parsers), when it sends only the
    write's declared fields; None for anything the view would refuse."""
    encoding = request.encoding or settings.DEFAULT_CHARSET
    try:
        data = SafeJSONParser().parse(io.BytesIO(request.body), "application/json", {"encoding": encoding})
    except (ParseError, RequestDataTooBig):
        return None
    # The view's parser takes this value for the same bytes (a first send is parsed once).
    setattr(request, PARSED, (request.body, encoding, data))
    if not isinstance(data, dict) or any(name not in fields for name in data):
        return None
    return data


def _allowed(view: type, request: Any) -> bool:
    """The view's permissions and throttles (each token at its pace) let `request` through; a
    throttle counts it here, once: the view is not reached."""
    return all(p().has_permission(request, None) for p in view.permission_classes) and all(
        t().allow_request(request, None) for t in view.throttle_classes
    )


class StoredAnswerMiddleware:
    """Answers the retry of an API write from its stored answer, before CSRF, the user, the
    messages, the URL's resolution, DRF's set-up (sessions, content negotiation) and the view.

    A table judge's phone sends its post again when the answer was lost on the venue's Wi-Fi
    (a tenth of an event day's posts): the answer is one statement (its token, its stored
    answer and its table read together), and the rest of the request's path cost more than it. Only a retry the view would answer from its record is
    answered here: a token's POST (no session cookie) of a JSON body that reads only the
    write's declared fields, with no query, asking for JSON, allowed by the view's permissions
    and throttles. Anything else passes through, a first send too, which takes this read of its
    token, of its missing record and of its table as its own (config.token_auth,
    foundation.idempotency, tournament.table_rows)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        # What the middleware after this one would add to the answer: X-Frame-Options.
        self.framed = XFrameOptionsMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        key = request.META.get("HTTP_IDEMPOTENCY_KEY")
        if key and request.method == "POST":
            response = self._stored(request, key)
            if response is not None:
                return self.framed.process_response(request, response)
        return self.get_response(request)

    @staticmethod
    def _stored(request: HttpRequest, key: str) -> HttpResponseBase | None:
        meta = request.META
        if (
            meta.get("QUERY_STRING") or request.content_type != "application/json"
            or meta.get("HTTP_ACCEPT", "*/*").strip() not in ("*/*", "application/json")
            or settings.SESSION_COOKIE_NAME in request.COOKIES
        ):
            return None
        marked = _retried_view(request.path_info)
        if marked is None:
            return None
        view, fields, stored, scope, target, kwargs = marked
        try:
            checked = check_key(key)
        except BadKey:
            return None
        found = _token(request, (scope, str(checked)), None if target is None else target())
        if found is None:
            return None
        setattr(request, READ, found)  # read once: the view's authentication takes it
        data = _body(request, fields)
        if data is None:
            return None
        try:
            answer = stored(found[0], data, key, **kwargs)
        except Refusal:
            return None
        shim = SimpleNamespace(method=request.method, user=found[0], auth=found[1], META=meta)
        if answer is None or answer.text is None or not _allowed(view, shim):
            return None
        response = HttpResponse(answer.text, status=answer.status, content_type="application/json")
        response["Idempotent-Replayed"] = "true"
        headers, vary = _view_headers(view)
        for name, value in headers.items():
            response[name] = value
        patch_vary_headers(response, vary)
        return response
