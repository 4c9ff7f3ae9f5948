"""Refuses form fields and query parameters carrying text no page may store.

The pages read `request.POST` and `request.GET` directly; this middleware checks every value
with the same rule as the API's JSON parser (dune/text_rules.py) once the URL names its
view, before that view runs. The API answers 400 in JSON naming the field; so does, as a plain
page, every view that does not show such refusals itself. A page view marked
`@shows_text_refusals` (web/page_text.py) gets the request with the refused
characters taken out and the refusal attached, and shows it next to the field. Uploaded files
are read by their own parsers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse

from config.api_parsers import refusal_body
from dune.text_rules import text_problem
from web.page_text import MARK, refused_page, take_out

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _form_body(request: HttpRequest) -> bool:
    return request.method == "POST" and request.content_type in FORM_TYPES


def _first_problem(request: HttpRequest) -> tuple[str, str] | None:
    sources = [request.GET]
    if _form_body(request):
        sources.append(request.POST)
    for source in sources:
        for field, values in source.lists():
            for text in (field, *values):
                problem = text_problem(text)
                if problem:
                    return field if text_problem(field) is None else "field name", problem
    return None


class TextGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        found = _first_problem(request)
        if found is None:
            return None
        field, problem = found
        if request.path.startswith("/api/"):
            return JsonResponse(refusal_body(field, problem), status=400)
        if getattr(view, MARK, False) and take_out(request, form_body=_form_body(request)):
            return None
        return refused_page(field, problem)
