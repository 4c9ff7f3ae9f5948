"""Every page, sheet and export of a tournament shows its times in the tournament's own zone.

The middleware finds the tournament a request is about from the URL it matched
(`tournaments/<pk>/`, `rounds/<pk>/`, `tables/<pk>/`, `players/<pk>/`) and activates that
tournament's zone for the request (Django's `|date` and `|time` filters, form input and
`timezone.localtime` follow it), deactivating it afterwards. The API answers ISO 8601 moments
with their offset and needs no zone. The zone is read from the database only when a time is
actually shown (a page without times costs no query); the context processor names it.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import lazy

from tournament.models import Tournament
from tournament.time_zones import zone_label

#: URL route prefixes and how each finds its tournament.
_BY_ROUTE: tuple[tuple[str, str, Callable[[int], QuerySet[Tournament]]], ...] = (
    ("tournaments/<int:pk>/", "pk", lambda pk: Tournament.objects.filter(pk=pk)),
    ("rounds/<int:pk>/", "pk", lambda pk: Tournament.objects.filter(rounds=pk)),
    ("tables/<int:pk>/", "pk", lambda pk: Tournament.objects.filter(rounds__tables=pk)),
    ("players/<int:pk>/", "pk", lambda pk: Tournament.objects.filter(players=pk)),
    ("check-in/<int:player_pk>/", "player_pk", lambda pk: Tournament.objects.filter(players=pk)),
)


def tournament_of(route: str, kwargs: dict[str, Any]) -> Callable[[], QuerySet[Tournament]] | None:
    """The tournament a matched page route is about, as a query to build when needed (None: no
    tournament)."""
    for prefix, key, lookup in _BY_ROUTE:
        if route.startswith(prefix) and isinstance(kwargs.get(key), int):
            pk = kwargs[key]
            return lambda: lookup(pk)
    return None


class TournamentZone(tzinfo):
    """The zone of one tournament, read from the database the first time a time is converted."""

    def __init__(self, tournament: Callable[[], QuerySet[Tournament]]) -> None:
        # The query is built only when a time is converted: most answers (a poll, an API
        # call) convert none, and building it costs more than the rest of a 304.
        self._query: Callable[[], QuerySet[Tournament]] | None = tournament
        self._zone: zoneinfo.ZoneInfo | None = None

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        if self._zone is None:
            name = self._query().values_list("time_zone", flat=True).first() if self._query is not None else None
            try:
                self._zone = zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # a zone retired since it was stored
                self._zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
            self._query = None
        return self._zone

    @property
    def key(self) -> str:
        return str(self.zone.key)

    def __str__(self) -> str:
        return self.key

    def _in_zone(self, dt: datetime | None) -> datetime | None:
        return dt.replace(tzinfo=self.zone) if dt is not None else None

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        return self.zone.utcoffset(self._in_zone(dt))

    def dst(self, dt: datetime | None) -> timedelta | None:
        return self.zone.dst(self._in_zone(dt))

    def tzname(self, dt: datetime | None) -> str | None:
        return self.zone.tzname(self._in_zone(dt))

    def fromutc(self, dt: datetime) -> datetime:
        return self.zone.fromutc(dt.replace(tzinfo=self.zone)).replace(tzinfo=self)


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
        query = tournament_of(match.route, view_kwargs) if match is not None else None
        if query is not None:
            timezone.activate(TournamentZone(query))


def _zone_name() -> str:
    return str(getattr(timezone.get_current_timezone(), "key", None) or settings.TIME_ZONE)


def time_zone(request: HttpRequest) -> dict[str, Any]:
    """`time_zone`: the IANA name of the zone the page's times are in; `time_zone_label`: in
    words. Both are read only if the page shows them."""
    return {
        "time_zone": lazy(_zone_name, str)(),
        "time_zone_label": lazy(lambda: zone_label(_zone_name()), str)(),
    }
