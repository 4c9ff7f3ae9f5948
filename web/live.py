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

import functools
import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe

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
        response = HttpResponse(shared_fragment(name, version, render) if shared else render(etag))
    response["ETag"] = etag
    # Always revalidate: a stale fragment must never be shown from a cache without asking.
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["HX-Request"])
    return response


def shared_fragment(name: str, version: Iterable[Any], render: Callable[[str], str]) -> str:
    """The HTML of a public fragment at `version`, rendered once per version (a page's first
    visit includes the same cached HTML a poll answers with). Marked safe: it is our template's
    output."""
    etag = etag_for(name, version)
    # The ETag already hashes the name and version: a safe cache key for any backend.
    key = f"live:{etag.strip(chr(34))}"
    html = cache.get(key)
    if not isinstance(html, str):
        html = render(etag)
        cache.set(key, html, FRAGMENT_SECONDS)
    return mark_safe(html)  # noqa: S308 - rendered by our own template, escaped there


def live_attrs(url: str, etag: str) -> dict[str, Any]:
    """Template context for a live region's root element (see templates/_live_attrs.html)."""
    return {"live_url": url, "etag": etag, "poll": poll_seconds()}


@functools.cache
def _tables() -> dict[str, str]:
    """The database names the fingerprints read, from the models' own metadata (the table
    clock is reached through the table's `clock` relation, as the ORM would)."""
    table = Round._meta.get_field("tables").related_model
    clock = table._meta.get_field("clock").related_model
    player = Tournament._meta.get_field("players").related_model
    change = player._meta.get_field("changes").related_model
    return {
        "round": Round._meta.db_table,
        "table": table._meta.db_table,
        "clock": clock._meta.db_table,
        "audit": SeatingAudit._meta.db_table,
        "player": player._meta.db_table,
        "change": change._meta.db_table,
    }


# One query each, written out: a poll answered 304 is the most frequent request of an event
# day, and building the same aggregate through the ORM cost more CPU than running it.
_ROUND_SQL = """
SELECT r.id, r.state, r.tournament_id,
       (SELECT MAX(a.id) FROM {audit} a WHERE a.round_id = r.id),
       MAX(c.updated_at), MAX(t.report_filed_at), MAX(t.judge_id),
       COUNT(t.id) FILTER (WHERE t.report_filed_at IS NOT NULL),
       MAX(t.game_started_at), MAX(t.clock_started_at)
  FROM {round} r
  LEFT JOIN {table} t ON t.round_id = r.id
  LEFT JOIN {clock} c ON c.table_id = t.id
 WHERE r.id = %s
 GROUP BY r.id
"""

_TOURNAMENT_SQL = """
SELECT r.id, r.state,
       (SELECT MAX(a.id) FROM {audit} a WHERE a.round_id = r.id),
       (SELECT COUNT(*) FROM {table} t WHERE t.round_id = r.id AND t.report_filed_at IS NOT NULL),
       (SELECT MAX(t.report_filed_at) FROM {table} t WHERE t.round_id = r.id),
       (SELECT MAX(c.updated_at) FROM {table} t JOIN {clock} c ON c.table_id = t.id WHERE t.round_id = r.id),
       (SELECT MAX(t.game_started_at) FROM {table} t WHERE t.round_id = r.id),
       (SELECT MAX(t.clock_started_at) FROM {table} t WHERE t.round_id = r.id)
  FROM {round} r
 WHERE r.tournament_id = %s
 ORDER BY r.number
"""

_PLAYERS_SQL = """
SELECT COUNT(p.id), MAX(p.id), (SELECT MAX(ch.id) FROM {change} ch JOIN {player} q ON q.id = ch.player_id
                                 WHERE q.tournament_id = %s)
  FROM {player} p
 WHERE p.tournament_id = %s
"""


def round_facts(round_pk: int) -> tuple[int, str, tuple[Any, ...]] | None:
    """(tournament id, state, version) of a round in one query; None if there is no such round.

    The version changes whenever the public view of the round does: its state, any seating
    change, a report filed or reopened, a clock started, paused, resumed or moved to another
    stage, a table judge assigned."""
    with connection.cursor() as cursor:
        cursor.execute(_ROUND_SQL.format(**_tables()), [round_pk])
        row = cursor.fetchone()
    if row is None:
        return None
    # A game begun or a clock started makes a published round "running" (round_state).
    pk, state, tournament_pk, audit, clocks, filed_last, judges, reported, begun, started = row
    return tournament_pk, state, (pk, state, audit, clocks, filed_last, judges, reported, begun, started)


def round_version(round_: Round) -> tuple[Any, ...]:
    """What changes the public view of a round (`round_facts`)."""
    facts = round_facts(round_.pk)
    return facts[2] if facts is not None else (round_.pk, round_.state)


def tournament_version(tournament: Tournament | int) -> tuple[Any, ...]:
    """What changes a tournament's public pages (standings, room screen): any round's state,
    seating, reports or clocks, and the players (two queries)."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    names = _tables()
    with connection.cursor() as cursor:
        cursor.execute(_TOURNAMENT_SQL.format(**names), [pk])
        rounds = tuple(tuple(row) for row in cursor.fetchall())
        cursor.execute(_PLAYERS_SQL.format(**names), [pk, pk])
        players = tuple(cursor.fetchone())
    return (rounds, players)
