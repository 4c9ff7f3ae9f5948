"""The head judge's outbox page (`/tournaments/{id}/outbox/`): every message the tournament
queued, sent, failed or kept, its text readable. Without `EMAIL_URL` (the venue without
internet) this is where the messages are read and passed on by hand. The messages of no
tournament (a judge's password reset) are on `/outbox/`, for superusers only."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from mail.models import Message
from tournament.models import Tournament
from web.page_helpers import guard

#: The newest messages a page lists (the counts cover all of them).
SHOWN = 200


def kind_words(kind: str) -> str:
    """What a person reads for a kind of message; an unknown kind reads as its code with spaces."""
    words = {
        "seating": _("Seating"),
        "final_qualified": _("Qualified for the final"),
        "event_report": _("Event report"),
        "password_reset": _("Password reset"),
        "registration_confirm": _("Email confirmation"),
        "registration_accepted": _("Registered"),
        "registration_waiting": _("On the waiting list"),
        "registration_moved_up": _("Moved up from the waiting list"),
    }
    return words.get(kind, kind.replace("_", " ").capitalize())


def outbox_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    if (denied := guard(request, tournament)) is not None:
        return denied
    return _page(request, Message.objects.filter(tournament_id=tournament.pk), tournament)


def installation_outbox_page(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_superuser:
        raise PermissionDenied(_("Only a superuser may read the messages of no tournament."))
    return _page(request, Message.objects.filter(tournament_id=None), None)


def _page(request: HttpRequest, messages: QuerySet[Message], tournament: Tournament | None) -> HttpResponse:
    counts = {state: 0 for state in Message.State.values}
    for state, count in _counts(messages):
        counts[state] = count
    chosen = request.GET.get("state", "")
    status = 200
    if chosen and chosen not in counts:
        status = 400
        error = _("There is no state %(state)s: choose queued, sent, failed or kept.") % {"state": repr(chosen)}
        chosen = ""
    else:
        error = ""
    shown = messages.filter(state=chosen) if chosen else messages
    rows = [
        {"message": m, "kind": kind_words(m.kind), "state": Message.State(m.state).label}
        for m in shown.order_by("-created_at", "-pk")[:SHOWN]
    ]
    states = [
        {"key": key, "label": Message.State(key).label, "count": counts[key]} for key in Message.State.values
    ]
    return render(request, "mail/outbox.html", {
        "tournament": tournament, "rows": rows, "states": states, "chosen": chosen, "error": error,
        "total": sum(counts.values()), "more": max(shown.count() - SHOWN, 0) if len(rows) == SHOWN else 0,
    }, status=status)


def _counts(messages: QuerySet[Message]) -> list[tuple[str, int]]:
    return list(messages.order_by().values("state").annotate(n=Count("pk")).values_list("state", "n"))
