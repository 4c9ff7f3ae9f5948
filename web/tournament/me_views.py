"""The player's own event, opened by their private link on a phone without a password:
`/me/{token}/` (the page) and `GET /api/me/{token}/` (its JSON twin, the same facts), with
`POST /api/me/{token}/confirmations/` (confirm or dispute the table's filed result). The head
judge renews or revokes a link: `POST`/`DELETE /api/players/{id}/private-link/` and the buttons
of the player's desk page.

Every fact is read from its one home: the seat now (`tournament.presenters.player_detail_json`),
the table's clock (`clocks.presenters.table_clock_answer`), the standings row
(`scoring.services.standings_for`), the final or alternate (`scoring.player_states`), self
check-in (`tournament.desk.open_round`), the words on filed results (`scoring.confirmations`).
Writes are commands. An unknown or revoked token answers 404 with words; too many requests
from one address answer 429.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clocks.presenters import table_clock_answer
from dune.engine.names import faction_name
from dune.engine.results import ENDING_WORDS, kind_words
from dune.refusals import Refusal
from dune.text_rules import whole_number
from foundation.commands import DOOR_FIELDS, refuse_unknown
from foundation.core_words import core_word
from scoring import commands as scoring_commands
from scoring import confirmations
from scoring.models import GameReport, ReportEntry
from scoring.player_states import player_states
from scoring.presenters import points_words
from scoring.services import standings_for
from tournament import commands, desk, private_links
from tournament.models import CheckIn, Player, Seat
from tournament.presenters import current_seat, player_detail_json, round_label
from tournament.registration_mail import waiting_place
from web.api_fields import body_of
from web.idempotency_api import answered, form_key, key_of
from web.page_helpers import guard, round_or_404

#: How many ranked choices the page's preferences form offers.
PREFERENCE_RANKS = (1, 2, 3)

#: Requests one address may send to private links per window, and the window in seconds.
RATE = 120
WINDOW = 60


def too_many(request: HttpRequest, *, bucket: str = "me", rate: int = RATE) -> bool:
    """Count the request against its address in `bucket`; True past `rate` in the current window."""
    address = request.META.get("REMOTE_ADDR", "")
    name = f"{bucket}-rate:{address}"
    cache = caches["counters"]  # a rate counter, not an answer read from the database
    cache.add(name, 0, timeout=WINDOW)
    try:
        count = cache.incr(name)
    except ValueError:  # expired between add and incr
        cache.set(name, 1, timeout=WINDOW)
        count = 1
    return count > rate


def not_found_words() -> str:
    return _("This private link does not open any event: it is mistyped, or the head judge renewed or "
             "revoked it. Ask at the registration desk for your link.")


def too_many_words() -> str:
    return _("Too many requests from this device; wait a minute and try again.")


def my_results(player: Player) -> list[dict[str, Any]]:
    """The player's filed and reopened games, each with their word on it."""
    words = confirmations.player_words(player)
    rows = []
    seats = (
        Seat.objects.filter(player=player, table__report__isnull=False)
        .select_related("table__round", "table__report")
        .order_by("round__number")
    )
    results = dict(ReportEntry.objects.filter(player=player).values_list("report_id", "result"))
    for seat in seats:
        report = seat.table.report
        word = words.get(seat.table_id)
        filed = report.state == GameReport.State.FILED
        rows.append(
            {
                "table": seat.table_id,
                "number": seat.table.number,
                "round": seat.round_id,
                "round_label": round_label(seat.table.round),
                "seat": seat.seat,
                "result": results.get(report.pk, ""),
                "result_words": core_word(kind_words(results[report.pk])) if results.get(report.pk) else "",
                "filed": filed,
                "version": report.version,
                "may_confirm": filed and seat.table.round.state != "finished",
                "confirmation": (
                    {"agree": word.agree, "reason": word.reason} if word is not None and filed else None
                ),
            }
        )
    return rows


def my_event(player: Player) -> dict[str, Any]:
    """The facts of `GET /api/me/{token}/`, which the page shows too."""
    tournament = player.tournament
    detail = player_detail_json(player)
    seat = current_seat(player)
    state = player_states(tournament).get(player.pk)
    row = next((r for r in standings_for(tournament) if r.player == player.pk), None)
    open_round = desk.open_round(tournament)
    checked = bool(open_round and CheckIn.objects.filter(round=open_round, player=player).exists())
    return {
        "player": {"id": player.pk, "name": player.name, "club": player.club, "status": player.status},
        "tournament": {"id": tournament.pk, "name": tournament.name},
        "current": detail["current"] and {**detail["current"], "round_label": round_label(seat.round) if seat else ""},
        "clock": table_clock_answer(seat.table) if seat is not None else None,
        "standing": (
            {
                "rank": row.rank,
                "tied": row.tied,
                "points": points_words(row.points),
                "games": row.games,
            }
            if row is not None
            else None
        ),
        "state": (
            {
                "key": state.key,
                "words": state.words,
                "in_final": state.in_final,
                "alternate": state.alternate,
            }
            if state is not None
            else None
        ),
        "check_in": {
            "open": open_round is not None,
            "round": open_round.pk if open_round else None,
            "round_label": round_label(open_round) if open_round else "",
            "checked_in": checked,
        },
        "may_withdraw": player.status in (Player.Status.ACTIVE, Player.Status.WAITING),
        "may_check_in": player.status == Player.Status.ACTIVE,
        #: On the waiting list: their place on it (1: the next to move up); else None.
        "waiting_place": waiting_place(player) if player.status == Player.Status.WAITING else None,
        "results": my_results(player),
        "faction_preferences": _preferences(player),
        "self_report": _self_report(seat),
    }


def _self_report(seat: Seat | None) -> dict[str, Any] | None:
    """What the player's report form offers, where they may file their table's report (the
    format lets players report, the table has no judge, its report is not filed): else None."""
    if seat is None or seat.table.judge_id is not None or seat.table.report_filed_at is not None:
        return None
    rules = seat.round.tournament.rules
    if not rules.self_report:
        return None
    seats = seat.table.seats.select_related("player").order_by("seat")
    return {
        "table": seat.table_id,
        "number": seat.table.number,
        "seats": [{"player": s.player_id, "name": s.player.name, "seat": s.seat,
                   "faction": faction_name(s.faction) if s.faction else ""} for s in seats],
        "results": [{"id": k.value, "words": core_word(kind_words(k))} for k in rules.points.table
                    if k not in rules.points.refused],
        "endings": [{"id": k, "words": core_word(words)} for k, words in ENDING_WORDS.items()],
    }


def report_from_form(post: Any, seats: list[int]) -> dict[str, Any]:
    """The game report a player's form sends: the turns, how the game ended, each seat's result."""
    turns = (post.get("turns") or "").strip()
    return {
        "turns": int(turns) if turns.isdigit() else turns,
        "ended_by": post.get("ended_by", ""),
        "results": [{"player": pk, "result": post.get(f"result_{pk}", "")} for pk in seats],
    }


def _preferences(player: Player) -> dict[str, Any] | None:
    """The factions the player may rank and their ranking, where the format asks (else None)."""
    rules = player.tournament.rules
    if not rules.faction_preferences:
        return None
    return {
        "choices": [{"id": f, "name": faction_name(f)} for f in rules.factions],
        "chosen": list(player.faction_preferences),
    }


# --- the page ---------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def me_page(request: HttpRequest, token: str) -> HttpResponse:
    """My event (`/me/{token}/`): the seat, the clock, the standing, check-in, withdrawal and
    the words on filed results; each form posts back here with its `action`."""
    if too_many(request):
        return render(request, "tournament/me.html", {"refused": too_many_words()}, status=429)
    player = private_links.player_for(token)
    if player is None:
        return render(request, "tournament/me.html", {"refused": not_found_words()}, status=404)
    error, error_field, done, typed = "", "", "", {}
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "check_in":
                done = commands.self_check_in(player, token, actor=request.user, key=form_key(request)).message
            elif action == "withdraw":
                refuse_unknown(request.POST, commands.Sure.FIELDS, also=DOOR_FIELDS | {"action"})
                done = commands.withdraw_self(player, request.POST, actor=request.user, key=form_key(request)).message
            elif action == "self_report":
                typed = {"self_report": request.POST.get("table", "")}
                seats = list(Seat.objects.filter(table_id=whole_number(request.POST.get("table", "")) or 0)
                             .order_by("seat").values_list("player_id", flat=True))
                scoring_commands.self_report(player, {"table": request.POST.get("table", ""),
                                                      "report": report_from_form(request.POST, seats)},
                                             actor=request.user, key=form_key(request))
                done = _("Your table's report is filed; the other players confirm or dispute it.")
            elif action == "preferences":
                refuse_unknown(request.POST, commands.Preferences.FIELDS, also=DOOR_FIELDS | {"action"})
                done = commands.set_faction_preferences(player, request.POST, actor=request.user,
                                                        key=form_key(request)).message
            elif action == "confirm":
                typed = {"table": request.POST.get("table", ""), "reason": request.POST.get("reason", "")}
                refuse_unknown(request.POST, scoring_commands.CONFIRM_FIELDS, also=DOOR_FIELDS | {"action"})
                scoring_commands.confirm_result(player, request.POST, actor=request.user, key=form_key(request))
                done = _("Your word on the result is recorded.") if request.POST.get("agree") != "false" else _(
                    "Your dispute is recorded; the head judge will read it. The filed result stands until they decide."
                )
            else:
                error = _("choose what to do")
        except Refusal as refused:
            error, error_field = refused.message, refused.field or ""
        else:
            if not error:
                messages.success(request, done)
                return redirect(request.path)
        player.refresh_from_db()
    return render(
        request,
        "tournament/me.html",
        {
            "event": my_event(player),
            "error": error,
            "error_field": error_field,
            "typed": typed,
            "preference_ranks": PREFERENCE_RANKS,
        },
        status=400 if error else 200,
    )


# --- the API ----------------------------------------------------------------------------------


def _refused_json(words: str, status: int) -> JsonResponse:
    return JsonResponse({"detail": words, "field": "token"}, status=status)


def _as_link_holder(request: Request, token: str, write: Any) -> Any:
    """A write from a private link: 429 past the address's rate, 404 for a link that opens
    nothing, else the command `write(player, data, actor=..., key=...)` answered."""
    if too_many(request):
        return _refused_json(too_many_words(), 429)
    player = private_links.player_for(token)
    if player is None:
        return _refused_json(not_found_words(), 404)
    return answered(request, write(player, request.data, actor=request.user, key=key_of(request)))


class MeView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(responses={200: OpenApiResponse(description="my event"), 404: OpenApiResponse(description="no such link")})
    def get(self, request: Request, token: str) -> Any:
        """The facts of the player's event: seat now, clock, standing, final, check-in, results."""
        if too_many(request):
            return _refused_json(too_many_words(), 429)
        player = private_links.player_for(token)
        if player is None:
            return _refused_json(not_found_words(), 404)
        return Response(my_event(player))


#: The body of `confirm_result`, from the command's own declaration.
ConfirmationIn = body_of("ConfirmationIn", scoring_commands.CONFIRM_FIELDS)


class MeConfirmationsView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=ConfirmationIn, responses={200: OpenApiResponse(description="the player's word"), 400: OpenApiResponse(description="refused")})
    def post(self, request: Request, token: str) -> Any:
        """`table` (id), `agree` true or false, `reason` (required when disputing)."""
        return _as_link_holder(request, token, scoring_commands.confirm_result)


#: The body of `self_report`, from the command's own declaration.
SelfReportIn = body_of("SelfReportIn", scoring_commands.SELF_REPORT_FIELDS)


class MeReportView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=SelfReportIn, responses={201: OpenApiResponse(description="the filed report"),
                                                    409: OpenApiResponse(description="the format takes no self-report")})
    def post(self, request: Request, token: str) -> Any:
        """File your table's report (a table without a judge, where the format lets players report)."""
        return _as_link_holder(request, token, scoring_commands.self_report)


#: The body of `set_faction_preferences`, from the command's own declaration.
PreferencesIn = body_of("PreferencesIn", commands.Preferences.FIELDS)


class MePreferencesView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=PreferencesIn, responses={200: OpenApiResponse(description="the player's preferences"),
                                                     409: OpenApiResponse(description="the format asks none")})
    def post(self, request: Request, token: str) -> Any:
        """Rank the factions you would rather play (where the tournament's format asks)."""
        return _as_link_holder(request, token, commands.set_faction_preferences)


class PrivateLinkView(APIView):
    @extend_schema(request=None, responses={200: OpenApiResponse(description="the new link")})
    def post(self, request: Request, pk: int) -> Any:
        """A new private link for the player (the head judge's); the old one answers 404."""
        player = get_object_or_404(Player.objects.select_related("tournament"), pk=pk)
        return answered(request, commands.renew_private_link(player, request.data, actor=request.user,
                                                             key=key_of(request)))

    @extend_schema(responses={200: OpenApiResponse(description="revoked")})
    def delete(self, request: Request, pk: int) -> Any:
        """The player's private link stops working (the head judge's)."""
        player = get_object_or_404(Player.objects.select_related("tournament"), pk=pk)
        return answered(request, commands.revoke_private_link(player, None, actor=request.user,
                                                              key=key_of(request)))


def round_confirmations(request: HttpRequest, pk: int) -> HttpResponse:
    """The head judge's list of the round's filed tables: disputes with their reasons, the
    players who confirmed, and the players who have said nothing yet."""
    round_ = round_or_404(pk)
    if (denied := guard(request, round_.tournament)) is not None:
        return denied
    return render(request, "tournament/round_confirmations.html", {
        "round": round_, "label": round_label(round_), "tournament": round_.tournament,
        "words": confirmations.round_words(round_),
    })
