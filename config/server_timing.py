"""The CPU a request cost this web process, told in a `Server-Timing` header when asked for.

With `SERVER_TIMING` on (the benchmarks turn it on; it is off by default, since it tells anyone
how long the server worked), every answer carries `Server-Timing: cpu;dur=<ms>`: the CPU time
the thread that served the request used, from the first middleware to the last. A gthread
worker serves one request per thread at a time, so the thread's CPU clock is that request's.
The database server's own CPU is not in it (another process).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse


class ServerTimingMiddleware:
    """Put first in MIDDLEWARE so the figure covers every other middleware too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not getattr(settings, "SERVER_TIMING", False):
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.thread_time()
        response = self.get_response(request)
        spent = (time.thread_time() - started) * 1000
        response["Server-Timing"] = f"cpu;dur={spent:.2f}"
        return response
