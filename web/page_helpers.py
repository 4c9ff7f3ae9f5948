"""What the tournament's pages share: who may open a head judge's page, reading ids from forms,
and the round a URL names."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from dune.text_rules import whole_number
from tournament.models import Round, Tournament
from tournament.permissions import is_head_judge


def guard(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """Send a visitor to sign in, refuse a signed-in non-judge (403)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_head_judge(request.user, tournament):
        raise PermissionDenied(_("Only a head judge of this tournament may open this page."))
    return None


def round_or_404(pk: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), pk=pk)


def parse_int(value: Any) -> int | None:
    """A whole number from a query string or form (the one parser: `text_rules.whole_number`)."""
    return whole_number(value, signed=True)
