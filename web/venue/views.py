"""The newest backup of a tournament, as a download for its head judges."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournament.models import Tournament
from tournament.page_helpers import guard
from venue import backups


def latest_backup(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    if (denied := guard(request, tournament)) is not None:
        return denied
    newest = backups.last_backup(tournament.pk)
    if newest is None:
        raise Http404("No backup of this tournament has been written yet.")
    response = FileResponse(newest.path.open("rb"), as_attachment=True, filename=newest.name,
                            content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response
