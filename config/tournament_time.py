"""Every page, sheet and export of a tournament shows its times in the tournament's own zone.

The middleware finds the tournament a request is about from the URL it matched
(`tournaments/<pk>/`, `rounds/<pk>/`, `tables/<pk>/`, `players/<pk>/`); the API answers
ISO 8601 moments with their offset and needs no zone,
activates that tournament's zone for the request (Django's `|date` and `|time` filters, form
input and `timezone.localtime` follow it) and deactivates it afterwards. The context processor
names the zone, so a page that shows a time can say which zone it is in.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from tournament.models import Tournament
from tournament.time_zones import zone_label

#: URL route prefixes (after an optional "api/") and how each finds its tournament.
_BY_ROUTE: tuple[tuple[str, Callable[[int], QuerySet[Tournament]]], ...] = (
    ("tournaments/<int:pk>/", lambda pk: Tournament.objects.filter(pk=pk)),
    ("rounds/<int:pk>/", lambda pk: Tournament.objects.filter(rounds=pk)),
    ("tables/<int:pk>/", lambda pk: Tournament.objects.filter(rounds__tables=pk)),
    ("players/<int:pk>/", lambda pk: Tournament.objects.filter(players=pk)),
    ("check-in/<int:player_pk>/", lambda pk: Tournament.objects.filter(players=pk)),
)


def tournament_zone(route: str, kwargs: dict[str, Any]) -> str | None:
    """The time zone of the tournament a matched URL route is about (None if it is about none)."""
    if route.startswith("api/"):  # the API answers ISO 8601 moments with their offset
        return None
    for prefix, lookup in _BY_ROUTE:
        if route.startswith(prefix):
            pk = kwargs.get("player_pk") if prefix.startswith("check-in") else kwargs.get("pk")
            if isinstance(pk, int):
                return lookup(pk).values_list("time_zone", flat=True).first()
    return None


class TournamentTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: dict[str, Any]
    ) -> None:
        match = request.resolver_match
        name = tournament_zone(match.route, view_kwargs) if match is not None else None
        if name:
            try:
                timezone.activate(zoneinfo.ZoneInfo(name))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # a zone retired since it was stored
                name = None
        request.tournament_time_zone = name or settings.TIME_ZONE  # type: ignore[attr-defined]


def time_zone(request: HttpRequest) -> dict[str, str]:
    """`time_zone`: the IANA name of the zone the page's times are in; `time_zone_label`: in words."""
    name = getattr(request, "tournament_time_zone", None) or timezone.get_current_timezone_name()
    return {"time_zone": name, "time_zone_label": zone_label(name)}
