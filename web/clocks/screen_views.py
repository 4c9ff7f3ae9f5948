"""The room screen: `/tournaments/{id}/screen/`, a full-screen page for a projector or TV.

It cycles through the current round's seating, its clocks and the standings (static/js/
screen.js), in large type and high contrast, and keeps itself up to date as one live region
(web.live: polled, 304 while nothing changed, the rendered HTML shared by every screen).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import translation

from clocks.presenters import clock_views, round_timer
from clocks.services import db_now
from scoring import services as scoring
from scoring.player_states import player_states
from scoring.presenters import points_words
from tournament.models import Player, Round, Tournament
from tournament.presenters import round_label, tables_for_page
from web.live import etag_for, live_attrs, live_fragment, round_version, tournament_version

#: Standings rows on one panel of the screen: what a hall can read from the back. Longer
#: standings take several panels, the screen cycling through all of them.
SCREEN_ROWS = 20
#: Seconds each panel stays up before the next one.
CYCLE_SECONDS = 12


def current_round(tournament: Tournament) -> Round | None:
    """The round being played (the latest published one), else the latest seated one."""
    rounds = tournament.rounds.order_by("-number")
    return rounds.filter(state=Round.State.PUBLISHED).first() or rounds.filter(tables__isnull=False).first()


def _context(tournament: Tournament, etag: str, url: str) -> dict[str, Any]:
    round_ = current_round(tournament)
    tables = tables_for_page(round_) if round_ is not None and round_.state != Round.State.PLANNED else []
    now = db_now()
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    result = scoring.scoring_for(tournament)
    provisional = scoring.standings_provisional(tournament)
    states = player_states(tournament, scoring=result, provisional=provisional)
    last_finalist = result.finalists.finalists[-1] if result.finalists.finalists else None
    rows = [
        {
            "rank": row.rank,
            "tied": row.tied,
            "name": names.get(row.player, ""),
            "points": points_words(row.points),
            "top": row.player in states and (states[row.player].in_final or states[row.player].top),
            "note": states[row.player].note if row.player in states else "",
            "cut_after": row.player == last_finalist,
        }
        for row in result.standings
    ]
    total = len(rows)
    pages = [
        {"first": start + 1, "last": min(start + SCREEN_ROWS, total), "rows": rows[start : start + SCREEN_ROWS]}
        for start in range(0, total, SCREEN_ROWS)
    ]
    return {
        "tournament": tournament,
        "round": round_,
        "label": round_label(round_) if round_ else "",
        "tables": tables,
        "clocks": clock_views([t["table"] for t in tables], now=now),
        "server_now": now,
        "provisional": provisional,
        "seats": tournament.rules.finalist_seats,
        "standings_pages": pages,
        "standings_total": total,
        "cut_name": names.get(last_finalist, "") if last_finalist is not None else "",
        # Once the final's report is filed (WBC Final Round Format placings): the champion.
        "champions": [names.get(p.player, "") for p in result.placings if p.place == 1],
        "cycle": CYCLE_SECONDS,
        **live_attrs(url, etag),
    }


def room_screen(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    url = request.get_full_path()
    name = f"screen:{tournament.pk}"
    version = tournament_version(tournament)
    # The room reads the screen in the tournament's language, whatever the projector's browser says.
    with translation.override(tournament.language):
        if request.htmx:
            return live_fragment(
                request,
                name=name,
                version=version,
                render=lambda etag: render_to_string("clocks/_screen_live.html", _context(tournament, etag, url)),
            )
        return render(request, "clocks/screen.html", _context(tournament, etag_for(name, version), url))


def round_timer_screen(request: HttpRequest, pk: int) -> HttpResponse:
    """`/rounds/{id}/timer/`: a projector's one big countdown to the round's time up, with the
    moment it ends on the wall clock in the tournament's zone (`clocks.presenters.round_timer`)."""
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    url = request.get_full_path()
    name = f"timer:{round_.pk}"
    version = round_version(round_)

    def context(etag: str) -> dict[str, Any]:
        now = db_now()
        return {
            "round": round_,
            "tournament": round_.tournament,
            "label": round_label(round_),
            "timer": round_timer(round_, now=now),
            "server_now": now,
            **live_attrs(url, etag),
        }

    if request.htmx:
        return live_fragment(
            request, name=name, version=version,
            render=lambda etag: render_to_string("clocks/_timer_live.html", context(etag), request=request),
        )
    return render(request, "clocks/timer.html", context(etag_for(name, version)))
