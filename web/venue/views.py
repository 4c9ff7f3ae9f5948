"""The newest backup of a tournament, as a download for its head judges."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.models import Tournament
from venue import backups
from web.page_helpers import guard


def latest_backup(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    if (denied := guard(request, tournament)) is not None:
        return denied
    newest = backups.last_backup_safely(tournament.pk)
    if newest is None:
        raise Http404(_("No backup of this tournament has been written yet."))
    try:
        handle = newest.path.open("rb")
    except OSError:
        raise Http404(_("The last good backup cannot be read now (its folder is failing): %(path)s")
                      % {"path": newest.path}) from None
    response = FileResponse(handle, as_attachment=True, filename=newest.name, content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response
