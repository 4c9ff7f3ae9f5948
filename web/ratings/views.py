"""People and series pages: a person's tournaments, games and rating over time; a series'
editions, faction balance and rating list; and the head judge's link/unlink page of a player.

Public pages show display names (initials for people who asked) and never an email.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from dune.formats import FORMATS, get_format
from dune.points.numbers import fmt, plural_count
from dune.ratings import charts
from dune.refusals import Refusal
from dune.text_rules import whole_number
from ratings import records, services
from tournament import commands, people
from tournament.models import Person, Player, Series
from tournament.permissions import is_head_judge
from web.idempotency_api import form_key
from web.page_text import refuse_unsafe_text, shows_text_refusals, text_refusal


@shows_text_refusals
def people_page(request: HttpRequest) -> HttpResponse:
    """Everybody (or who matches the search), PEOPLE_PER_PAGE to a page, with the count."""
    text = request.GET.get("q", "")
    found: Any = []
    if (refused := text_refusal(request, field="q")) is not None:  # nothing is searched
        error = refused.message
    else:
        try:
            found, error = people.search_people(text, limit=None), ""
        except people.PeopleRefused as refusal:
            error = refusal.message
    page = Paginator(found, people.PEOPLE_PER_PAGE).get_page(request.GET.get("page"))
    query = urlencode({"q": text}) if text else ""
    return render(
        request,
        "ratings/people.html",
        {
            "q": text,
            "page": page,
            "found": page.object_list,
            "query": query,
            "error": error,
            "series": Series.objects.order_by("name"),
        },
    )


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def series_mine(request: HttpRequest) -> HttpResponse:
    """A head judge's own series: create one, rename one (nobody else's)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise PermissionDenied(_("Series belong to head judges (staff accounts)."))
    errors: dict[str, str] = {}
    failed: int | None = None
    values = {k: request.POST.get(k, "") for k in ("action", "name", "format", "series")}
    if request.method == "POST":
        try:
            refuse_unsafe_text(request)
            if values["action"] == "rename":
                series = get_object_or_404(Series, pk=whole_number(values["series"]) or 0)
                failed = series.pk
                renamed = commands.rename_series(series, {"name": values["name"]}, actor=request.user, key=form_key(request))
                messages.success(request, renamed.message)
            else:
                fields = {"name": values["name"], "format": values["format"]}
                messages.success(request, commands.create_series(fields, actor=request.user, key=form_key(request)).message)
        except Refusal as refused:
            if refused.status == 403:
                raise PermissionDenied(refused.message) from None
            errors[refused.field if refused.field in ("name", "format") else "general"] = refused.message
        else:
            return redirect("series-mine")
    owned = list(people.series_owned_by(request.user).annotate(n=Count("tournaments")))
    for s in owned:
        s.format_name = get_format(s.format).name
        s.editions = s.n
    return render(
        request,
        "ratings/series_mine.html",
        {
            "owned": owned,
            "formats": FORMATS.values(),
            "errors": errors,
            "failed": failed,
            "values": values,
        },
    )


def person_page(request: HttpRequest, pk: int) -> HttpResponse:
    person = get_object_or_404(Person, pk=pk)
    regs = records.record_of(person)
    history = services.history_of(person.pk)
    steps = [
        {
            "n": row.games,
            "tournament": row.report.table.round.tournament.name,
            "round": records.round_label(row.report.table.round),
            "table": row.report.table.number,
            "won": row.won,
            "ordinal": f"{row.ordinal:.2f}",
            "mu": f"{row.mu:.2f}",
            "sigma": f"{row.sigma:.2f}",
        }
        for row in history
    ]
    return render(
        request,
        "ratings/person.html",
        {
            "person": person,
            "registrations": [
                {
                    "reg": reg,
                    "points": fmt(reg.points) if reg.points is not None else None,
                    "points_count": plural_count(reg.points) if reg.points is not None else None,
                    "lines": [
                        {
                            "line": line,
                            "faction": records.faction_name(line.faction),
                            "points": fmt(line.points),
                        }
                        for line in reg.lines
                    ],
                }
                for reg in regs
            ],
            "rating": services.rating_of(person.pk),
            "chart": charts.line_chart([row.ordinal for row in history]),
            "steps": steps,
            "recomputed_at": services.last_recomputed(),
        },
    )


def series_page(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=pk)
    editions = records.editions(series)
    tournaments = [e.tournament for e in editions]
    factions = records.faction_balance(tournaments)
    return render(
        request,
        "ratings/series.html",
        {
            "series": series,
            "format_name": get_format(series.format).name,
            "editions": editions,
            "factions": [
                {
                    "name": records.faction_name(b.faction),
                    "games": b.games,
                    "wins": b.wins,
                    "share": f"{b.win_share:.0%}",
                }
                for b in factions
            ],
            "ratings": services.ratings_list(people.people_of(tournaments)),
            "recomputed_at": services.last_recomputed(),
        },
    )


def _person_as_seen(request: HttpRequest, player: Player) -> dict[str, Any]:
    """The player's person as this head judge may see them: the full name and every other
    registration only for one who may reveal the person (`people.may_reveal`); otherwise the
    public name and the registrations in the judge's own tournaments. A link made by typing an
    email shows nothing more of the person than their public pages do."""
    if not player.person_id:
        return {"others": [], "person_name": ""}
    revealed = people.may_reveal(request.user, player.person_id)
    others = (
        Player.objects.filter(person_id=player.person_id).exclude(pk=player.pk).select_related("tournament")
    )
    if not revealed:
        others = others.filter(tournament__head_judges=request.user)
    person = player.person
    return {"others": others, "person_name": person.name if revealed else person.display_name}


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def player_person_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A head judge links the player to an existing person, or makes them a person of their own."""
    player = get_object_or_404(Player.objects.select_related("tournament", "person"), pk=pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_head_judge(request.user, player.tournament):
        raise PermissionDenied(_("Only a head judge of this tournament may change who a player is."))
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    choices: list[dict[str, Any]] = []
    if request.method == "POST":
        action = request.POST.get("action")
        values = {
            "action": action,
            "person": request.POST.get("person", ""),
            "reason": request.POST.get("reason", ""),
        }
        try:
            refuse_unsafe_text(request)
            if action == "initials":
                listed = {"listed": request.POST.get("listed", "")}
                messages.success(
                    request, commands.list_by_initials(player, listed, actor=request.user, key=form_key(request)).message
                )
            elif action == "unlink":
                fields = {"person": None, "reason": values["reason"]}
                commands.link_person(player, fields, actor=request.user, key=form_key(request))
                messages.success(request, _("%(name)s is now a person of their own.") % {"name": player.name})
            else:
                chosen = whole_number(request.POST.get("person_id", ""))
                person_id: Any = chosen if chosen is not None else _person_typed(player, values["person"], choices)
                fields = {"person": person_id, "reason": values["reason"]}
                commands.link_person(player, fields, actor=request.user, key=form_key(request))
                linked = Person.objects.get(pk=person_id)
                shown = linked.name if people.may_reveal(request.user, linked.pk) else linked.display_name
                messages.success(request, _("%(name)s is now linked to %(shown)s.") % {"name": player.name, "shown": shown})
        except Refusal as refused:
            if refused.status == 403:
                raise PermissionDenied(refused.message) from None
            errors[refused.field if refused.field in ("person", "reason") else "general"] = refused.message
        else:
            return redirect("player-person", pk=player.pk)
    return render(
        request,
        "ratings/player_person.html",
        {
            "player": player,
            "changes": _named_changes(request, people.links_of(player)),
            **_person_as_seen(request, player),
            "errors": errors,
            "values": values,
            "choices": choices,
        },
    )


def _named_changes(request: HttpRequest, changes: list[Any]) -> list[Any]:
    """The player's person changes, each person named as this head judge may see them
    (`from_name`, `to_name`); a person deleted since is named as the audit kept them."""
    ids = {i for c in changes for i in (c.from_person, c.to_person) if i}
    names = {p.pk: (p.name if people.may_reveal(request.user, p.pk) else p.display_name) for p in Person.objects.filter(pk__in=ids)}
    for c in changes:
        c.from_name = names.get(c.from_person) or "a person since merged into another"
        c.to_name = names.get(c.to_person) or "a person since merged into another"
    return changes


def _person_typed(player: Player, typed: Any, choices: list[dict[str, Any]]) -> int:
    """The person a head judge typed: their name as the people page lists it (a number still
    reads as the person's own). Several people of that name fill `choices` (each with the
    tournaments they played) and raise PeopleRefused asking to choose one."""
    text = str(typed or "").strip()
    number = whole_number(text)
    if number is not None:
        return int(number)
    if not text:
        raise people.PeopleRefused(_("type the name of the person to link to"), field="person")
    found = [p for p in people.search_people(text, limit=8) if p.pk != player.person_id]
    if len(found) == 1:
        return int(found[0].pk)
    if not found:
        raise people.PeopleRefused(
            _("nobody on the people page is named %(text)s; check the spelling there") % {"text": repr(text)}, field="person"
        )
    played: dict[int, list[str]] = {}
    for person_id, name in (
        Player.objects.filter(person__in=found).order_by("tournament__created_at").values_list("person_id", "tournament__name")
    ):
        played.setdefault(person_id, []).append(name)
    choices.extend(
        {"pk": p.pk, "name": p.display_name, "played": ", ".join(played.get(p.pk, [])) or "no tournament yet"}
        for p in found
    )
    raise people.PeopleRefused(_("%(value)s people match %(text)s: choose the one %(name)s is") % {"value": len(found), "text": repr(text), "name": player.name}, field="person")
