"""Compression of the pages people load over venue Wi-Fi."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

#: HTML pages and fragments, and the scripts' words (the JavaScript catalogue, /jsi18n/<lang>/,
#: 18 KB in Spanish as written, under a third of that compressed); static files come compressed already.
COMPRESSED = ("text/html", "text/javascript")


class HtmlGZipMiddleware(GZipMiddleware):
    """gzip for HTML pages and fragments and the JavaScript catalogue only (a table page action
    on slow 3G stays small).

    API answers are small JSON read by programs; they are left as they are, so every API client
    reads them without having to decompress. Django's gzip pads each compressed response with
    random bytes against BREACH-style guessing of the CSRF token.
    """

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not response.get("Content-Type", "").startswith(COMPRESSED):
            return response
        return super().process_response(request, response)
