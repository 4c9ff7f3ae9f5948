"""Pages that belong to no single app: the home page and the sign-in form."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.defaults import bad_request as default_bad_request
from django.views.defaults import server_error as default_server_error

from config import sign_in_guard
from tournament.models import Tournament
from tournament.page_text import TextRefusalFormMixin, shows_text_refusals


class SignInForm(TextRefusalFormMixin, AuthenticationForm):
    """Django's sign-in form; text that cannot be stored is refused next to its field, and then
    no sign-in is tried (nor counted as a failed one)."""


class SignInView(LoginView):
    """Django's sign-in; `sign_in` puts config.sign_in_guard in front of it."""

    form_class = SignInForm


#: Every door that checks a password goes through the guard: an attempt that must wait gets
#: 429 saying how long and why (the password is not checked).
sign_in = shows_text_refusals(sign_in_guard.guarded(SignInView.as_view()))
admin_sign_in = sign_in_guard.guarded(admin.site.login)


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.order_by("-created_at")[:20]
    context: dict[str, Any] = {"tournaments": tournaments}
    return render(request, "home.html", context)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON for API clients (the schema promises JSON), a page for people."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return render(request, "404.html", {"path": request.path}, status=404)


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


def server_error(request: HttpRequest) -> HttpResponse:
    """500: never expected; JSON for API clients, a plain page for people (no template context)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Server error: the failure was logged."}, status=500)
    return default_server_error(request)
