"""Head-judge and public pages of a tournament.

Head-judge pages (dashboard forms, players and check-in, CSV import, seat a round, print
sheets, the final) need a head judge of the tournament; the round page with its "where do I
sit?" search is public once the seating is published. Every form runs a command of
`tournament.commands` (the one the API calls; the desk's and the dashboard's actions are maps
from the posted `action` to its command) with the form's `idempotency_key`; a refusal is shown
next to the field it names and changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from dune.formats import FORMATS
from dune.refusals import Refusal
from dune.seating_changes import available_final_factions, next_final_picker
from dune.text_rules import name_matches, text_problem
from foundation.commands import DOOR_FIELDS, refuse_unknown
from scoring.qualifying import qualifying_order as qualifying
from tournament import commands, desk, judges, people, registration, services
from tournament.models import CheckIn, Player, Round, Tournament, default_time_zone
from tournament.permissions import is_head_judge
from tournament.presenters import FACTION_LABELS, round_label, tables_for_page
from tournament.round_state import attach_states, next_to_seat, with_states
from tournament.seating_adapter import final_for
from tournament.time_zones import common_zones
from venue import sign_in_codes
from web import live
from web.idempotency_api import form_key
from web.page_helpers import guard as _guard
from web.page_helpers import parse_int as _int
from web.page_helpers import round_or_404 as _round
from web.page_text import refuse_unsafe_text, shows_text_refusals, text_refusal


def _key(request: HttpRequest) -> str | None:
    """The form's idempotency key (`{% command_key %}`): a second tap answers the first."""
    return form_key(request)


def _errors(error: Refusal, fields: tuple[str, ...] = ()) -> dict[str, str]:
    """Place a refusal next to its form field if the page shows that field, else at the top."""
    return {error.field if error.field in fields else "general": error.message}


# ----------------------------------------------------------------------------- tournaments


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise PermissionDenied(_("Creating a tournament needs a head judge's (staff) account."))
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            refuse_unsafe_text(request)
            created = commands.create_tournament(request.POST, actor=request.user, key=_key(request))
        except Refusal as error:
            errors = _errors(error, ("name", "format", "series", "time_zone"))
        else:
            messages.success(request, created.message)
            return redirect("tournament-detail", pk=created.body["id"])
    return render(
        request,
        "tournament/new.html",
        {
            "errors": errors,
            "values": request.POST,
            "formats": FORMATS.values(),
            "series_choices": people.series_owned_by(request.user),
            "zones": common_zones(),
            "default_zone": default_time_zone(),
        },
    )


class NeedsConfirmation(Exception):
    """An action that asks the head judge first (`_confirm` renders the question)."""

    def __init__(self, **question: Any) -> None:
        super().__init__(question.get("question", ""))
        self.question = question


def _confirm(
    request: HttpRequest, tournament: Tournament, *, question: str, explanation: str, yes: str, no: str,
    fields: list[tuple[str, Any]], back: str,
) -> HttpResponse:
    """The page asking the head judge to confirm an action before it is carried out: the same
    form posted again with `confirmed=yes`, or back to where they were."""
    return render(request, "tournament/confirm.html", {
        "tournament": tournament, "question": question, "explanation": explanation, "yes": yes, "no": no,
        "fields": [(k, v) for k, v in fields if v != ""], "action_url": request.path, "back_url": back,
    })


def _dashboard_action(request: HttpRequest, tournament: Tournament) -> str:
    """Carry out the dashboard's posted action; answers what was done, in words.

    Raises services.Refused (a TextRefused for text no page stores) having changed nothing.
    """
    refuse_unsafe_text(request)
    action = request.POST.get("action")
    key, actor = _key(request), request.user
    if action in DASHBOARD_FIELDS:
        refuse_unknown(request.POST, DASHBOARD_FIELDS[action], also=DOOR_FIELDS | {"action"})
    if action in DASHBOARD_ACTIONS:
        return DASHBOARD_ACTIONS[action](tournament, request.POST, actor=actor, key=key).message
    if action == "remove_judge":
        username = request.POST.get("username", "")
        if request.POST.get("confirmed") != "yes":
            raise NeedsConfirmation(
                question=_("Remove %(username)s as a table judge?") % {"username": username},
                explanation=_("They no longer judge this tournament's tables. The tables assigned to them with no"
                              " game under way open to every table judge; the tables they filed keep their name."),
                yes=_("Yes, remove %(username)s") % {"username": username}, no=_("Back to the tournament"),
                fields=[("action", "remove_judge"), ("username", username)],
            )
        return commands.remove_table_judge(tournament, request.POST, actor=actor, key=key).message
    if action == "finish_round":
        round_ = get_object_or_404(Round, pk=_int(request.POST.get("round")), tournament=tournament)
        if request.POST.get("confirmed") != "yes":
            raise NeedsConfirmation(
                question=_("Close %(round)s?") % {"round": round_label(round_)},
                explanation=_("A closed round is history: no more reports are expected, its clocks stop and"
                              " its results are what the standings count (a head judge can still reopen a report)."),
                yes=_("Yes, close %(round)s") % {"round": round_label(round_)}, no=_("Back to the tournament"),
                fields=[("action", "finish_round"), ("round", round_.pk)],
            )
        return commands.finish_round(round_, actor=actor, key=key).message
    raise services.Refused(_("unknown action %(action)s") % {"action": repr(action)}, field="action")


def _judge_code(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Make a table judge's account (`make_judge`) or give an account made for this tournament
    a new code (`new_code`), and show its one-time sign-in code this once: the head judge types
    no password, the judge signs in with the code and their account. A retried form makes no
    second account and shows no code: the head judge asks for a new one."""
    refuse_unsafe_text(request)
    username = request.POST.get("username", "")
    if request.POST.get("action") == "make_judge":
        done = commands.make_table_judge_account(tournament, request.POST, actor=request.user, key=_key(request))
        if done.replayed:
            messages.success(request, done.message)
            return redirect("tournament-detail", pk=tournament.pk)
        user = services.made_for(tournament, done.body["username"])
    else:
        user = services.made_for(tournament, username)
    code = sign_in_codes.give_codes([user])[user.get_username()]
    response = render(request, "tournament/judge_code.html", {
        "tournament": tournament, "username": user.get_username(), "code": code,
        "hours": int(sign_in_codes.LIFE.total_seconds() // 3600),
        "sign_in_url": request.build_absolute_uri(reverse("login")),
    })
    response["Cache-Control"] = "no-store"
    return response


#: The dashboard's actions on the tournament, by the name its forms post (`action`).
DASHBOARD_ACTIONS = {
    "add_round": commands.create_round,
    "add_judge": commands.invite_table_judge,
    "withdraw_invitation": commands.withdraw_invitation,
    "clubs_apart": commands.keep_clubs_apart,
}
#: Each action's fields, as its command declares them: the form's others are refused by name.
DASHBOARD_FIELDS = {
    "add_round": commands.NewRound.FIELDS,
    "add_judge": commands.Username.FIELDS,
    "withdraw_invitation": commands.Username.FIELDS,
    "clubs_apart": commands.ClubsApart.FIELDS,
}


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The dashboard: rounds with their state and check-ins; head judges add rounds and judges."""
    tournament = get_object_or_404(Tournament, pk=pk)
    judge = is_head_judge(request.user, tournament)
    errors: dict[str, str] = {}
    if request.method == "POST":
        if (denied := _guard(request, tournament)) is not None:
            return denied
        try:
            if request.POST.get("action") in ("make_judge", "new_code"):
                return _judge_code(request, tournament)
            messages.success(request, _dashboard_action(request, tournament))
        except NeedsConfirmation as asked:
            return _confirm(request, tournament, back=request.path, **asked.question)
        except Refusal as error:
            fields = () if request.POST.get("action") == "remove_judge" else ("kind", "starts_at", "username")
            errors = _errors(error, fields)
            if request.POST.get("action") in ("make_judge", "new_code") and "username" in errors:
                errors["new_username"] = errors.pop("username")
        else:
            return redirect("tournament-detail", pk=tournament.pk)
    rounds = services.rounds_with_presence(tournament)
    counts = dict(tournament.players.values_list("status").annotate(n=Count("id")).values_list("status", "n"))
    return render(
        request,
        "tournament/detail.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "judge": judge,
            "errors": errors,
            "values": request.POST,
            "active": counts.get(Player.Status.ACTIVE, 0),
            "withdrawn": counts.get(Player.Status.WITHDRAWN, 0),
            "dropped": counts.get(Player.Status.DROPPED, 0),
            "table_judges": tournament.table_judges.order_by("username") if judge else [],
            "invitations": judges.pending_invitations(tournament) if judge else [],
            "made_accounts": judges.accounts_made_for(tournament) if judge else [],
        },
    )


# ----------------------------------------------------------------------------- players


#: The desk's row actions (one player each), by the name its forms post: each a command.
ROW_ACTIONS = tuple(commands.DESK_ACTIONS)
#: The row actions whose target is the desk's round, not the tournament.
ROUND_ROW_ACTIONS = ("check_in", "check_out", "no_show", "clear_no_show")


def _row_action(request: HttpRequest, action: str, player: Player, selected: Round | None) -> str:
    """One player's check-in or status change at the desk (`commands.DESK_ACTIONS`); answers
    what was done, in words."""
    target: Any = player.tournament
    if action in ROUND_ROW_ACTIONS:
        if selected is None:
            raise services.Refused(_("add a round before checking players in"), field="round")
        target = selected
    fields: dict[str, Any] = {"player": player.pk}
    if action == "no_show":
        fields["reason"] = request.POST.get("reason", "")
    return commands.DESK_ACTIONS[action](target, fields, actor=request.user, key=_key(request)).message


def _desk_action(request: HttpRequest, tournament: Tournament, action: str, selected: Round | None) -> str:
    """The desk's actions beside the rows: register a player, check in all, open or close self
    check-in; answers what was done, in words (raises NeedsConfirmation before checking in all)."""
    key, actor = _key(request), request.user
    if action == "add":
        refuse_unknown(request.POST, commands.NewPlayer.FORM_FIELDS, also=DOOR_FIELDS | {"action", "round"})
        added = commands.add_player(tournament, request.POST, actor=actor, key=key, round_=selected)
        messages.success(request, added.message)
        player = Player.objects.get(pk=added.body["id"])
        if warning := services.twin_warning(tournament, player):
            messages.warning(request, warning)
        return ""
    if action == "check_in_all" and selected is not None:
        if request.POST.get("confirmed") != "yes":
            active = tournament.players.filter(status=Player.Status.ACTIVE).count()
            raise NeedsConfirmation(
                question=_("Check in all %(active)s active players for %(round)s?")
                % {"active": active, "round": round_label(selected)},
                explanation=_("Every active player is checked in for this round, present or not: the"
                              " seating will seat each of them. Check players in one by one if some are missing."),
                yes=_("Yes, check in all %(active)s") % {"active": active}, no=_("Back to the desk"),
                fields=[("action", "check_in_all"), ("round", selected.pk)],
                back=f"{request.path}?round={selected.pk}",
            )
        return commands.check_in_all(selected, actor=actor, key=key).message
    if action == "self_check_in" and selected is not None:
        command = commands.open_self_check_in if request.POST.get("open") == "yes" else commands.close_self_check_in
        return command(selected, actor=actor, key=key).message
    raise services.Refused(_("unknown action %(action)s") % {"action": repr(action)}, field="action")


def _desk_context(tournament: Tournament, selected: Round | None, query: str) -> dict[str, Any]:
    in_round = (
        set(CheckIn.objects.filter(round=selected).values_list("player_id", flat=True)) if selected else set()
    )
    counted = services.presence(selected) if selected else None
    groups = services.probable_duplicate_groups(tournament)
    return {
        "duplicate_groups": groups,
        "duplicate_ids": {p.pk for group in groups for p in group},
        "tournament": tournament,
        "selected": selected,
        "no_shows": set(services.no_show_ids(selected)) if selected else set(),
        # A no-show is marked for a heat still to play (a final's absent finalist is replaced).
        "no_show_open": selected is not None and selected.kind == Round.Kind.HEAT and selected.state != Round.State.FINISHED,
        "roster": list(desk.search_players(tournament, query)),
        "query": query,
        "checked_in": in_round,
        # The round's one count (`services.presence`): checked in until published, then seated.
        "checked_count": counted.count if counted else 0,
        "count_label": counted.label if counted else "",
    }


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, pk: int) -> HttpResponse:
    """The registration desk: search as you type, register, check in, withdraw or drop.

    Row actions answer an htmx request with just the player's row (and the new count), so
    the desk keeps its place in a long list; without JavaScript they post and redirect back
    to the same player. Dropping asks to confirm first.

    Long because the desk's row actions share one page and one answer shape (the row for htmx,
    a redirect otherwise); each action itself is a call to a service.
    """
    tournament = get_object_or_404(Tournament, pk=pk)
    if (denied := _guard(request, tournament)) is not None:
        return denied
    rounds = attach_states(list(with_states(tournament.rounds.order_by("number"))))
    # Unless the desk picks another, check-in is for the next round to be seated.
    upcoming = next_to_seat(rounds)
    selected = next(
        (r for r in rounds if r.pk == _int(request.GET.get("round") or request.POST.get("round"))),
        upcoming or (rounds[-1] if rounds else None),
    )
    query = (request.GET.get("q") or request.POST.get("q") or "").strip()
    errors: dict[str, str] = {}
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action in ROW_ACTIONS:
            player = get_object_or_404(Player, pk=_int(request.POST.get("player")), tournament=tournament)
            if action == "dropped" and request.POST.get("confirmed") != "yes":
                return render(
                    request,
                    "tournament/confirm_drop.html",
                    {"tournament": tournament, "player": player, "selected": selected, "query": query},
                )
            if action == "withdrawn" and request.POST.get("confirmed") != "yes":
                return _confirm(
                    request, tournament,
                    question=_("Withdraw %(name)s?") % {"name": player.name},
                    explanation=_("A withdrawn player's registration is cancelled: they are checked out of rounds"
                                  " not yet published and not seated again. You can reinstate them later."),
                    yes=_("Yes, withdraw %(name)s") % {"name": player.name}, no=_("Keep %(name)s") % {"name": player.name},
                    fields=[("player", player.pk), ("action", "withdrawn"), ("round", selected.pk if selected else ""), ("q", query)],
                    back=f"{request.path}#player-{player.pk}",
                )
            try:
                refuse_unsafe_text(request)
                done = _row_action(request, action, player, selected)
            except Refusal as error:
                done, failed = "", error.message
            else:
                failed = ""
            if request.htmx:
                player.refresh_from_db()
                context = _desk_context(tournament, selected, query)
                return render(
                    request,
                    "tournament/_player_row_answer.html",
                    {**context, "p": player, "done": done, "failed": failed, "failed_action": action,
                     "typed_reason": request.POST.get("reason", "") if failed else ""},
                    status=400 if failed else 200,
                )
            if failed:
                errors = {"general": failed}
            else:
                messages.success(request, done)
                params = "&".join(
                    f"{k}={v}" for k, v in (("round", selected.pk if selected else ""), ("q", query)) if v
                )
                return redirect(f"{request.path}?{params}#player-{player.pk}")
        else:
            try:
                refuse_unsafe_text(request)
                if done := _desk_action(request, tournament, action, selected):
                    messages.success(request, done)
            except NeedsConfirmation as asked:
                return _confirm(request, tournament, **asked.question)
            except Refusal as error:
                errors = _errors(error, ("name", "email", "club", "household") if action == "add" else ())
            else:
                suffix = f"?round={selected.pk}" if selected else ""
                return redirect(f"{request.path}{suffix}")
    refused = text_refusal(request, field="q") if request.method == "GET" else None
    context = _desk_context(tournament, selected, "" if refused else query)
    if refused is not None:  # a search for text that cannot be stored: the whole roster
        context.update(query=query, query_error=refused.message)
    if request.htmx and request.htmx.target == "roster-body":
        return render(request, "tournament/_roster_answer.html", context)
    return render(
        request,
        "tournament/players.html",
        {**context, "rounds": rounds, "upcoming": upcoming, "errors": errors, "values": request.POST,
         "online": _online_registrations(tournament)},
    )


def _online_registrations(tournament: Tournament) -> list[dict[str, Any]]:
    """The online registrations the roster does not show (not confirmed, refused) and those
    flagged as probably someone already registered, for the desk's panel."""
    return [
        r for r in registration.registrations(tournament)
        if r["source"] == "online" and (r["player"] is None or r["probable_duplicate"])
    ]


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def players_import(request: HttpRequest, pk: int) -> HttpResponse:
    """CSV import: a preview lists every row and why it would be refused, before anything is saved."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if (denied := _guard(request, tournament)) is not None:
        return denied
    errors: dict[str, str] = {}
    rows = None
    text = ""
    if request.method == "POST" and (refused := text_refusal(request)) is not None:
        text, errors["csv"] = request.POST.get("csv", ""), refused.message
    elif request.method == "POST":
        upload = request.FILES.get("file")
        try:  # the form's fields as the import declares them (`commands.Import.FIELDS`)
            refuse_unknown(request.POST, commands.Import.FIELDS, also=DOOR_FIELDS | {"action"})
            text = commands.Import.FIELDS["csv"].read(request.POST)
        except Refusal as error:
            text, errors = request.POST.get("csv", ""), _errors(error, ("file", "csv"))
        if not errors and upload is not None:
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                errors["file"] = "the CSV is not UTF-8 text"
        if not errors and not text.strip():
            errors["file"] = "choose a CSV file or paste its text"
        if not errors:
            try:
                if request.POST.get("action") == "import":
                    fields = {
                        "csv": text,
                        "skip_refused": request.POST.get("skip_refused"),
                        "separate": [n for n in map(_int, request.POST.getlist("separate")) if n],
                    }
                    try:
                        imported = commands.import_players(tournament, fields, actor=request.user, key=_key(request))
                    except Refusal as error:
                        errors = _errors(error, ("file",))
                        rows = services.preview_import(tournament, text)
                    else:
                        messages.success(request, imported.message)
                        return redirect("tournament-players", pk=tournament.pk)
                else:
                    rows = services.preview_import(tournament, text)
            except ValidationError as error:  # the file as a whole cannot be read
                errors = {"file": " ".join(error.messages)}
                rows = None
    return render(
        request,
        "tournament/import.html",
        {
            "tournament": tournament,
            "rows": rows,
            "text": text,
            "errors": errors,
            "accepted": sum(1 for r in rows or [] if r.ok),
            "linked": sum(1 for r in rows or [] if r.ok and r.person is not None),
            "other_names": sum(1 for r in rows or [] if r.ok and r.other_name),
            "refused": sum(1 for r in rows or [] if not r.ok),
            "separate": request.POST.getlist("separate"),
        },
    )





def _round_poll_name(pk: int, *, visible: bool, query: str) -> str:
    return f"round:{pk}:{visible}:{query}"


def _public_round_poll_etag(request: HttpRequest, pk: int) -> str | None:
    """The ETag of the round page's live region as anyone sees it, or None when it depends on
    who asks (a round not published yet: only its head judges see the tables) or on a search
    whose text is refused (the page shows the refusal)."""
    typed = request.GET.get("q", "")
    if text_problem(typed):
        return None
    facts = live.round_facts(pk)
    if facts is None or facts.stage == Round.State.PLANNED:
        return None
    return live.etag_for(_round_poll_name(pk, visible=True, query=typed.strip()), facts.version)


@live.polled("round-live", _public_round_poll_etag)
@shows_text_refusals
def round_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Public: the round's tables and a "where do I sit?" search (works without JavaScript).

    The tables and clocks are a live region: they update themselves while the page is open.
    An unchanged poll is answered before this view (`live.UnchangedPollMiddleware`); a first
    visit without a session gets the page rendered once per version (`live.shared_page`)."""
    # One query says whether anything changed; the round itself is loaded only to render.
    facts = live.round_facts(pk)
    if facts is None:
        raise Http404(_("No such round."))
    judge = facts.stage == Round.State.PLANNED and is_head_judge(request.user, Tournament(pk=facts.tournament))
    visible = judge or facts.stage != Round.State.PLANNED
    refused = text_refusal(request, field="q")  # the search box shows it; nothing is searched
    typed = request.GET.get("q", "").strip()
    query = "" if refused else typed
    url = request.get_full_path()
    name = _round_poll_name(pk, visible=visible, query=query)

    def fragment(etag: str) -> str:
        context = _round_live_context(_round(pk), facts, visible=visible, query=query)
        return render_to_string("tournament/_round_live.html", {**context, **live.live_attrs(url, etag)})

    if request.htmx and request.htmx.target == "round-live":
        return live.live_fragment(request, name=name, version=facts.version, render=fragment)

    def page() -> HttpResponse:
        # A first visit: the page around the same cached fragment a poll answers with.
        round_ = _round(pk)
        return render(request, "tournament/round.html", {
            "round": round_,
            "label": round_label(round_),
            "tournament": round_.tournament,
            "visible": visible,
            "typed": typed,
            "query_error": refused.message if refused else "",
            "judge": judge or is_head_judge(request.user, round_.tournament),
            "live_html": live.shared_fragment(name, facts.version, fragment),
        })

    return live.shared_page(request, facts.version, page)


def _round_live_context(round_: Round, facts: live.RoundFacts, *, visible: bool, query: str) -> dict[str, Any]:
    """What the round page's live part shows; it is shared by everyone who sees this version,
    so nothing about the viewer goes in. The tables themselves (the costly part: every seat
    and name) are rendered once per seating, not once per clock or report."""
    round_.current = facts.state
    tables = SimpleLazyObject(lambda: tables_for_page(round_)) if visible else []
    found = (
        [{"table": t["table"], **row} for t in tables for row in t["seats"] if name_matches(query, row["player"].name)]
        if query and visible
        else []
    )
    highlight = {row["player"].pk for row in found}

    def seating(_etag: str) -> str:
        return render_to_string(
            "tournament/_tables.html", {"tables": tables, "highlight": highlight, "link_tables": True}
        )

    return {
        "round": round_,
        "label": round_label(round_),
        "tournament": round_.tournament,
        "state": facts.state,
        "tables_html": live.shared_fragment(f"round-tables:{round_.pk}:{query}", facts.seating, seating)
        if visible
        else "",
        "visible": visible,
        "query": query,
        "found": found,
        "not_found": (
            desk.why_not_found(
                round_.tournament_id, query, is_not="is not seated in this round", are_not="are not seated in this round"
            )
            if query and visible and not found
            else ""
        ),
    }


def print_seating(request: HttpRequest, pk: int) -> HttpResponse:
    """Printable seating sheet: by table, then alphabetical by player."""
    round_ = _round(pk)
    if (denied := _guard(request, round_.tournament)) is not None:
        return denied
    tables = tables_for_page(round_)
    alphabetical = sorted(
        ({"table": t["table"], **row} for t in tables for row in t["seats"]),
        key=lambda r: (r["player"].name.casefold(), r["player"].pk),
    )
    with translation.override(round_.tournament.language):
        return _print_seating(request, round_, tables, alphabetical)


def _print_seating(request: HttpRequest, round_: Any, tables: Any, alphabetical: Any) -> HttpResponse:
    return render(
        request,
        "tournament/print_seating.html",
        {
            "round": round_,
            "label": round_label(round_),
            "tournament": round_.tournament,
            "tables": tables,
            "alphabetical": alphabetical,
        },
    )


def print_reports(request: HttpRequest, pk: int) -> HttpResponse:
    """Printable game report sheets, one table per page."""
    round_ = _round(pk)
    if (denied := _guard(request, round_.tournament)) is not None:
        return denied
    # A printed sheet is in the tournament's language, whoever prints it.
    with translation.override(round_.tournament.language):
        return _print_reports(request, round_)


def _print_reports(request: HttpRequest, round_: Any) -> HttpResponse:
    return render(
        request,
        "tournament/print_reports.html",
        {
            "round": round_,
            "label": round_label(round_),
            "tournament": round_.tournament,
            "tables": tables_for_page(round_),
            "columns": [
                _("Result"),
                _("Win attempts"),
                _("Strongholds"),
                _("Forces on board"),
                _("Spice"),
                _("Treachery cards"),
                _("Active leaders"),
            ],
        },
    )


# ----------------------------------------------------------------------------- the final


FINAL_CHOICES = ("finalist", "alternate", "absent")


def _final_choices(request: HttpRequest, order: Any) -> tuple[list[int], list[int], list[int]]:
    """Finalists, alternates and absent finalists as the head judge chose them by name (one
    `pick_<player>` field per player of the qualifying order), in qualifying order; a form
    posting the lists as player numbers (`finalists`, `alternates`, `absent`) is read as typed."""
    picks = {k.removeprefix("pick_"): v for k, v in request.POST.items() if k.startswith("pick_")}
    if not picks:
        return (
            _ids(request.POST.get("finalists", "")),
            _ids(request.POST.get("alternates", "")),
            _ids(request.POST.get("absent", "")),
        )
    chosen: dict[str, list[int]] = {kind: [] for kind in FINAL_CHOICES}
    for key, value in picks.items():
        player = _int(key)
        if player is None or value not in ("", *FINAL_CHOICES):
            raise services.Refused(_("cannot read the choice %(value)s for player %(key)s") % {"value": repr(value), "key": repr(key)}, field="finalists")
        if value:
            chosen[value].append(player)
    for ids in chosen.values():
        ids.sort(key=order.position)
    # An absent finalist keeps their place in the qualifying order; an alternate takes the seat.
    finalists = sorted(chosen["finalist"] + chosen["absent"], key=order.position)
    return finalists, chosen["alternate"], chosen["absent"]


def _ids(text: str) -> list[int]:
    """Player ids from a form field listing ids separated by commas, spaces or new lines."""
    parts = text.replace(",", " ").split()
    ids = [_int(p) for p in parts]
    if any(i is None for i in ids):
        raise services.Refused(_("list player numbers separated by commas: %(text)s") % {"text": repr(text)}, field="finalists")
    return [i for i in ids if i is not None]


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def final(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat the final from the finalists (alternates fill empty seats), then walk through the picks.

    Long because the final's page shows the seating form, the pick order and the faction pool
    together, and its context lists every name the template reads.
    """
    round_ = _round(pk)
    tournament = round_.tournament
    if (denied := _guard(request, tournament)) is not None:
        return denied
    if round_.kind != Round.Kind.FINAL:
        return redirect("tournament-seat-round", pk=round_.pk)
    errors: dict[str, str] = {}
    if request.method == "POST":
        action = request.POST.get("action")
        key, actor = _key(request), request.user
        try:
            refuse_unsafe_text(request)
            if action == "seat":
                finalists, alternates, absent = _final_choices(request, qualifying(tournament))
                fields = {
                    "players": finalists, "alternates": alternates, "absent": absent,
                    "reason": request.POST.get("reason", ""),
                }
                messages.success(request, commands.seat_round(round_, fields, actor=actor, key=key).message)
            elif action == "pick":
                refuse_unknown(request.POST, commands.PICK_FIELDS, also=DOOR_FIELDS | {"action"})
                commands.pick_final_faction(round_, request.POST, actor=actor, key=key)
            elif action == "assign_judge":
                refuse_unknown(request.POST, commands.TableJudge.FIELDS, also=DOOR_FIELDS | {"action"})
                messages.success(request, commands.assign_table_judge(round_, request.POST, actor=actor, key=key).message)
            elif action == "publish":
                messages.success(request, commands.publish_round(round_, actor=actor, key=key).message)
            else:
                raise services.Refused(_("unknown action %(action)s") % {"action": repr(action)}, field="action")
        except Refusal as error:
            errors = _errors(error, ("finalists", "alternates", "absent", "faction", "judge"))
        else:
            return redirect("tournament-final", pk=round_.pk)
        round_.refresh_from_db()
    order = qualifying(tournament)
    names = dict(tournament.players.values_list("pk", "name"))
    posted = request.method == "POST" and any(k.startswith("pick_") for k in request.POST)
    heats = attach_states(list(with_states(tournament.rounds.filter(kind=Round.Kind.HEAT).order_by("number"))))
    context: dict[str, Any] = {
        "round": round_,
        "tournament": tournament,
        "errors": errors,
        "values": request.POST,
        "contenders": [
            {"row": row, "choice": request.POST.get(f"pick_{row.player}", "") if posted else row.suggested}
            for row in order.eligible
        ],
        "left_out": order.left_out,
        "finalist_seats": order.finalist_seats,
        "unfinished": [r for r in heats if not r.current.finished],
        "tables": tables_for_page(round_),
        "table_judges": tournament.table_judges.order_by("username"),
    }
    if round_.tables.exists():
        plan = final_for(round_)
        picker = next_final_picker(plan)
        picks = dict(plan.picks)
        context.update(
            {
                "picker": picker,
                "picker_name": names.get(picker) if picker else None,
                "free": [(f, FACTION_LABELS[f]) for f in available_final_factions(plan)],
                "order": [
                    {
                        "number": i,
                        "player": p,
                        "name": names.get(p, p),
                        "faction": FACTION_LABELS.get(picks.get(p, ""), ""),
                        "alternate": p in plan.alternates_seated,
                    }
                    for i, p in enumerate(plan.pick_order, start=1)
                ],
                "pool": tournament.rules.final_factions,
            }
        )
    return render(request, "tournament/final.html", context)
