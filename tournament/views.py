"""Head-judge and public pages of a tournament."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournament.models import Tournament


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    rounds = tournament.rounds.all()
    return render(request, "tournament/detail.html", {"tournament": tournament, "rounds": rounds})
