"""Online registration's doors: the public page `/tournaments/{id}/register/` and its
confirmation link `/register/confirm/{token}/`, and the API `POST /api/tournaments/{id}/registrations/`
(anyone), `GET` of the same address (the head judge's list, every door's registrations) and
`POST /api/registrations/{token}/confirm/`. Every write is a command of `tournament.commands`;
too many registrations from one address answer 429 in words.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dune.refusals import Refusal
from foundation.commands import DOOR_FIELDS, refuse_unknown
from tournament import commands, registration
from tournament.models import Tournament
from tournament.permissions import HEAD_JUDGE_ONLY, is_head_judge
from web.api_fields import body_of
from web.idempotency_api import answered, form_key, key_of
from web.tournament.me_views import too_many, too_many_words


def _rate() -> int:
    """Registrations (and confirmations) one address may send per minute."""
    return int(getattr(settings, "REGISTRATION_RATE", 10))


#: The public form's fields: the registration's own declaration.
FIELDS = tuple(commands.OnlineRegistration.FIELDS)


def _throttled(request: HttpRequest) -> bool:
    return too_many(request, bucket="register", rate=_rate())


@require_http_methods(["GET", "POST"])
def register_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The public registration form; a refusal shows next to its field, keeping what was typed."""
    tournament = get_object_or_404(Tournament, pk=pk)
    errors: dict[str, str] = {}
    values: dict[str, str] = {}
    done = ""
    status = 200
    if request.method == "POST":
        values = {f: request.POST.get(f, "") for f in FIELDS}
        if _throttled(request):
            errors, status = {"general": too_many_words()}, 429
        else:
            try:
                refuse_unknown(request.POST, commands.OnlineRegistration.FIELDS, also=DOOR_FIELDS)
                done = commands.register_online(tournament, values, actor=request.user, key=form_key(request)).message
            except Refusal as refused:
                field = refused.field if refused.field in FIELDS else "general"
                errors, status = {field: refused.message}, refused.status
    closed = registration.closed_words(tournament, timezone.now())
    return render(request, "tournament/register.html", {
        "tournament": tournament, "errors": errors, "values": values, "done": done, "closed": closed,
        "full": registration.is_full(tournament), "capacity": tournament.capacity,
        "closes": (registration.moment_words(tournament, tournament.registration_closes)
                   if tournament.registration_closes else ""),
    }, status=status)


@require_http_methods(["GET", "POST"])
def confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """The confirmation link: a GET shows one button (a mail scanner opening the link confirms
    nothing); pressing it confirms the email and opens the player's private page."""
    found = registration.registration_for(token)
    if request.method == "POST":
        if _throttled(request):
            return render(request, "tournament/register_confirm.html", {"refused": too_many_words()}, status=429)
        try:
            done = commands.confirm_registration(token, actor=request.user, key=form_key(request))
        except Refusal as refused:
            return render(request, "tournament/register_confirm.html",
                          {"refused": refused.message, "found": found}, status=refused.status)
        return render(request, "tournament/register_confirm.html", {"done": done.message, "answer": done.body})
    return render(request, "tournament/register_confirm.html", {"found": found, "ask": found is not None},
                  status=200 if found is not None else 404)


# --- the API ----------------------------------------------------------------------------------


#: The body of `register_online`, from the command's own declaration.
RegistrationIn = body_of("RegistrationIn", commands.OnlineRegistration.FIELDS)


def _refused(words: str, status: int, field: str = "") -> JsonResponse:
    body: dict[str, Any] = {"detail": words}
    if field:
        body["field"] = field
    return JsonResponse(body, status=status)


class RegistrationsView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="every registration, each with its state"),
                              403: OpenApiResponse(description="not a head judge")})
    def get(self, request: Request, pk: int) -> Response:
        """The head judge's list: online registrations with their `state` (`unconfirmed`,
        `registered`, `waiting`, `withdrawn`, `refused`) and the desk's and CSV's players."""
        tournament = get_object_or_404(Tournament, pk=pk)
        if not is_head_judge(request.user, tournament):
            raise PermissionDenied(HEAD_JUDGE_ONLY)
        return Response({"registrations": registration.registrations(tournament)})

    @extend_schema(request=RegistrationIn, responses={
        201: OpenApiResponse(description="the registration, unconfirmed until its link is opened"),
        400: OpenApiResponse(description="refused: the message names the field"),
        409: OpenApiResponse(description="closed, full or already registered"),
        429: OpenApiResponse(description="too many registrations from this address")})
    def post(self, request: Request, pk: int) -> Any:
        """Register for the tournament (anyone, while its registration is open)."""
        tournament = get_object_or_404(Tournament, pk=pk)
        if _throttled(request):
            return _refused(too_many_words(), 429)
        return answered(request, commands.register_online(tournament, request.data, actor=request.user,
                                                          key=key_of(request)))

    def get_permissions(self) -> list[Any]:
        return [AllowAny()]


class ConfirmView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={200: OpenApiResponse(description="the confirmed registration"),
                                            404: OpenApiResponse(description="no such link"),
                                            409: OpenApiResponse(description="the link was used already"),
                                            410: OpenApiResponse(description="the link expired")})
    def post(self, request: Request, token: str) -> Any:
        """Confirm the registration's email (the link's token): the registrant becomes a player."""
        if _throttled(request):
            return _refused(too_many_words(), 429)
        return answered(request, commands.confirm_registration(token, actor=request.user, key=key_of(request)))
