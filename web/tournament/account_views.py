"""The signed-in account's own page (`/accounts/me/`): the invitations to judge that wait for
its answer, the tournaments it judges, and a head judge's API token (tournament/api_tokens.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from dune.refusals import Refusal
from tournament import api_tokens, commands, judges
from web.idempotency_api import form_key
from web.page_text import refuse_unsafe_text, shows_text_refusals

#: The account page's answers, by the name its forms post (`action`).
ANSWERS = {"accept": commands.accept_invitation, "decline": commands.decline_invitation}
TOKEN_ACTIONS = ("make_token", "revoke_token")


@shows_text_refusals
@require_http_methods(["GET", "POST"])
def account_page(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    error, shown_token = "", ""
    if request.method == "POST":
        refuse_unsafe_text(request)
        action = request.POST.get("action", "")
        if action in TOKEN_ACTIONS and not api_tokens.may_hold_token(request.user):
            error = _("API tokens are for head judges: a table judge's phone signs in with its password.")
        elif action == "make_token":
            shown_token = api_tokens.make_token(request.user)  # shown in this answer only
        elif action == "revoke_token":
            if api_tokens.revoke_token(request.user):
                messages.success(request, _("Your API token is revoked: a program using it is refused from now on."))
            return redirect("account")
        elif action not in ANSWERS:
            error = _("unknown action %(action)r") % {"action": action}
        else:
            try:
                done = ANSWERS[action](request.POST, actor=request.user, key=form_key(request))
            except Refusal as refused:
                error = refused.message
            else:
                messages.success(request, done.message)
                return redirect("account")
    user = request.user
    response = render(request, "tournament/account.html", {
        "may_hold_token": api_tokens.may_hold_token(user),
        "token": api_tokens.token_of(user),
        "shown_token": shown_token,
        "invitations": judges.invitations_for(user),
        "head_judge_of": user.head_judge_of.order_by("-created_at"),  # type: ignore[union-attr]
        "table_judge_of": user.table_judge_of.order_by("-created_at"),  # type: ignore[union-attr]
        "error": error,
    }, status=400 if error else 200)
    response["Cache-Control"] = "no-store"  # a token shown once is kept by no cache
    return response
