"""The tournament API: tournaments, players (one by one or CSV), rounds, check-in and seating.

Reads are open (players look up their table); every write is a command of
`tournament.commands` (the one the pages run), taking the JSON body and the `Idempotency-Key`
header (a retry answers the first answer), and needs a head judge of the tournament (creating
a tournament needs a staff account; its creator becomes its head judge). Refusals
answer 4xx with a message naming the field or the rule and write nothing; an unsplittable
player count answers 409 with the options the head judge chooses from.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clocks.presenters import table_states
from scoring.player_states import finalist_ids
from tournament import commands, services
from tournament.models import Player, Round, Tournament
from tournament.permissions import HEAD_JUDGE_ONLY, is_head_judge
from tournament.presenters import (
    player_detail_json,
    player_json,
    round_json,
    seating_json,
    tournament_json,
)
from tournament.round_state import with_states
from web.api_fields import body_of
from web.idempotency_api import SCHEMA_PARAMETER, SCHEMA_REUSED, answered, key_of

# The request bodies as the OpenAPI schema shows them; each command parses its body itself
# (`tournament.commands`, one parse for the page's form and the API's JSON).


#: The body of `create_tournament`, from the command's own declaration.
TournamentIn = body_of("TournamentIn", commands.NewTournament.FIELDS)


#: The body of `add_player`, from the command's own declaration.
PlayerIn = body_of("PlayerIn", commands.NewPlayer.FIELDS)


#: The body of `import_players` (a form's parts or JSON), from the command's own declaration.
ImportIn = body_of("ImportIn", commands.Import.FIELDS)


#: The body of `create_round`, from the command's own declaration.
RoundIn = body_of("RoundIn", commands.NewRound.FIELDS)


#: The body of `seat_round`, from the command's own declaration.
SeatingIn = body_of("SeatingIn", commands.Seating.FIELDS)


#: The body of `check_in` and `check_out`, from the commands' own declaration.
CheckInIn = body_of("CheckInIn", commands.CHECK_IN_FIELDS)


#: The body of `swap`, from the command's own declaration.
SwapIn = body_of("SwapIn", commands.Swap.FIELDS)


SEATING_OUT = inline_serializer(
    "Seating",
    fields={
        "round": serializers.IntegerField(),
        "state": serializers.CharField(),
        "seed": serializers.IntegerField(allow_null=True),
        "tables": serializers.ListField(child=serializers.DictField()),
        "issues": serializers.ListField(child=serializers.DictField()),
        "flags": serializers.ListField(child=serializers.CharField()),
        "waiting": serializers.ListField(child=serializers.IntegerField()),
    },
)
REFUSED = OpenApiResponse(description="refused: the message names the field or the rule; nothing written")


def _require_head_judge(request: Request, tournament: Tournament) -> None:
    if not is_head_judge(request.user, tournament):
        raise PermissionDenied(HEAD_JUDGE_ONLY)


def _round(pk: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), pk=pk)


class TournamentListView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=TournamentIn,
        responses={201: OpenApiResponse(description="the tournament"), 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request) -> HttpResponseBase:
        return answered(request, commands.create_tournament(request.data, actor=request.user, key=key_of(request)))


#: The body of `edit_tournament`, from the command's own declaration.
TournamentEditIn = body_of("TournamentEditIn", commands.TournamentEdit.FIELDS, optional=True)


class TournamentDetailView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the tournament, with its time zone")})
    def get(self, request: Request, pk: int) -> Response:
        return Response(tournament_json(get_object_or_404(Tournament, pk=pk)))

    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=TournamentEditIn,
        responses={200: OpenApiResponse(description="the tournament"), 400: REFUSED, 403: REFUSED, 409: REFUSED,
                   422: SCHEMA_REUSED},
    )
    def patch(self, request: Request, pk: int) -> HttpResponseBase:
        tournament = get_object_or_404(Tournament, pk=pk)
        return answered(request, commands.edit_tournament(tournament, request.data, actor=request.user,
                                                          key=key_of(request)))


class PlayerListView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the tournament's players")})
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        judge = is_head_judge(request.user, tournament)
        players = Player.objects.filter(tournament=tournament).order_by("name", "id")
        return Response({"players": [player_json(p, private=judge) for p in players]})

    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=PlayerIn,
        responses={201: OpenApiResponse(description="the player"), 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        tournament = get_object_or_404(Tournament, pk=pk)
        return answered(request, commands.add_player(tournament, request.data, actor=request.user, key=key_of(request)))


PLAYER_OUT = inline_serializer(
    "PlayerDetail",
    fields={
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "club": serializers.CharField(),
        "status": serializers.CharField(),
        "tournament": serializers.IntegerField(),
        "person": serializers.IntegerField(allow_null=True),
        "current": inline_serializer(
            "CurrentSeat",
            fields={
                "round": serializers.IntegerField(help_text="the round's id"),
                "table": serializers.IntegerField(help_text="the table's number in the round"),
                "seat": serializers.IntegerField(),
                "faction": serializers.CharField(allow_null=True),
            },
            allow_null=True,
        ),
    },
)


class PlayerImportView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request={"multipart/form-data": ImportIn, "application/json": ImportIn},
        responses={
            200: OpenApiResponse(description="preview rows"),
            201: OpenApiResponse(description="imported"),
            400: REFUSED,
        },
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        """A preview reads (200); an import is `tournament.commands.import_players` (201)."""
        tournament = get_object_or_404(Tournament, pk=pk)
        _require_head_judge(request, tournament)
        key = key_of(request)  # a field the import does not read is refused first
        data = request.data if isinstance(request.data, Mapping) else {}
        declared = commands.Import.FIELDS
        upload = declared["file"].read(data)
        if upload is not None:
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                return Response(
                    {"file": ["the CSV is not UTF-8 text"], "detail": "the CSV is not UTF-8 text"},
                    status=status.HTTP_400_BAD_REQUEST,
                )
        else:
            text = declared["csv"].read(data)
        if not text.strip():
            return Response(
                {
                    "file": ["send a CSV file (field 'file') or its text (field 'csv')"],
                    "detail": "no CSV given",
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        if declared["preview"].read(data):
            rows = services.preview_import(tournament, text)
            return Response(
                {
                    "rows": [r.to_dict() for r in rows],
                    "accepted": sum(r.ok for r in rows),
                    "refused": sum(not r.ok for r in rows),
                }
            )
        separate = data.getlist("separate") if hasattr(data, "getlist") else data.get("separate")
        fields = {"csv": text, "skip_refused": data.get("skip_refused"), "separate": separate}
        return answered(request, commands.import_players(tournament, fields, actor=request.user, key=key))


class RoundListView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the tournament's rounds, each with its state")})
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        rounds = with_states(tournament.rounds.order_by("number"))
        return Response({"rounds": [round_json(r) for r in rounds]})

    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=RoundIn,
        responses={201: OpenApiResponse(description="the round"), 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        tournament = get_object_or_404(Tournament, pk=pk)
        return answered(request, commands.create_round(tournament, request.data, actor=request.user, key=key_of(request)))


#: The body of `edit_round`, from the command's own declaration.
RoundEditIn = body_of("RoundEditIn", commands.RoundEdit.FIELDS, optional=True)


class RoundDetailView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the round, with its state")})
    def get(self, request: Request, pk: int) -> Response:
        return Response(round_json(_round(pk)))

    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=RoundEditIn,
        responses={200: OpenApiResponse(description="the round"), 400: REFUSED, 409: REFUSED, 422: SCHEMA_REUSED},
    )
    def patch(self, request: Request, pk: int) -> HttpResponseBase:
        return answered(request, commands.edit_round(_round(pk), request.data, actor=request.user, key=key_of(request)))

    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        responses={204: OpenApiResponse(description="deleted"), 409: REFUSED, 422: SCHEMA_REUSED},
    )
    def delete(self, request: Request, pk: int) -> Response:
        """A retry with the same key answers 204 again (the round is gone once)."""
        key = key_of(request)
        replayed = commands.round_deleted(pk, actor=request.user, key=key)
        if replayed is None:
            replayed = commands.delete_round(_round(pk), actor=request.user, key=key)
        response = Response(status=status.HTTP_204_NO_CONTENT)
        if replayed.replayed:
            response["Idempotent-Replayed"] = "true"
        return response


class CheckInView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=CheckInIn,
        responses={200: OpenApiResponse(description="checked-in player ids"), 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        """`checked_in` true (the default) checks the player in, false checks them out."""
        data = request.data if isinstance(request.data, Mapping) else {}
        command = commands.check_in if commands.CHECK_IN_FIELDS["checked_in"].read(data) else commands.check_out
        return answered(request, command(_round(pk), request.data, actor=request.user, key=key_of(request)))


class SeatingView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=SeatingIn,
        responses={
            200: SEATING_OUT,
            400: REFUSED,
            409: OpenApiResponse(description="count needs a choice: options"),
        },
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        """A final without `players` seats the finalists by the standings."""
        seated = commands.seat_round(
            _round(pk), request.data, actor=request.user, key=key_of(request),
            standing_finalists=finalist_ids,
        )
        return answered(request, seated)


class PublishView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=None,
        responses={200: SEATING_OUT, 400: REFUSED, 409: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        return answered(request, commands.publish_round(_round(pk), actor=request.user, key=key_of(request)))


class SwapView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=SwapIn,
        responses={200: SEATING_OUT, 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        return answered(request, commands.swap(_round(pk), request.data, actor=request.user, key=key_of(request)))


class TablesView(APIView):
    @extend_schema(responses={200: SEATING_OUT})
    def get(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        judge = is_head_judge(request.user, round_.tournament)
        return Response(seating_json(round_, judge=judge, states=table_states))


#: The bodies of `seat_latecomer` and `mark_no_show`, from the commands' own declarations.
LatecomerIn = body_of("LatecomerIn", commands.Latecomer.FIELDS)
NoShowIn = body_of("NoShowIn", commands.NoShowGiven.FIELDS)


NO_SHOWS_OUT = inline_serializer(
    "NoShows",
    fields={
        "round": serializers.IntegerField(),
        "no_shows": serializers.ListField(child=serializers.IntegerField()),
        "player": serializers.IntegerField(required=False),
        "table_number": serializers.IntegerField(required=False, allow_null=True),
        "warning": serializers.CharField(required=False, help_text="the table left short, with the options in words"),
    },
)


#: The bodies of the faction actions and of a finalist's pick, from the commands' own declarations.
FactionIn = body_of("FactionIn", commands.FACTION_ACTION_FIELDS)
PickIn = body_of("PickIn", commands.PICK_FIELDS)


class NoShowListView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=NoShowIn,
        responses={200: NO_SHOWS_OUT, 400: REFUSED, 403: REFUSED, 409: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        """Mark a player a no-show for the round (not a dropout): taken off their table if its game has not begun."""
        return answered(request, commands.mark_no_show(_round(pk), request.data, actor=request.user, key=key_of(request)))


class NoShowDetailView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=None,
        responses={200: NO_SHOWS_OUT, 403: REFUSED, 404: REFUSED, 422: SCHEMA_REUSED},
    )
    def delete(self, request: Request, pk: int, player: int) -> HttpResponseBase:
        """Take a no-show back (the player came: seat them as a latecomer)."""
        done = commands.clear_no_show(_round(pk), {"player": player}, actor=request.user, key=key_of(request))
        return answered(request, done)


class LatecomerView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=LatecomerIn,
        responses={200: SEATING_OUT, 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        return answered(request, commands.seat_latecomer(_round(pk), request.data, actor=request.user,
                                                         key=key_of(request)))


class FactionView(APIView):
    """WBC trades by consent (and for the undrawn faction), LoLV kept cards (0.08)."""

    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=FactionIn,
        responses={200: SEATING_OUT, 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        """`action` names the command (`tournament.commands.FACTION_ACTIONS`)."""
        round_ = _round(pk)
        key = key_of(request)  # the body read, and a field no faction action reads refused, first
        action = request.data.get("action") if isinstance(request.data, Mapping) else None
        if not isinstance(action, str) or action not in commands.FACTION_ACTIONS:  # a list is no action
            if not is_head_judge(request.user, round_.tournament):
                raise PermissionDenied(HEAD_JUDGE_ONLY)
            raise services.Refused(_("expected one of %(actions)s, not %(given)s") % {
                "actions": ", ".join(commands.FACTION_ACTIONS),
                "given": repr(action) if isinstance(action, str | int | float | type(None)) else type(action).__name__,
            }, field="action")
        command = commands.FACTION_ACTIONS[action]
        return answered(request, command(round_, request.data, actor=request.user, key=key))


class FinalPickView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=PickIn,
        responses={200: SEATING_OUT, 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        return answered(request, commands.pick_final_faction(_round(pk), request.data, actor=request.user,
                                                             key=key_of(request)))


class PlayerDetailView(APIView):
    @extend_schema(responses={200: PLAYER_OUT, 404: OpenApiResponse(description="no such player")})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("tournament"), pk=pk)
        return Response(player_detail_json(player))


#: The body of `link_person`, from the command's own declaration.
PersonLinkIn = body_of("PersonLinkIn", commands.PersonLink.FIELDS)


class PlayerPersonView(APIView):
    """A head judge links a player to an existing person, or unlinks them (with a reason)."""

    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=PersonLinkIn,
        responses={200: OpenApiResponse(description="the player and the recorded changes"), 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        player = get_object_or_404(Player.objects.select_related("tournament"), pk=pk)
        return answered(request, commands.link_person(player, request.data, actor=request.user, key=key_of(request)))
