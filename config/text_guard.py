"""Refuses form fields and query parameters carrying text no page may store.

The pages read `request.POST` and `request.GET` directly; this middleware checks every value
with the same rule as the API's JSON parser (tournament/text_rules.py) before any view runs,
and answers 400 naming the field. Uploaded files are read by their own parsers.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.html import escape

from config.api_parsers import refusal_body
from tournament.text_rules import text_problem


def _first_problem(request: HttpRequest) -> tuple[str, str] | None:
    sources = [request.GET]
    if request.method == "POST" and request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
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
        found = _first_problem(request)
        if found is not None:
            field, problem = found
            if request.path.startswith("/api/"):
                return JsonResponse(refusal_body(field, problem), status=400)
            return HttpResponseBadRequest(
                f"<!doctype html><title>Refused</title><p>{escape(field)}: {escape(problem)}. "
                "Go back, correct the field and send it again.</p>"
            )
        return self.get_response(request)
