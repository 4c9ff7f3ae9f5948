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
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournament.models import Round, SeatingAudit, Tournament
from tournament.round_state import RoundState, state_of

#: How long a rendered fragment of one version stays cached (a new version makes a new key).
FRAGMENT_SECONDS = 600
#: How long a request waits for another one rendering the same version before rendering it
#: itself (the other may have died); a render takes tens of milliseconds.
RENDER_WAIT_SECONDS = 2.0
RENDER_WAIT_STEP = 0.02

T = TypeVar("T")


def poll_seconds() -> int:
    """Seconds between two polls of a live region (settings.LIVE_POLL_SECONDS; short in browser tests)."""
    return int(settings.LIVE_POLL_SECONDS)


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
        return not_modified(etag)
    return _revalidated(HttpResponse(shared_fragment(name, version, render) if shared else render(etag)), etag)


def _revalidated(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # Always revalidate: a stale fragment must never be shown from a cache without asking.
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["HX-Request"])
    return response


def not_modified(etag: str) -> HttpResponse:
    """A live region's poll answered "unchanged": no body, the same ETag and headers."""
    return _revalidated(HttpResponseNotModified(), etag)


def shared_fragment(name: str, version: Iterable[Any], render: Callable[[str], str]) -> str:
    """The HTML of a public fragment at `version`, rendered once per version (a page's first
    visit includes the same cached HTML a poll answers with). Marked safe: it is our template's
    output."""
    etag = etag_for(name, version)
    # The ETag already hashes the name and version: a safe cache key for any backend. The
    # reader's language is part of the key: the words differ, the ETag (a poll's, answered
    # before the language is known) does not need to, as each phone holds its own words.
    html = once_per_version(f"live:{etag.strip(chr(34))}:{get_language()}", lambda: render(etag), str)
    return mark_safe(html)  # noqa: S308 - rendered by our own template, escaped there


def once_per_version(key: str, make: Callable[[], T], kind: type) -> T:
    """`make()` cached under `key` (which names a version), made by one request at a time.

    When a version changes, every phone polling the page asks for it within seconds; without
    this each request that missed the cache would render the same version at once, and on a
    busy server each render would slow the others down. The first request takes a short lock
    (`cache.add`) and renders; the others wait for its result, and render themselves only if
    it has not come after RENDER_WAIT_SECONDS (a renderer that died)."""
    found = cache.get(key)
    if isinstance(found, kind):
        return found  # type: ignore[return-value]
    lock = f"{key}:rendering"
    owned = cache.add(lock, 1, int(RENDER_WAIT_SECONDS * 5))
    if not owned:
        deadline = time.monotonic() + RENDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(RENDER_WAIT_STEP)
            found = cache.get(key)
            if isinstance(found, kind):
                return found  # type: ignore[return-value]
    try:
        made = make()
        cache.set(key, made, FRAGMENT_SECONDS)
    finally:
        if owned:
            cache.delete(lock)
    return made


def shared_page(request: HttpRequest, version: Iterable[Any], render: Callable[[], HttpResponse]) -> HttpResponse:
    """A public page's first visit, rendered once per version for every visitor without a
    session (the phones of players who never signed in), who all see the same page; anyone
    signed in, or with a message waiting, gets a page of their own.

    The key is the full path (the search typed is part of the page) and the version the caller
    read from the database in this request, so a cached page is never older than its version.
    Only for pages that show a visitor without a session nothing of their own (no form with a
    CSRF token)."""
    if not _anonymous(request):
        return render()

    def make() -> tuple[int, str, bytes]:
        page = render()
        return page.status_code, page["Content-Type"], page.content

    key = "page:" + etag_for(request.get_full_path(), version).strip('"') + ":" + get_language()
    status, content_type, content = once_per_version(key, make, tuple)
    response = HttpResponse(content, status=status, content_type=content_type)
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


def _anonymous(request: HttpRequest) -> bool:
    """A GET without a session or a message cookie: the page is the same for all such visitors."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
    )


#: The attribute a page view carries when its live region's polls may be answered early.
POLLED = "live_poll"


def polled(target: str, etag: Callable[..., str | None]) -> Callable[[T], T]:
    """Mark a page view whose live region `target` an unchanged poll can be answered for before
    the session, the user and the view are loaded (`UnchangedPollMiddleware`).

    `etag(request, **url_kwargs)` is the ETag the view itself answers that poll with (the view
    calls the same function), or None when the answer depends on who asks; then the poll goes
    the whole way as before."""

    def mark(view: T) -> T:
        setattr(view, POLLED, (target, etag))
        return view

    return mark


class UnchangedPollMiddleware:
    """Answers a live region's poll whose ETag is still current with 304, first thing.

    It is the most frequent request of an event day (every phone, every few seconds), and the
    answer needs only the version (one query): the session, the user, CSRF, messages and the
    view's own set-up would cost more than the answer. Anything else passes through."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sent = request.META.get("HTTP_IF_NONE_MATCH")
        if sent and request.method == "GET" and request.META.get("HTTP_HX_REQUEST") == "true":
            etag = self._current_etag(request)
            if etag is not None and etag in [t.strip() for t in sent.split(",")]:
                return not_modified(etag)
        return self.get_response(request)

    @staticmethod
    def _current_etag(request: HttpRequest) -> str | None:
        polled_view = _polled_view(request.path_info)
        if polled_view is None:
            return None
        target, etag, args, kwargs = polled_view
        if request.META.get("HTTP_HX_TARGET") != target:
            return None
        result: str | None = etag(request, *args, **kwargs)
        return result


@functools.lru_cache(maxsize=4096)
def _polled_view(path: str) -> tuple[str, Callable[..., str | None], tuple[Any, ...], dict[str, Any]] | None:
    """(live target, ETag function, URL arguments) of a polled page's path; None for any other
    path. Kept per path: resolving the URL cost a fifth of an unchanged poll, and a path's
    view never changes while the process runs."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    marked = getattr(match.func, POLLED, None)
    if marked is None:
        return None
    target, etag = marked
    return target, etag, tuple(match.args), dict(match.kwargs)


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
        "tournament": Tournament._meta.db_table,
        "round": Round._meta.db_table,
        "table": table._meta.db_table,
        "clock": clock._meta.db_table,
        "audit": SeatingAudit._meta.db_table,
        "player": player._meta.db_table,
        "change": change._meta.db_table,
    }


# One query each, written out: a poll answered 304 is the most frequent request of an event
# day, and building the same aggregate through the ORM cost more CPU than running it. The SQL
# runs on PostgreSQL and on SQLite (the embedded default and the venue laptop); the two
# differ only in the fragments `_dialect` gives.
#
# A moment that can only move forward (a clock's `updated_at`, a report's `report_filed_at`)
# is summed, not maximised: every write adds to the sum, while a maximum misses a write that
# commits after a later one (two transactions, two tables).
_ROUND_SQL = """
SELECT r.id, r.state, r.tournament_id, r.number, r.kind, r.starts_at,
       tr.name, tr.format, tr.time_zone,
       (SELECT MAX(a.id) FROM {audit} a WHERE a.round_id = r.id),
       (SELECT MAX(ch.id) FROM {change} ch JOIN {player} q ON q.id = ch.player_id
         WHERE q.tournament_id = r.tournament_id),
       COUNT(t.id),
       COUNT(t.id) FILTER (WHERE t.game_started_at IS NOT NULL OR t.clock_started_at IS NOT NULL),
       COUNT(t.id) FILTER (WHERE t.report_filed_at IS NOT NULL),
       SUM({filed_moment}),
       SUM({clock_moment}),
       (SELECT {judges} FROM (SELECT j.id, j.judge_id FROM {table} j WHERE j.round_id = r.id ORDER BY j.id) j)
  FROM {round} r
  JOIN {tournament} tr ON tr.id = r.tournament_id
  LEFT JOIN {table} t ON t.round_id = r.id
  LEFT JOIN {clock} c ON c.table_id = t.id
 WHERE r.id = %s
 GROUP BY r.id, tr.id
"""

_TOURNAMENT_SQL = """
SELECT tr.name, tr.format, tr.time_zone,
       (SELECT COUNT(p.id) || ':' || COALESCE(MAX(p.id), 0) FROM {player} p WHERE p.tournament_id = tr.id),
       (SELECT MAX(ch.id) FROM {change} ch JOIN {player} q ON q.id = ch.player_id WHERE q.tournament_id = tr.id),
       (SELECT {rounds} FROM (
          SELECT r.number, {round_line} AS line FROM {round} r WHERE r.tournament_id = tr.id ORDER BY r.number
       ) x)
  FROM {tournament} tr
 WHERE tr.id = %s
"""

#: What one round contributes to its tournament's version: its stage, seating and tables.
_ROUND_LINE = (
    "r.id", "r.state", "r.number", "r.kind", "r.starts_at",
    "(SELECT MAX(a.id) FROM {audit} a WHERE a.round_id = r.id)",
    "(SELECT COUNT(t.id) FROM {table} t WHERE t.round_id = r.id)",
    "(SELECT COUNT(t.id) FROM {table} t WHERE t.round_id = r.id"
    " AND (t.game_started_at IS NOT NULL OR t.clock_started_at IS NOT NULL))",
    "(SELECT COUNT(t.id) FROM {table} t WHERE t.round_id = r.id AND t.report_filed_at IS NOT NULL)",
    "(SELECT SUM({filed_moment}) FROM {table} t WHERE t.round_id = r.id)",
    "(SELECT SUM({clock_moment}) FROM {table} t JOIN {clock} c ON c.table_id = t.id WHERE t.round_id = r.id)",
)


def _dialect() -> dict[str, str]:
    """The fragments the two databases write differently: a moment as a number of seconds,
    and the values of a column joined in the order of the rows."""
    if connection.vendor == "postgresql":
        moment, joined = "EXTRACT(EPOCH FROM {})", "string_agg({}, ',' ORDER BY {})"
    else:
        moment, joined = "(julianday({}) * 86400.0)", "group_concat({}, ',')"  # rows come ordered
    return {
        "filed_moment": moment.format("t.report_filed_at"),
        "clock_moment": moment.format("c.updated_at"),
        "judges": joined.format("j.id || ':' || COALESCE(j.judge_id, 0)", "j.id"),
        "rounds": joined.format("x.line", "x.number"),
    }


@functools.cache
def _sql() -> tuple[str, str]:
    """The round's and the tournament's version queries, for this process's database."""
    names = {**_tables(), **_dialect()}
    line = " || ':' || ".join(f"COALESCE(CAST({part} AS TEXT), '')" for part in _ROUND_LINE).format(**names)
    return _ROUND_SQL.format(**names), _TOURNAMENT_SQL.format(**names, round_line=line)


@dataclass(frozen=True)
class RoundFacts:
    """What a round's public pages show, read in one query (`round_facts`).

    `version` changes whenever the public view of the round does: the tournament's name, format
    or zone, the round's number, kind, start or stage, any seating change or renamed player, a
    game begun, a clock started, paused, resumed or moved to another stage, a report filed or
    reopened, a table judge assigned. `seating` is the part the tables themselves show (seats,
    names, flags), which play does not change."""

    tournament: int
    stage: str
    version: tuple[Any, ...]
    seating: tuple[Any, ...]
    state: RoundState


def round_facts(round_pk: int) -> RoundFacts | None:
    """The round's facts in one query; None if there is no such round."""
    with connection.cursor() as cursor:
        cursor.execute(_sql()[0], [round_pk])
        row = cursor.fetchone()
    if row is None:
        return None
    stage, tournament_pk = row[1], row[2]
    audit, renamed, tables, started, reported = row[9:14]
    return RoundFacts(
        tournament=tournament_pk,
        stage=stage,
        version=tuple(row),
        seating=(round_pk, audit, renamed, tables),
        state=state_of(stage, tables=tables, started=started, reported=reported),
    )


def round_version(round_: Round) -> tuple[Any, ...]:
    """What changes the public view of a round (`RoundFacts.version`)."""
    facts = round_facts(round_.pk)
    return facts.version if facts is not None else (round_.pk, round_.state)


def tournament_version(tournament: Tournament | int) -> tuple[Any, ...]:
    """What changes a tournament's public pages (standings, room screen): its name, format and
    zone, any round's state, seating, reports or clocks, and the players (one query)."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    with connection.cursor() as cursor:
        cursor.execute(_sql()[1], [pk])
        row = cursor.fetchone()
    return (pk, *row) if row is not None else (pk,)
