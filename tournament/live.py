"""Pages that update themselves: one helper for every live fragment.

Why polling and not server-sent events: a tournament hall has hundreds of phones on one
Wi-Fi and a web server of a few synchronous workers; an open SSE stream holds a worker per
phone, while a poll holds one for a few milliseconds. So a live region asks again every few
seconds (htmx `hx-trigger="every Ns"`; static/js/live.js skips the request while the tab is
hidden) and sends the ETag it has in If-None-Match. The server answers an unchanged fragment
with 304 before rendering anything: the ETag is a hash of a cheap version string (a few
aggregate queries), and the rendered HTML of a version is cached, so 300 phones asking for
the same standings cost one render.

Only public fragments go through here: the cached HTML is the same for everyone (no CSRF
token, no user name).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, Q
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers

from tournament.models import Round, SeatingAudit, Tournament

#: How long a rendered fragment of one version stays cached (a new version makes a new key).
FRAGMENT_SECONDS = 600


def poll_seconds() -> int:
    """Seconds between two polls of a live region (LIVE_POLL_SECONDS; short in browser tests)."""
    return int(getattr(settings, "LIVE_POLL_SECONDS", 10))


def etag_for(name: str, version: Iterable[Any]) -> str:
    digest = hashlib.sha256(f"{name}|{'|'.join(str(v) for v in version)}".encode()).hexdigest()[:24]
    return f'"{digest}"'


def live_fragment(
    request: HttpRequest,
    *,
    name: str,
    version: Iterable[Any],
    render: Callable[[str], str],
    shared: bool = True,
) -> HttpResponse:
    """Answer a live region's poll: 304 when the client has this version, else its HTML.

    `version` must change whenever what `render` shows changes; `render(etag)` gets the ETag
    so the fragment can carry it (`data-etag`) for the next poll's If-None-Match. A fragment
    that is not the same for everyone (`shared=False`: forms with a CSRF token) is rendered
    for each request that changed, never cached.
    """
    if not shared:
        name = f"{name}:user{getattr(request.user, 'pk', None)}"
    etag = etag_for(name, version)
    sent = [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]
    if etag in sent:
        response: HttpResponse = HttpResponseNotModified()
    else:
        # The ETag already hashes the name and version: a safe cache key for any backend.
        key = f"live:{etag.strip(chr(34))}"
        html = cache.get(key) if shared else None
        if not isinstance(html, str):
            html = render(etag)
            if shared:
                cache.set(key, html, FRAGMENT_SECONDS)
        response = HttpResponse(html)
    response["ETag"] = etag
    # Always revalidate: a stale fragment must never be shown from a cache without asking.
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["HX-Request"])
    return response


def live_attrs(url: str, etag: str) -> dict[str, Any]:
    """Template context for a live region's root element (see templates/_live_attrs.html)."""
    return {"live_url": url, "etag": etag, "poll": poll_seconds()}


def round_version(round_: Round) -> tuple[Any, ...]:
    """What changes the public view of a round: its state, any seating change, a report filed
    or reopened, a clock started, paused, resumed or moved to another stage."""
    tables = round_.tables.aggregate(
        reported=Count("id", filter=Q(report_filed_at__isnull=False)),
        filed_last=Max("report_filed_at"),
        clocks=Max("clock__updated_at"),
        judges=Max("judge_id"),
    )
    audit = SeatingAudit.objects.filter(round=round_).aggregate(last=Max("id"))["last"]
    return (round_.pk, round_.state, audit, *(tables[k] for k in sorted(tables)))


def tournament_version(tournament: Tournament) -> tuple[Any, ...]:
    """What changes a tournament's public pages (standings, room screen): any round's state,
    seating, reports or clocks, and the players (two queries)."""
    rounds = tuple(
        tournament.rounds.order_by("number")
        .values_list("pk", "state")
        .annotate(
            audit=Max("seating_audit__id"),
            reported=Count("tables", filter=Q(tables__report_filed_at__isnull=False), distinct=True),
            filed_last=Max("tables__report_filed_at"),
            clocks=Max("tables__clock__updated_at"),
        )
    )
    players = tournament.players.aggregate(n=Count("id"), last=Max("id"), edited=Max("changes__id"))
    return (rounds, tuple(sorted(players.items())))
