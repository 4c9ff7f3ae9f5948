"""The head judge's changes after creation: the tournament's name, time zone, language and series, and a
round's kind and start, or deleting it while it is not seated (`tournament.services.editing`).

Each page shows its form; a change redirects to the dashboard with what was done; a refusal
shows the form again at the page's own address (a GET shows it too), saying why.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from dune.refusals import Refusal
from foundation.commands import DOOR_FIELDS, refuse_unknown
from tournament import commands, people
from tournament.models import Round, Tournament
from tournament.time_zones import common_zones
from web.page_helpers import guard as _guard
from web.page_helpers import round_or_404 as _round
from web.page_text import refuse_unsafe_text, shows_text_refusals
from web.tournament.views import _confirm, _errors, _key

#: The online registration's settings the edit page's form sends (and `waiting_list`).
REGISTRATION_FIELDS = ("registration_opens", "registration_closes", "capacity")


def _registration_values(tournament: Tournament) -> dict[str, str]:
    """The registration settings as the form's fields show them, in the tournament's zone."""
    zone = ZoneInfo(tournament.time_zone)

    def local(moment: datetime | None) -> str:
        return timezone.localtime(moment, zone).strftime("%Y-%m-%dT%H:%M") if moment else ""

    return {
        "registration_opens": local(tournament.registration_opens),
        "registration_closes": local(tournament.registration_closes),
        "capacity": "" if tournament.capacity is None else str(tournament.capacity),
    }


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename the tournament, move it to another time zone, change the language of its printed
    sheets and room screen, or add it to a series."""
    tournament = get_object_or_404(Tournament.objects.select_related("series"), pk=pk)
    if (denied := _guard(request, tournament)) is not None:
        return denied
    errors: dict[str, str] = {}
    if request.method == "POST":
        action = request.POST.get("action", "edit")
        try:
            refuse_unsafe_text(request)
            refuse_unknown(request.POST, commands.TournamentEdit.FIELDS, also=DOOR_FIELDS | {"action"})
            # Each of the page's forms sends its own fields (a checkbox left unchecked sends none).
            sent = {"series": ("series",), "registration": (*REGISTRATION_FIELDS, "waiting_list")}.get(
                action, ("name", "time_zone", "language"))
            fields = {name: request.POST.get(name, "") for name in sent if name != "language" or name in request.POST}
            done = commands.edit_tournament(tournament, fields, actor=request.user, key=_key(request))
        except Refusal as error:
            errors = _errors(error, tuple(commands.TournamentEdit.FIELDS))
        else:
            messages.success(request, done.message)
            return redirect("tournament-detail", pk=tournament.pk)
    series = [s for s in people.series_owned_by(request.user) if s.format == tournament.format]
    return render(
        request,
        "tournament/edit.html",
        {
            "tournament": tournament,
            "errors": errors,
            "values": request.POST if request.method == "POST" else {},
            "zones": common_zones(),
            "series_choices": series,
            "registration": _registration_values(tournament),
        },
    )


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a round's kind or scheduled start, or delete it while it is not seated."""
    if request.method == "POST" and request.POST.get("action") == "delete" and request.user.is_authenticated:
        try:  # a second tap on "delete": the round is gone, the first answer stands
            gone = commands.round_deleted(pk, actor=request.user, key=_key(request))
        except Refusal:
            gone = None
        if gone is not None:
            messages.success(request, gone.message)
            return redirect("tournament-detail", pk=gone.body["tournament"])
    round_ = _round(pk)
    tournament = round_.tournament
    if (denied := _guard(request, tournament)) is not None:
        return denied
    errors: dict[str, str] = {}
    if request.method == "POST":
        action = request.POST.get("action", "edit")
        try:
            refuse_unsafe_text(request)
            if action == "delete":
                if request.POST.get("confirmed") != "yes":
                    return _confirm(
                        request, tournament,
                        question=_("Delete %(round)s?") % {"round": round_.label},
                        explanation=_("The round and its check-ins are deleted; the rounds after it take the"
                                      " numbers down by one. Only a round not yet seated can be deleted."),
                        yes=_("Yes, delete %(round)s") % {"round": round_.label},
                        no=_("Keep %(round)s") % {"round": round_.label},
                        fields=[("action", "delete")], back=request.path,
                    )
                done = commands.delete_round(round_, actor=request.user, key=_key(request))
            else:
                refuse_unknown(request.POST, commands.RoundEdit.FIELDS, also=DOOR_FIELDS | {"action"})
                done = commands.edit_round(round_, request.POST, actor=request.user, key=_key(request))
        except Refusal as error:
            errors = _errors(error, ("kind", "starts_at"))
        else:
            messages.success(request, done.message)
            return redirect("tournament-detail", pk=tournament.pk)
    round_.refresh_from_db()
    return render(
        request,
        "tournament/round_edit.html",
        {
            "tournament": tournament,
            "round": round_,
            "seated": round_.tables.exists(),
            "kinds": Round.Kind.choices,
            "errors": errors,
            "values": request.POST if request.method == "POST" else {},
        },
    )

