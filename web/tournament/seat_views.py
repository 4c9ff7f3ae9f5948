"""Seating a heat: one page and one small view per thing a head judge does to it.

`seat_page` shows the round; each action (draw, publish, swap, latecomer, judge, the WBC
trades and the LoLV kept cards) is its own POST view that runs one command of
`tournament.commands` (the one the API runs, with the form's idempotency key) and redirects
back to the page at the control it came from (POST/redirect/GET). A refusal re-renders the
page with the message next to that control and what was chosen still chosen. The kept-card
grid also answers htmx requests with just the table it changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from dune.refusals import Refusal
from dune.seating import small_table_options
from dune.seating_words import choice_words, flag_words, option_words
from foundation.commands import DOOR_FIELDS, refuse_unknown, yes
from foundation.core_words import core_refusal
from tournament import commands, services
from tournament.models import Player, Round, SeatingAudit, Table
from tournament.permissions import can_judge_table
from tournament.presenters import FACTION_LABELS, round_label, tables_for_page
from tournament.round_state import FINISHED, round_state
from web.idempotency_api import form_key
from web.page_address import post_only
from web.page_helpers import guard as _guard
from web.page_helpers import parse_int as _int
from web.page_helpers import round_or_404 as _round
from web.page_text import refuse_unsafe_text, shows_text_refusals


def _key(request: HttpRequest) -> str | None:
    """The form's idempotency key (`{% command_key %}`): a second tap answers the first."""
    return form_key(request)


#: Which fields each action's form shows: a refusal naming another field is shown at the
#: form's top instead, still next to the control that caused it.
FORM_FIELDS = {
    "draw": ("seed", "reason", "small_tables", "players"),
    "publish": ("factions", "round"),
    "swap": ("player", "reason"),
    "latecomer": ("player", "reason"),
    "no_show": ("player", "reason"),
    "judge": ("judge",),
    "trade": ("player", "other", "consent"),
    "take_undrawn": ("player", "faction"),
    "keep": ("player", "faction"),
}


def _remembered_size(round_: Round) -> str:
    """The size choice made at the last seating, while it still fits the checked-in count."""
    sizes = round_.tournament.rules.table_sizes
    offered = {o.key for o in small_table_options(len(services.checked_in_ids(round_)), sizes)}
    return round_.small_tables if round_.small_tables in offered else ""


def _page(
    request: HttpRequest,
    round_: Round,
    *,
    failed: str = "",
    error: Refusal | None = None,
    status: int = 200,
) -> HttpResponse:
    """The seating page, with a refused action's message next to its control.

    Long because it lists every name the seating page's template reads.
    """
    tournament = round_.tournament
    tables = tables_for_page(round_)
    seated_ids = {row["player"].pk for t in tables for row in t["seats"]}
    names = dict(tournament.players.values_list("pk", "name"))
    errors: dict[str, str] = {}
    options: list[dict[str, Any]] = []
    if error is not None:
        shown = FORM_FIELDS.get(failed, ())
        errors = dict.fromkeys((*shown, "form"), "")
        errors[error.field if error.field in shown else "form"] = error.message
        extra = getattr(error, "extra", {})
        options = [{**o, "words": option_words(o, translation)} for o in extra.get("options", [])]
        if options:
            errors["small_tables"] = _(
                "%(count)s players cannot all sit at tables of 5 or 6. Choose how to %(choice)s."
            ) % {"count": extra.get("count"), "choice": choice_words(int(extra.get("count") or 0), options, translation)}
    remembered = _remembered_size(round_)
    return render(
        request,
        "tournament/seat_round.html",
        {
            "round": round_,
            "label": round_label(round_),
            "tournament": tournament,
            "tables": tables,
            "failed": failed,
            "errors": errors,
            "options": options,
            "values": request.POST if failed else {},
            "remembered": remembered,
            "remembered_words": option_words({"key": remembered}, translation) if remembered else "",
            "checked_in": len(services.checked_in_ids(round_)),
            "presence": services.presence(round_),
            # A closed round's seating is history: no control that would change it is offered.
            "closed": round_state(round_).key == FINISHED,
            "table_judges": tournament.table_judges.order_by("username"),
            "judge_action": reverse("tournament-seat-judge", args=[round_.pk]),
            # The planner's own sentences, naming the players, in the reader's language.
            "issues": [core_refusal(str(i.get("message", ""))) for i in round_.seating_issues or ()],
            "flags": [flag_words(f, translation) for f in round_.seating_flags or ()],
            "waiting": [names.get(p, p) for p in round_.waiting or ()],
            "missing": [t for t in tables if t["missing"]],
            # Players choose among dealt cards (LoLV) rather than trading drawn factions (WBC).
            "deals_cards": tournament.rules.deals_cards,
            "seated": sorted(
                (
                    {"pk": row["player"].pk, "name": row["player"].name, "table": t["table"].number}
                    for t in tables
                    for row in t["seats"]
                ),
                key=lambda r: (r["name"].casefold(), r["pk"]),
            ),
            # The undrawn faction is one of the format's own factions (WBC: the six classic ones).
            "faction_choices": [(f, FACTION_LABELS[f]) for f in tournament.rules.factions],
            "faction_rule": tournament.rules.faction_rule,
            "latecomers": tournament.players.filter(status=Player.Status.ACTIVE)
            .exclude(pk__in=seated_ids)
            .order_by("name"),
            "audit": SeatingAudit.objects.filter(round=round_)
            .select_related("user")
            .order_by("-at", "-id")[:20],
        },
        status=status,
    )


@require_GET
def seat_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat a round: draw, check the tables, record factions, publish; then swaps and latecomers."""
    round_ = _round(pk)
    if (denied := _guard(request, round_.tournament)) is not None:
        return denied
    if round_.kind == Round.Kind.FINAL:
        return redirect("tournament-final", pk=round_.pk)
    return _page(request, round_)


def _action(
    name: str, anchor: str
) -> Callable[[Callable[[HttpRequest, Round], str]], Callable[..., HttpResponse]]:
    """Turn `do(request, round_) -> message` into a head judge's POST view of the seating page."""

    def wrap(do: Callable[[HttpRequest, Round], str]) -> Callable[..., HttpResponse]:
        @shows_text_refusals
        @post_only(lambda request, pk: reverse("tournament-seat-round", args=[pk]))
        def view(request: HttpRequest, pk: int) -> HttpResponse:
            round_ = _round(pk)
            if (denied := _guard(request, round_.tournament)) is not None:
                return denied
            try:
                refuse_unsafe_text(request)
                done = do(request, round_)
            except Refusal as error:
                round_.refresh_from_db()
                return _page(request, round_, failed=name, error=error, status=error.status)
            messages.success(request, done)
            return redirect(reverse("tournament-seat-round", args=[round_.pk]) + f"#{anchor}")

        view.__name__ = view.__qualname__ = f"seat_{name}"
        view.__doc__ = do.__doc__
        return view

    return wrap


@_action("draw", "seating")
def seat_draw(request: HttpRequest, round_: Round) -> str:
    """Seat the checked-in players (or reseat with a new draw), keeping the size choice made before."""
    refuse_unknown(request.POST, commands.Seating.FIELDS, also=DOOR_FIELDS)
    fields = {
        "seed": request.POST.get("seed", ""),
        "reason": request.POST.get("reason", ""),
        "small_tables": request.POST.get("small_tables") or _remembered_size(round_) or None,
    }
    return commands.seat_round(round_, fields, actor=request.user, key=_key(request)).message


@_action("publish", "seating")
def seat_publish(request: HttpRequest, round_: Round) -> str:
    """Publish the seating once every seat has its faction."""
    refuse_unknown(request.POST, commands.Nothing.FIELDS, also=DOOR_FIELDS | {"action"})
    return commands.publish_round(round_, actor=request.user, key=_key(request)).message


@_action("swap", "swap")
def seat_swap(request: HttpRequest, round_: Round) -> str:
    """Swap two players' places (and factions)."""
    refuse_unknown(request.POST, commands.Swap.FIELDS, also=DOOR_FIELDS)
    return commands.swap(round_, request.POST, actor=request.user, key=_key(request)).message


@_action("latecomer", "latecomer")
def seat_latecomer(request: HttpRequest, round_: Round) -> str:
    """Seat a latecomer at a table of fewer than six."""
    refuse_unknown(request.POST, commands.Latecomer.FIELDS, also=DOOR_FIELDS)
    return commands.seat_latecomer(round_, request.POST, actor=request.user, key=_key(request)).message


@_action("no_show", "no-show")
def seat_no_show(request: HttpRequest, round_: Round) -> str:
    """Take a player who did not come off their table (a no-show for the round, not a dropout)."""
    refuse_unknown(request.POST, commands.NoShowGiven.FIELDS, also=DOOR_FIELDS)
    return commands.mark_no_show(round_, request.POST, actor=request.user, key=_key(request)).message


@_action("judge", "judges-heading")
def seat_judge(request: HttpRequest, round_: Round) -> str:
    """Put a table judge at a table (an empty name frees it for every table judge)."""
    refuse_unknown(request.POST, commands.TableJudge.FIELDS, also=DOOR_FIELDS | {"action"})
    return commands.assign_table_judge(round_, request.POST, actor=request.user, key=_key(request)).message


def _faction_form(request: HttpRequest) -> dict[str, Any]:
    """A faction form's fields as the command declares them (`commands.FACTION_CHANGE_FIELDS`),
    read by it; the form's own "consent" box says who consents. Refuses any other field."""
    refuse_unknown(request.POST, commands.FACTION_CHANGE_FIELDS, also=DOOR_FIELDS | {"consent"})
    return {name: request.POST[name] for name in ("player", "other", "faction") if name in request.POST}


@_action("trade", "factions")
def seat_trade(request: HttpRequest, round_: Round) -> str:
    """WBC house rules: two players trade factions by mutual consent."""
    fields = _faction_form(request)
    both = [_int(request.POST.get("player")) or 0, _int(request.POST.get("other")) or 0]
    fields["consenting"] = both if yes(request.POST.get("consent")) else []
    return commands.trade(round_, fields, actor=request.user, key=_key(request)).message


@_action("take_undrawn", "factions")
def seat_take_undrawn(request: HttpRequest, round_: Round) -> str:
    """WBC: at a table of five a player takes the undrawn faction if everyone consents."""
    fields = _faction_form(request)
    player = _int(request.POST.get("player")) or 0
    table = round_.tables.filter(seats__player_id=player).first()
    fields["consenting"] = (
        list(table.seats.values_list("player_id", flat=True))
        if table and yes(request.POST.get("consent"))
        else []
    )
    return commands.take_undrawn(round_, fields, actor=request.user, key=_key(request)).message


# ----------------------------------------------------------------------------- LoLV kept cards


def _keep_context(request: HttpRequest, table: Table, **extra: Any) -> dict[str, Any]:
    tables = tables_for_page(table.round)
    row = next(t for t in tables if t["table"].pk == table.pk)
    tournament = table.round.tournament
    return {
        "t": row,
        # The seat page's publish block, sent with the table so that "not ready to publish"
        # clears as soon as the last kept card is recorded.
        "missing": [t for t in tables if t["missing"]],
        "round": table.round,
        "tournament": tournament,
        "faction_rule": tournament.rules.faction_rule,
        **extra,
    }


def keep_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """LoLV 0.08 at one table: each player's two dealt cards as two buttons; a tap records the
    card kept. The head judge and the table's own judge record it; an htmx request gets the
    table back (with the message next to the player's row), a plain form the page."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_judge_table(request.user, table):
        raise PermissionDenied(_("Only the head judge or this table's judge records the kept cards."))
    status, context = 200, {}
    if request.method == "POST":
        player = _int(request.POST.get("player")) or 0
        faction = request.POST.get("faction", "")
        try:
            refuse_unknown(request.POST, commands.FACTION_CHANGE_FIELDS, also=DOOR_FIELDS | {"next"})
            commands.keep_card(
                table.round, {"player": player, "faction": faction}, actor=request.user, key=_key(request), table=table
            )
        except Refusal as error:
            # Next to the player's row; under the table for a player who does not sit there.
            seated = table.seats.filter(player_id=player).exists()
            status, context = error.status, {"error": error.message, "error_player": player if seated else 0}
        else:
            name = table.round.tournament.players.filter(pk=player).values_list("name", flat=True).first()
            done = f"{name} keeps {FACTION_LABELS.get(faction, faction)}."
            if not request.htmx:
                messages.success(request, done)
                back = request.POST.get("next") == "table"
                target = (
                    reverse("tournament-keep-cards", args=[table.pk])
                    if back
                    else reverse("tournament-seat-round", args=[table.round_id])
                    + f"#keep-table-{table.number}"
                )
                return redirect(target)
            context = {"done": done, "done_player": player}
    if request.htmx:
        on_own_page = request.POST.get("next") == "table"
        return render(
            request,
            "tournament/_keep_table.html",
            _keep_context(request, table, page=on_own_page, **context),
            status=status,
        )
    return render(
        request,
        "tournament/keep_cards.html",
        _keep_context(request, table, page=True, **context),
        status=status,
    )
