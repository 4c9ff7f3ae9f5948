"""Registration-desk pages beside the roster: edit a player, print badges with check-in QR
codes, and the player's own check-in page (their personal link)."""

from __future__ import annotations

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from dune.refusals import Refusal
from foundation.commands import DOOR_FIELDS, refuse_unknown
from tournament import commands, desk, private_links, services
from tournament.links import absolute_link
from tournament.models import CheckIn, Player, PrivateLink, Tournament
from tournament.presenters import round_label
from web.idempotency_api import form_key
from web.page_helpers import guard as _guard
from web.page_helpers import parse_int as _int
from web.page_text import refuse_unsafe_text, shows_text_refusals

FIELD_WORDS = {
    "name": "name",
    "email": "email",
    "club": "club",
    "household": "household",
    "keep_apart": "keep apart from",
}


def change_words(changes: dict[str, list[object]]) -> str:
    """A recorded change as a line: name “Alia” → “Alia Atreides”; keep apart from “—” → “Paul”."""

    def said(value: object) -> str:
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        return str(value) if value else "—"

    return "; ".join(
        f"{FIELD_WORDS.get(field, field)} “{said(pair[0])}” → “{said(pair[1])}”"
        for field, pair in changes.items()
    )


def _personal_link(request: HttpRequest, player: Player, token: str | None = None) -> str:
    """The player's private link (`/me/{token}/`: their event, check-in included), drawn the
    first time it is asked for."""
    return absolute_link(request, reverse("me", args=[token or private_links.link_for(player).token]))


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Change a player's name, email, club, household and keep-apart requests; each change is recorded."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if (denied := _guard(request, tournament)) is not None:
        return denied
    player = get_object_or_404(Player, pk=player_pk, tournament=tournament)
    errors: dict[str, str] = {}
    values: dict[str, object] = {
        "name": player.name,
        "email": player.email,
        "club": player.club,
        "household": player.household,
        "keep_apart": set(player.keep_apart.values_list("pk", flat=True)),
    }
    if request.method == "POST":
        chosen = [i for i in (_int(v) for v in request.POST.getlist("keep_apart")) if i is not None]
        values = {
            **{f: request.POST.get(f, "") for f in ("name", "email", "club", "household")},
            "keep_apart": set(chosen),
        }
        try:
            refuse_unsafe_text(request)
            refuse_unknown(request.POST, commands.PlayerEdit.FIELDS, also=DOOR_FIELDS)
            edited = commands.edit_player(player, request.POST, actor=request.user, key=form_key(request))
        except Refusal as error:
            errors = {error.field if error.field in values else "general": error.message}
        else:
            messages.success(request, edited.message)
            player.refresh_from_db()
            if "name" in edited.body["changes"] and (warning := services.twin_warning(tournament, player)):
                messages.warning(request, warning)
            return redirect(reverse("tournament-players", args=[tournament.pk]) + f"#player-{player.pk}")
    return render(
        request,
        "tournament/player_edit.html",
        {
            "tournament": tournament,
            "player": player,
            "values": values,
            "errors": errors,
            "others": tournament.players.exclude(pk=player.pk).order_by("name"),
            "history": [
                {"at": c.at, "user": c.user.get_username() if c.user else "", "said": change_words(c.changes)}
                for c in player.changes.select_related("user")[:50]
            ],
            "link": _personal_link(request, player, link.token) if (link := PrivateLink.objects.filter(player=player).first()) else "",
        },
        status=400 if errors else 200,
    )


@require_http_methods(["POST"])
def private_link(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """The head judge gives the player a new private link (`action` renew) or revokes it."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if (denied := _guard(request, tournament)) is not None:
        return denied
    player = get_object_or_404(Player.objects.select_related("tournament"), pk=player_pk, tournament=tournament)
    command = commands.revoke_private_link if request.POST.get("action") == "revoke" else commands.renew_private_link
    try:
        messages.success(request, command(player, None, actor=request.user, key=form_key(request)).message)
    except Refusal as refused:
        messages.error(request, refused.message)
    return redirect("tournament-player-edit", pk=tournament.pk, player_pk=player.pk)


def badges(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable badge per active player: name, club and a QR code of their check-in link."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if (denied := _guard(request, tournament)) is not None:
        return denied
    rows = []
    players = list(tournament.players.filter(status=Player.Status.ACTIVE).order_by("name"))
    tokens = private_links.links_for(players)
    for player in players:
        link = _personal_link(request, player, tokens[player.pk])
        rows.append(
            {
                "player": player,
                "link": link,
                "qr": segno.make(link, error="m").svg_inline(scale=3, omitsize=True),
            }
        )
    return render(request, "tournament/badges.html", {"tournament": tournament, "rows": rows})


@require_http_methods(["GET", "POST"])
def self_check_in(request: HttpRequest, player_pk: int, token: str) -> HttpResponse:
    """The player's own check-in page (from the badge's QR code or the personal link); works
    only while the head judge has self check-in open for a round."""
    player = get_object_or_404(Player.objects.select_related("tournament"), pk=player_pk)
    if not desk.token_matches(player, token):
        return render(request, "tournament/self_check_in.html", {"invalid": True}, status=404)
    open_round = desk.open_round(player.tournament)
    error = ""
    done = False
    if request.method == "POST":
        try:
            commands.self_check_in(player, token, actor=request.user, key=form_key(request))
        except Refusal as refused:
            error = refused.message
        else:
            open_round, done = desk.open_round(player.tournament), True
    checked = bool(open_round and CheckIn.objects.filter(round=open_round, player=player).exists())
    return render(
        request,
        "tournament/self_check_in.html",
        {
            "player": player,
            "tournament": player.tournament,
            "round": open_round,
            "round_label": round_label(open_round) if open_round else "",
            "checked": checked,
            "done": done,
            "error": error,
        },
        status=409 if error else 200,
    )
