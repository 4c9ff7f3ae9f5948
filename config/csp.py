"""Content-Security-Policy on every response: scripts, styles and everything else only from
our own origin. No page has an inline script or event handler (their code lives in
static/js/), so a name or reason that slipped past escaping still could not run as script."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


def _policy(style_src: str) -> str:
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            f"style-src {style_src}",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


POLICY = _policy("'self'")
#: The API docs page (Swagger UI, a vendored library) carries a small inline style block.
DOCS_POLICY = _policy("'self' 'unsafe-inline'")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = DOCS_POLICY if request.path.startswith("/api/docs/") else POLICY
        response.headers.setdefault("Content-Security-Policy", policy)
        return response
