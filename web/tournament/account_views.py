"""The signed-in account's own page (`/accounts/me/`): the invitations to judge that wait for
its answer, and the tournaments it judges."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from dune.refusals import Refusal
from tournament import commands, judges
from tournament.page_text import refuse_unsafe_text, shows_text_refusals
from web.idempotency_api import form_key

#: The account page's answers, by the name its forms post (`action`).
ANSWERS = {"accept": commands.accept_invitation, "decline": commands.decline_invitation}


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def account_page(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    error = ""
    if request.method == "POST":
        refuse_unsafe_text(request)
        action = request.POST.get("action", "")
        try:
            if action not in ANSWERS:
                raise commands.Refused(_("unknown action %(action)r") % {"action": action}, field="action")
            done = ANSWERS[action](request.POST, actor=request.user, key=form_key(request))
        except Refusal as refused:
            error = refused.message
        else:
            messages.success(request, done.message)
            return redirect("account")
    user = request.user
    return render(request, "tournament/account.html", {
        "invitations": judges.invitations_for(user),
        "head_judge_of": user.head_judge_of.order_by("-created_at"),  # type: ignore[union-attr]
        "table_judge_of": user.table_judge_of.order_by("-created_at"),  # type: ignore[union-attr]
        "error": error,
    }, status=400 if error else 200)
