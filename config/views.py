"""Pages that belong to no single app: the home page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    from tournament.models import Tournament

    tournaments = Tournament.objects.order_by("-created_at")[:20]
    context: dict[str, Any] = {"tournaments": tournaments}
    return render(request, "home.html", context)
