"""Pages that belong to no single app: the home page, the sign-in form, the web app manifest."""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.defaults import bad_request as default_bad_request
from django.views.defaults import server_error as default_server_error

from config import sign_in_guard
from tournament.models import Tournament
from web.page_text import TextRefusalFormMixin, shows_text_refusals


class SignInForm(TextRefusalFormMixin, AuthenticationForm):
    """Django's sign-in form; text that cannot be stored is refused next to its field, and then
    no sign-in is tried (nor counted as a failed one)."""


class SignInView(LoginView):
    """Django's sign-in; `sign_in` puts config.sign_in_guard in front of it."""

    form_class = SignInForm

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        if _wants_json(self.request):  # signed in on the page, in place (static/js/outbox.js)
            return session_answer(self.request)
        return response

    def form_invalid(self, form: Any) -> HttpResponse:
        if _wants_json(self.request):
            words = [str(e) for errors in form.errors.values() for e in errors]
            return JsonResponse({"signed_in": False, "error": " ".join(words)}, status=400)
        return super().form_invalid(form)


def _wants_json(request: HttpRequest) -> bool:
    """A sign-in sent by a page's script (in place, keeping the page) asks for JSON."""
    return request.headers.get("Accept", "").startswith("application/json")


def session_answer(request: HttpRequest, status: int = 200) -> JsonResponse:
    """Who this browser is signed in as, and a CSRF token good for its next write."""
    user = request.user
    body = {
        "signed_in": bool(user.is_authenticated),
        "username": user.get_username() if user.is_authenticated else "",
        "csrf_token": get_token(request),
    }
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


@never_cache
def session_state(request: HttpRequest) -> HttpResponse:
    """`GET /accounts/session/`: a phone's outbox asks before sending again after a 403: still
    signed in? and a fresh CSRF token (the old one goes stale when the judge signs in again in
    another tab, or the server changed)."""
    return session_answer(request)


#: Every door that checks a password goes through the guard: an attempt that must wait gets
#: 429 saying how long and why (the password is not checked).
sign_in = shows_text_refusals(sign_in_guard.guarded(SignInView.as_view()))
admin_sign_in = sign_in_guard.guarded(admin.site.login)


def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest (`/manifest.webmanifest`): a judge adds the platform (the table page
    they are on) to a phone's home screen, with our icons, and it opens without the browser's bars."""
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
        for size in (192, 512)
    ]
    body = {
        "name": _("Dune tournaments"),
        "short_name": _("Dune"),
        "description": _("Seating, table judging, clocks and standings for Dune tournaments."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fffdf8",
        "theme_color": "#1a1410",
        "icons": icons,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    """`/favicon.ico`, asked for by browsers that do not read the page's icon link."""
    return redirect(static("icons/icon-32.png"), permanent=True)


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.order_by("-created_at")[:20]
    context: dict[str, Any] = {"tournaments": tournaments}
    return render(request, "home.html", context)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON for API clients (the schema promises JSON), a page for people."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return render(request, "404.html", {"path": request.path}, status=404)


#: `X-Refused`: why a write was refused before any command saw it, for a page's outbox to act
#: on (sign in again in place, fetch a fresh token, or keep the action for a head judge).
REFUSED_HEADER = "X-Refused"


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """403: the reason in words, and whether signing in would help (`X-Refused: sign-in`) or
    this account may not do it (`X-Refused: forbidden`)."""
    signed_in = bool(getattr(request, "user", None) and request.user.is_authenticated)
    message = str(exception or "") or "You may not do this."
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message}, status=403)
    else:
        context = {"message": message, "signed_in": signed_in, "path": request.get_full_path()}
        response = render(request, "403.html", context, status=403)
    response[REFUSED_HEADER] = "forbidden" if signed_in else "sign-in"
    return response


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403 for a form whose security token is out of date (`X-Refused: csrf`): the judge signed
    in again elsewhere, or the server started with a new key. Nothing was done."""
    context = {
        "message": "This form's security token is out of date (a sign-in in another tab, or the server was "
        "restarted): nothing was done. Reload the page and send it again.",
        "signed_in": bool(getattr(request, "user", None) and request.user.is_authenticated),
        "path": request.get_full_path(),
    }
    response = render(request, "403.html", context, status=403)
    response[REFUSED_HEADER] = "csrf"
    return response


def upload_limit_words() -> str:
    """The upload limit (DATA_UPLOAD_MAX_MEMORY_SIZE) as a person reads it: "2.5 MB"."""
    size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    return f"{size / 1024 / 1024:.3g} MB ({size} bytes)"


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400, and 413 for a body over the upload limit: JSON naming the limit for API clients."""
    if isinstance(exception, RequestDataTooBig):
        message = f"the request body is larger than the upload limit of {upload_limit_words()}"
        if request.path.startswith("/api/"):
            body = {
                "detail": message,
                "message": message,
                "rule": "upload limit",
                "field": "body",
                "player": None,
            }
            return JsonResponse(body, status=413)
        return HttpResponse(
            f"{message[0].upper()}{message[1:]}.", status=413, content_type="text/plain; charset=utf-8"
        )
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Bad request."}, status=400)
    return default_bad_request(request, exception or Exception())


#: Seconds a client waits before trying again after the database connection was lost.
RETRY_AFTER_LOST_CONNECTION = 2


def lost_connection(exception: BaseException | None) -> bool:
    """The request failed because the database connection ended under it (the server was
    restarted or failed over, or an administrator ended the session): the next request
    reconnects, so the client should simply try again."""
    if not isinstance(exception, OperationalError | InterfaceError):
        return False
    return connection.connection is None or bool(connection.errors_occurred) or not connection.is_usable()


def server_error(request: HttpRequest) -> HttpResponse:
    """500: never expected; JSON for API clients, a plain page for people (no template context).

    A database connection lost in the middle of the request is 503 instead, with Retry-After:
    nothing was written (its transaction ended with it) and the next try reconnects."""
    if lost_connection(sys.exc_info()[1]):
        message = "the database connection was lost during this request; nothing was saved, try again"
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                {"detail": message, "message": message, "rule": "", "field": None, "player": None}, status=503
            )
        else:
            response = HttpResponse(f"{message[0].upper()}{message[1:]}.", status=503,
                                    content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(RETRY_AFTER_LOST_CONNECTION)
        return response
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Server error: the failure was logged."}, status=500)
    return default_server_error(request)
