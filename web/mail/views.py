"""The stop link of every message (`/mail/stop/{token}/`): the page asks, a post stops.

A GET changes nothing (mail scanners open links to check them); the button posts. A token this
installation never made is refused in words (404), and nothing changes.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from mail import outbox


@require_http_methods(["GET", "POST"])
def stop(request: HttpRequest, token: str) -> HttpResponse:
    key = outbox.key_of_token(token)
    if key is None:
        return render(request, "mail/stop.html", {"unknown": True}, status=404)
    if request.method == "POST":
        outbox.stop(token)
        return render(request, "mail/stop.html", {"address": key, "stopped": True})
    return render(request, "mail/stop.html", {"address": key, "stopped": outbox.is_stopped(key)})
