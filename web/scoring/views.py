"""Public scoring pages: standings (with the finals cut line), a player's games, a filed
report, the WBC best-faction leaderboard, and CSV exports."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy
from django.views.decorators.http import require_http_methods

from clocks.models import TableClock
from clocks.presenters import clock_view
from clocks.services import db_now
from dune.csv_export import csv_writer
from dune.engine.ids import ResultKind
from dune.engine.names import faction_name
from dune.engine.results import ENDING_WORDS, kind_words
from dune.points.numbers import fmt
from dune.refusals import Refusal
from dune.text_rules import name_matches, text_problem, whole_number
from foundation.core_words import core_word
from scoring import commands, corrections, services
from scoring.adapters import table_result
from scoring.models import GameReport, ReportEntry
from scoring.player_states import player_states
from scoring.presenters import explanation_words, number, points_words, system_description, tiebreak_columns
from tournament.desk import why_not_found
from tournament.models import Player, Table, Tournament
from tournament.permissions import is_head_judge
from tournament.presenters import current_seat, faction_label, round_label
from web.idempotency_api import form_key
from web.live import (
    etag_for,
    live_attrs,
    live_fragment,
    polled,
    shared_fragment,
    shared_page,
    tournament_version,
)
from web.page_text import refuse_unsafe_text, shows_text_refusals, text_refusal
from web.templatetags.table_tags import label

#: Each result kind by its one name (the engine's, without the article): "solo stronghold
#: victory", "solo Fremen special victory", "loss".
SHORT = {kind.value: kind_words(kind) for kind in ResultKind}


def short(kind: str) -> str:
    """A result kind's words in the reader's language; text that is no kind as it is."""
    return core_word(SHORT[kind]) if kind in SHORT else kind


def ending_words(ending: str | None) -> str:
    """How a game ended ("victory", "time limit") in the reader's language; other text as it is."""
    words = ENDING_WORDS.get(ending or "")
    return core_word(words.split(" ", 1)[1]) if words else (ending or "")


def results_summary(results: Any) -> str:
    counts: dict[str, int] = {}
    for kind in results:
        counts[kind.value] = counts.get(kind.value, 0) + 1
    return ", ".join(f"{n}× {short(k)}" if n > 1 else short(k) for k, n in counts.items())


def _names(tournament: Tournament) -> dict[int, str]:
    return dict(Player.objects.filter(tournament=tournament).values_list("id", "name"))


#: Standings rows per page: a big open's page stays light on a phone.
PAGE_SIZE = 200


def _standings_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the standings page shows.

    Long because it lists every name the standings template reads (rows, cut line, labels,
    provisional wording, problems for the head judge).
    """
    scoring = services.scoring_for(tournament)
    system = tournament.rules.points
    names = _names(tournament)
    refused = text_refusal(request, field="find")  # the search box shows it; nothing is searched
    typed = (request.GET.get("find") or "").strip()
    find = "" if refused else typed
    pages = max(1, -(-len(scoring.standings) // PAGE_SIZE))
    asked = whole_number(request.GET.get("page") or "1")
    page = 1 if asked is None else min(max(asked, 1), pages)
    last_finalist = scoring.finalists.finalists[-1] if scoring.finalists.finalists else None
    provisional = services.standings_provisional(tournament)
    # A reopened heat report makes the standings provisional (only then is it looked for).
    reopened = services.reopened_reports(tournament) if provisional else []
    states = player_states(tournament, scoring=scoring, provisional=provisional)

    def status(row: Any) -> dict[str, Any]:
        state = states.get(row.player)
        return {
            "finalist": bool(state and (state.in_final or state.top)),
            "alternate": state.alternate if state else None,
            "state": state,
        }

    # A true tie drawn by lot across the cut is shown in the drawn order, so the cut line
    # separates the finalists from the alternates.
    qualifying = {p: i for i, p in enumerate((*scoring.finalists.finalists, *scoring.finalists.alternates))}
    ordered = sorted(scoring.standings, key=lambda r: qualifying.get(r.player, len(qualifying)))
    matches = []
    if find:
        for index, row in enumerate(ordered):
            name = names.get(row.player, "")
            if name_matches(find, name):
                matches.append(
                    {
                        "row": row,
                        "name": name,
                        "points": fmt(row.points),
                        "points_words": points_words(row.points),
                        "page": index // PAGE_SIZE + 1,
                        **status(row),
                    }
                )
    mine = {m["row"].player for m in matches}
    labels = [core_word(label) for label in scoring.labels]
    # Each tiebreak cell names its value, its column and its player twice (the tap target's label
    # and the explanation's lead): the two sentences are looked up once per page, not per cell.
    tap_words = _("%(value)s: %(label)s of %(name)s, how it is made")
    lead_words = _("%(name)s, %(label)s: %(value)s.")
    rows = []
    for row in ordered[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]:
        name = names.get(row.player, f"#{row.player}")
        cells = [{"label": label, "value": fmt(v), "name": name} for label, v in zip(labels, row.tiebreak, strict=True)]
        rows.append(
            {
                "row": row,
                "name": name,
                "points": fmt(row.points),
                "summary": results_summary(row.results),
                "tiebreak": [cell | {"tap": tap_words % cell, "lead": lead_words % cell} for cell in cells],
                "me": row.player in mine,
                "cut_after": row.player == last_finalist,
                **status(row),
            }
        )
    placings = [
        {
            "place": p.place,
            "tied": p.tied,
            "name": names.get(p.player, p.player),
            "player": p.player,
            "reason": core_word(p.reason),
        }
        for p in scoring.placings
    ]
    return {
            "tournament": tournament,
            "provisional": provisional,
            "reopened": reopened,
            "scoring": scoring,
            "problems": scoring.problems if is_head_judge(request.user, tournament) else (),
            "rows": rows,
            "find": find,
            "typed": typed,
            "find_error": refused.message if refused else "",
            "matches": matches,
            "not_found": (
                why_not_found(tournament.pk, find, is_not="has no filed game yet", are_not="have no filed game yet")
                if find and not matches
                else ""
            ),
            "placings": placings,
            "system": system,
            "tiebreak_columns": tiebreak_columns(tuple(labels)),
            "system_description": system_description(system),
            "seats": system.finalist_seats,
            "page": page,
            "pages": range(1, pages + 1) if pages > 1 else None,
    }


def _standings_poll_name(pk: int, *, find: str, page: str) -> str:
    return f"standings:{pk}:{find}:{page}"


def _standings_poll_etag(request: HttpRequest, pk: int) -> str | None:
    """The ETag of the standings' live region (the same for everyone), or None when the search
    text is refused (the page shows the refusal)."""
    find = request.GET.get("find", "")
    if text_problem(find):
        return None
    name = _standings_poll_name(pk, find=find, page=request.GET.get("page", ""))
    return etag_for(name, tournament_version(pk))


@polled("standings-live", _standings_poll_etag)
@shows_text_refusals
def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings; the table part updates itself (a live region: 304 while unchanged).

    The version is read first (a poll answered 304 reads nothing else); the standings part is
    rendered once per version and shared by polls and first visits."""
    url = request.get_full_path()
    refused = text_refusal(request, field="find")  # the search box shows it; nothing is searched
    find = "" if refused else request.GET.get("find", "")
    name = _standings_poll_name(pk, find=find, page=request.GET.get("page", ""))
    version = tournament_version(pk)
    tournament = SimpleLazyObject(lambda: get_object_or_404(Tournament, pk=pk))

    def fragment(etag: str) -> str:
        context = {**_standings_context(request, tournament), **live_attrs(url, etag)}
        return render_to_string("scoring/_standings_live.html", context)

    if request.htmx:
        return live_fragment(request, name=name, version=version, render=fragment)

    def page() -> HttpResponse:
        judge = is_head_judge(request.user, tournament)
        return render(request, "scoring/standings.html", {
            "tournament": tournament,
            "problems": services.scoring_for(tournament).problems if judge else (),
            "typed": (request.GET.get("find") or "").strip(),
            "find_error": refused.message if refused else "",
            "system": tournament.rules.points,
            "system_description": system_description(tournament.rules.points),
            "live_html": shared_fragment(name, version, fragment),
        })

    # A first visit without a session: the page rendered once per version.
    return shared_page(request, version, page)


def where_now(player: Player) -> dict[str, Any]:
    """The player's table, seat, faction and clock in the round being played now (empty between rounds)."""
    seat = current_seat(player)
    if seat is None:
        return {"current": None}
    now = db_now()
    clock = TableClock.objects.filter(table=seat.table).select_related("table__round__tournament").first()
    return {
        "current": {
            "round": round_label(seat.round),
            "round_pk": seat.round_id,
            "table": seat.table.number,
            "seat": seat.seat,
            "faction": faction_label(seat.faction) if seat.faction else "",
        },
        "c": clock_view(seat.table, clock, now=now),
        "server_now": now,
    }


def player_page(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """A player's page: where they sit now, then their games and standing.

    Long because it gathers the current seat and clock, the games and the standing for one
    template.
    """
    tournament = get_object_or_404(Tournament, pk=pk)
    player = get_object_or_404(Player, pk=player_pk, tournament=tournament)
    scoring = services.scoring_for(tournament)
    system = tournament.rules.points
    standing = next((r for r in scoring.standings if r.player == player.pk), None)
    state = player_states(tournament, scoring=scoring)[player.pk]
    names = _names(tournament)
    entries = (
        ReportEntry.objects.filter(player=player)
        .select_related("report__table__round")
        .order_by("round_number")
    )
    games = []
    for entry in entries:
        report = entry.report
        result = table_result(report)
        scores = system.scores(result)
        mine = result.row(player.pk)
        games.append(
            {
                "report": report,
                "table": report.table,
                "round": report.table.round,
                "row": mine,
                "faction": faction_label(mine.faction) if mine.faction else "",
                "points": points_words(scores[player.pk]),
                "kind": short(mine.result.value),
                "seats": [
                    {
                        "name": names.get(r.player, r.player),
                        "row": r,
                        "faction": faction_label(r.faction) if r.faction else "",
                        "points": fmt(scores[r.player]),
                        "kind": short(r.result.value),
                    }
                    for r in result.rows
                ],
                "counts": report.locked,
            }
        )
    return render(
        request,
        "scoring/player.html",
        {
            "tournament": tournament,
            "player": player,
            "standing": standing,
            "games": games,
            "state": state,
            "explanation": explanation_words(standing.explanation, scoring.labels) if standing else "",
            "provisional": state.provisional,
            "seats": system.finalist_seats,
            "points": points_words(standing.points) if standing else "",
            "tiebreak": (
                [(core_word(label), fmt(v)) for label, v in zip(scoring.labels, standing.tiebreak, strict=True)]
                if standing
                else []
            ),
            **where_now(player),
        },
    )


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def report_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A filed report as everybody sees it; a head judge may reopen it here with a reason."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    report = get_object_or_404(GameReport, table=table)
    tournament = table.round.tournament
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            refuse_unsafe_text(request)
            commands.reopen_report(report, request.POST, actor=request.user, key=form_key(request))
        except Refusal as refused:
            if refused.status == 403:
                raise PermissionDenied(refused.message) from None
            errors = {field: " ".join(msgs) for field, msgs in refused.form_errors("reason").items()}
        else:
            messages.success(request, _("Reopened the report: it no longer counts until it is filed again."))
            return redirect("scoring-report", pk=table.pk)
    system = tournament.rules.points
    result = table_result(report)
    scores = system.scores(result)
    names = _names(tournament)
    rows = [
        {
            "name": names.get(r.player, r.player),
            "row": r,
            "points": fmt(scores[r.player]),
            "kind": short(r.result.value),
            "tokens": fmt(r.tokens),
            "pp": fmt(r.pp),
        }
        for r in result.rows
    ]
    return render(
        request,
        "scoring/report.html",
        {
            "tournament": tournament,
            "table": table,
            "table_words": _("%(tournament)s — %(round)s — table %(number)s")
            % {"tournament": tournament.name, "round": table.round.label, "number": table.number},
            "report": report,
            "rows": rows,
            "result": result,
            "history": _history_rows(corrections.report_history(report), names),
            "judge": is_head_judge(request.user, tournament),
            "errors": errors,
        },
    )


def _change_value(field: str, value: Any, names: dict[int, str]) -> str:
    """One value of a report's field as a person reads it."""
    if value is None:
        return "–"
    if field == "result":
        return label(value)
    if field == "ended_by":
        return label(value)
    if field == "predicted":
        return names.get(value, str(value))
    if field == "alliances":
        return "; ".join(" + ".join(names.get(p, str(p)) for p in group) for group in value) or _("none")
    return str(value)


def _history_rows(entries: list[corrections.HistoryEntry], names: dict[int, str]) -> list[dict[str, Any]]:
    """The report's history with each changed field in words: "Alice: Strongholds 2 → 3"."""
    rows = []
    for entry in entries:
        changes = []
        for change in entry.changes:
            what = str(corrections.FIELD_WORDS.get(change.field, change.field))
            if change.player is not None:
                what = f"{names.get(change.player, change.player)}: {what}"
            changes.append({
                "what": what,
                "field": change.field,
                "player": change.player,
                "before": _change_value(change.field, change.before, names),
                "after": _change_value(change.field, change.after, names),
            })
        rows.append({"entry": entry, "changes": changes})
    return rows


def awards_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    scoring = services.awards_board_for(tournament)
    names = _names(tournament)
    winners = {(a.faction, a.player) for a in scoring.awards}
    board = [
        {
            "faction": faction_name(faction),
            "entries": [
                {
                    "name": names.get(a.player, a.player),
                    "score": fmt(a.score),
                    "pp": fmt(a.pp),
                    "figure": fmt(a.figure),
                    "unit": core_word(a.unit),
                    "turns": a.turns,
                    "players": a.players,
                    "round": a.round_number,
                    "winner": (a.faction, a.player) in winners,
                    "tied": a.tied,
                    "player": a.player,
                }
                for a in entries
            ],
        }
        for faction, entries in scoring.leaderboard.items()
    ]
    return render(
        request,
        "scoring/awards.html",
        {
            "tournament": tournament,
            "board": board,
            "scoring": scoring,
            "measure_how": core_word(tournament.rules.award_measure.how),
            "measure_rule": tournament.rules.rule_of("awards.measure"),
        },
    )


# The CSV downloads are read in a spreadsheet, not imported again: their header row reads in the
# reader's language (the English words are the column names a script may look for).
STANDINGS_HEADERS = (
    pgettext_lazy("CSV column", "rank"),
    pgettext_lazy("CSV column", "tied"),
    pgettext_lazy("CSV column", "player_id"),
    pgettext_lazy("CSV column", "player"),
    pgettext_lazy("CSV column", "points"),
    pgettext_lazy("CSV column", "games"),
    pgettext_lazy("CSV column", "results"),
    pgettext_lazy("CSV column", "disqualified"),
    pgettext_lazy("CSV column", "qualification"),
)


def _yes_no(flag: bool) -> str:
    return pgettext("CSV cell", "yes") if flag else pgettext("CSV cell", "no")


def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    scoring = services.scoring_for(tournament)
    names = _names(tournament)
    states = player_states(tournament, scoring=scoring)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.csv"'
    writer = csv_writer(response)
    writer.writerow([*(str(label) for label in STANDINGS_HEADERS), *scoring.labels])
    for row in scoring.standings:
        state = states.get(row.player)
        status = state.words if state else ""
        writer.writerow(
            [
                row.rank,
                _yes_no(row.tied),
                row.player,
                names.get(row.player, ""),
                number(row.points),
                row.games,
                results_summary(row.results),
                _yes_no(row.disqualified),
                status,
                *(number(v) for v in row.tiebreak),
            ]
        )
    return response


REPORT_HEADERS = (
    pgettext_lazy("CSV column", "round"),
    pgettext_lazy("CSV column", "kind"),
    pgettext_lazy("CSV column", "table"),
    pgettext_lazy("CSV column", "state"),
    pgettext_lazy("CSV column", "version"),
    pgettext_lazy("CSV column", "turns"),
    pgettext_lazy("CSV column", "ended_by"),
    pgettext_lazy("CSV column", "player_id"),
    pgettext_lazy("CSV column", "player"),
    pgettext_lazy("CSV column", "faction"),
    pgettext_lazy("CSV column", "result"),
)
#: A report's figures: the stored key, and its column's header.
REPORT_COLUMNS = (
    ("win_attempts", pgettext_lazy("CSV column", "win_attempts")),
    ("strongholds", pgettext_lazy("CSV column", "strongholds")),
    ("forces", pgettext_lazy("CSV column", "forces")),
    ("tokens", pgettext_lazy("CSV column", "tokens")),
    ("spice", pgettext_lazy("CSV column", "spice")),
    ("cards", pgettext_lazy("CSV column", "cards")),
    ("leaders", pgettext_lazy("CSV column", "leaders")),
    ("pp", pgettext_lazy("CSV column", "pp")),
    ("die", pgettext_lazy("CSV column", "die")),
)


def reports_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    names = _names(tournament)
    reports = (
        GameReport.objects.filter(tournament=tournament)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="reports-{tournament.pk}.csv"'
    writer = csv_writer(response)
    writer.writerow([*(str(label) for label in REPORT_HEADERS), *(str(label) for _key, label in REPORT_COLUMNS)])
    for report in reports:
        data = report.data
        for row in data["results"]:
            writer.writerow(
                [
                    report.table.round.number,
                    report.table.round.get_kind_display(),
                    report.table.number,
                    report.get_state_display(),
                    report.version,
                    data["turns"],
                    ending_words(data["ended_by"]),
                    row["player"],
                    names.get(row["player"], ""),
                    faction_label(row["faction"]) if row.get("faction") else "",
                    short(row["result"]),
                    *(row.get(key, 0) for key, _label in REPORT_COLUMNS),
                ]
            )
    return response
