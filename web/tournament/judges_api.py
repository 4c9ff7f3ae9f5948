"""Judges by their own agreement, through the API: a head judge invites an existing account to
judge a tournament's tables (and sees the invitations waiting), the invited account answers.

- `GET /api/tournaments/{id}/invitations/`: the table judges and the invitations waiting (head judges);
- `POST /api/tournaments/{id}/invitations/` `{"username"}`: invite (202; the account judges once it accepts);
- `DELETE /api/tournaments/{id}/invitations/{username}/`: withdraw an invitation not answered yet;
- `POST /api/tournaments/{id}/table-judge-accounts/` `{"username"}`: make a table judge's account
  (201, with its one-time sign-in `code`, answered this once: a retry makes nothing and shows none);
- `GET /api/account/invitations/`: the invitations waiting for the signed-in account;
- `POST /api/account/invitations/{id}/accept/` and `.../decline/`: its answer.
"""

from __future__ import annotations

from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament import commands, judges, services
from tournament.models import Tournament
from tournament.permissions import HEAD_JUDGE_ONLY, is_head_judge
from venue import sign_in_codes
from web.api_fields import body_of
from web.idempotency_api import SCHEMA_PARAMETER, SCHEMA_REUSED, answered, key_of

REFUSED = OpenApiResponse(description="refused: the message names the field; nothing written")


#: The body of an invitation and of a made account, from the commands' own declaration.
InviteIn = body_of("InviteIn", commands.Username.FIELDS)


class InvitationsView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="table judges and the invitations waiting"),
                              403: REFUSED})
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        if not is_head_judge(request.user, tournament):
            raise PermissionDenied(HEAD_JUDGE_ONLY)
        return Response({
            "table_judges": list(tournament.table_judges.order_by("username").values_list("username", flat=True)),
            "invitations": [commands.invitation_json(i) for i in judges.pending_invitations(tournament)],
        })

    @extend_schema(parameters=[SCHEMA_PARAMETER], request=InviteIn,
                   responses={202: OpenApiResponse(description="the invitation, waiting for its answer"),
                              400: REFUSED, 403: REFUSED, 422: SCHEMA_REUSED})
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        tournament = get_object_or_404(Tournament, pk=pk)
        return answered(request, commands.invite_table_judge(tournament, request.data, actor=request.user,
                                                             key=key_of(request)))


class InvitationView(APIView):
    @extend_schema(parameters=[SCHEMA_PARAMETER], request=None,
                   responses={200: OpenApiResponse(description="withdrawn"), 400: REFUSED, 403: REFUSED})
    def delete(self, request: Request, pk: int, username: str) -> HttpResponseBase:
        tournament = get_object_or_404(Tournament, pk=pk)
        return answered(request, commands.withdraw_invitation(tournament, {"username": username},
                                                              actor=request.user, key=key_of(request)))


class MyInvitationsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiResponse(description="the invitations waiting for your answer")})
    def get(self, request: Request) -> Response:
        return Response({"invitations": [commands.invitation_json(i) for i in judges.invitations_for(request.user)]})


class AnswerView(APIView):
    permission_classes = [IsAuthenticated]
    accept = True

    @extend_schema(parameters=[SCHEMA_PARAMETER], request=None,
                   responses={200: OpenApiResponse(description="the answer"), 404: REFUSED, 422: SCHEMA_REUSED})
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        command = commands.accept_invitation if self.accept else commands.decline_invitation
        return answered(request, command({"invitation": pk}, actor=request.user, key=key_of(request)))


class MadeAccountsView(APIView):
    @extend_schema(parameters=[SCHEMA_PARAMETER], request=InviteIn,
                   responses={201: OpenApiResponse(description="the account and its one-time sign-in code"),
                              400: REFUSED, 403: REFUSED, 422: SCHEMA_REUSED})
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        tournament = get_object_or_404(Tournament, pk=pk)
        done = commands.make_table_judge_account(tournament, request.data, actor=request.user, key=key_of(request))
        if done.replayed:  # the code was shown once; the head judge asks for a new one on the page
            return answered(request, done)
        user = services.made_for(tournament, done.body["username"])
        code = sign_in_codes.give_codes([user])[user.get_username()]
        response = Response({**done.body, "code": code, "code_hours": int(sign_in_codes.LIFE.total_seconds() // 3600)},
                            status=done.status)
        response["Cache-Control"] = "no-store"
        return response
