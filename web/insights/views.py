"""The event report page (public, printable) and its CSV download."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext

from dune.csv_export import csv_writer
from dune.engine.names import FACTION_NAMES
from dune.event_report.charts import percent
from dune.event_report.figures import EventReport, FactionFigures, two_places
from dune.points.numbers import fmt
from foundation.core_words import core_word
from insights import presenters, services
from tournament.models import Tournament

NAMES = FACTION_NAMES


def _faction_rows(rows: tuple[FactionFigures, ...]) -> list[dict[str, Any]]:
    return [
        {
            "name": NAMES.get(f.faction, f.faction),
            "games": f.games,
            "wins": f.wins,
            "rate": percent(f.wins, f.games),
        }
        for f in rows
    ]


def _context(tournament: Tournament, report: EventReport, charts: Any) -> dict[str, Any]:
    """What the event report page shows.

    Long because it lists every name the event report's template reads.
    """
    names = services.player_names(tournament, report)
    final = report.final
    return {
        "tournament": tournament,
        "report": report,
        "charts": {c.key.replace("-", "_"): {"chart": c, "svg": mark_safe(c.svg)} for c in charts},
        "turns_mean": two_places(report.turns.mean),
        "turns_median": two_places(report.turns.median),
        "hours_mean": two_places(report.hours.mean),
        "hours_median": two_places(report.hours.median),
        "adjudicated_rate": percent(report.adjudicated, report.games),
        "sizes": [
            {
                "size": s.size,
                "games": s.games,
                "turns_mean": two_places(s.turns.mean) or "—",
                "turns_median": two_places(s.turns.median) or "—",
                "hours_mean": two_places(s.hours.mean) or gettext("no clock record"),
                "hours_median": two_places(s.hours.median) or "—",
                "untimed": s.untimed,
            }
            for s in report.by_size
        ],
        "endings": [(presenters.ending_label(e), n) for e, n in report.ended_by],
        "alliances": [(size, n) for size, n in report.alliance_wins],
        "factions_heats": _faction_rows(report.factions_heats),
        "factions_final": _faction_rows(report.factions_final),
        "awards": [
            {
                "faction": NAMES.get(a.faction, a.faction),
                "name": names.get(a.player, f"#{a.player}"),
                "score": fmt(a.score),
                "pp": fmt(a.pp),
                "figure": fmt(a.figure),
                "turns": a.turns,
                "players": a.players,
                "round": a.round_number,
                "tied": a.tied,
            }
            for a in report.awards
        ],
        "awards_unit": core_word(report.awards[0].unit) if report.awards else "PP",
        "awards_how": core_word(report.awards_how),
        "finalists": [
            {
                "name": names.get(f.player, f"#{f.player}"),
                "points": fmt(f.points),
                "tiebreak": presenters.tiebreak_labelled(report, f.tiebreak),
            }
            for f in report.finalists
        ],
        "champion": {
            "players": [str(p) for p in report.champion],
            "names": [names.get(p, f"#{p}") for p in report.champion],
        }
        if report.champion
        else None,
        "placings": [
            {"place": p.place, "tied": p.tied, "player": p.player, "name": names.get(p.player, f"#{p.player}"),
             "reason": core_word(p.reason)}
            for p in report.placings
        ],
        "final": None
        if final is None
        else {
            "table_number": final.table_number,
            "filed": final.filed,
            "seats": [
                {
                    "seat": s.seat,
                    "name": names.get(s.player, f"#{s.player}"),
                    "faction": NAMES.get(s.faction or "", "—"),
                    "result": presenters.result_label(report, s.result) if s.result else "—",
                    "won": s.player in final.winners,
                }
                for s in final.seats
            ],
            "result": ", ".join(presenters.result_label(report, k) for k in final.results),
            "ended_by": presenters.ending_label(final.ended_by),
            "turns": final.turns,
            "hours": two_places(final.hours),
        },
    }


def event_report_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    report, charts = services.report_and_charts(tournament)
    return render(request, "insights/event_report.html", _context(tournament, report, charts))


def event_report_charts_css(request: HttpRequest, pk: int) -> HttpResponse:
    """The charts' stylesheet (pygal's, taken out of the SVG for the Content-Security-Policy)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    _, charts = services.report_and_charts(tournament)
    return HttpResponse("\n".join(c.css for c in charts), content_type="text/css; charset=utf-8")


def event_report_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    report = services.report_for(tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-report-{tournament.pk}.csv"'
    writer = csv_writer(response)
    # Read in a spreadsheet: the header row in the reader's language.
    writer.writerow([pgettext("CSV column", "section"), pgettext("CSV column", "item"), pgettext("CSV column", "value")])
    writer.writerows(presenters.csv_rows(report, services.player_names(tournament, report), NAMES))
    return response
