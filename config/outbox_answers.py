"""Answers a phone's outbox can read (static/js/outbox_core.js).

A page's script sends a queued form with `X-Outbox: 1`. fetch follows a redirect without
showing it, so the POST/redirect/GET answer of a form that did its write would look like any
page, a Wi-Fi portal's included. For those requests only:

- a redirect to the sign-in page becomes 401 with `X-Refused: sign-in` (nothing was done);
- any other redirect after the POST (the write was done) becomes 200 with `X-Record: done` and
  `X-Location` (where the page goes next);
- a 403 that does not say why gets `X-Refused`: `sign-in` when nobody is signed in, else
  `forbidden` (web.views.permission_denied and csrf_failure set it themselves).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url

HEADER = "X-Outbox"


class OutboxAnswerMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method != "POST" or not request.headers.get(HEADER):
            return response
        if response.status_code == 403 and "X-Refused" not in response:
            user = getattr(request, "user", None)
            response["X-Refused"] = "forbidden" if user is not None and user.is_authenticated else "sign-in"
            return response
        if response.status_code not in (301, 302, 303, 307, 308):
            return response
        location = response.get("Location", "")
        if location.split("?")[0].endswith(str(resolve_url(settings.LOGIN_URL))):
            answer = HttpResponse("Not signed in: sign in again to send it.", status=401,
                                  content_type="text/plain; charset=utf-8")
            answer["X-Refused"] = "sign-in"
            return answer
        answer = HttpResponse("Done.", status=200, content_type="text/plain; charset=utf-8")
        answer["X-Record"] = "done"
        answer["X-Location"] = location
        for name, value in response.items():  # the session's and messages' cookies go along
            if name.lower() not in ("location", "content-type", "content-length"):
                answer[name] = value
        answer.cookies = response.cookies
        return answer
