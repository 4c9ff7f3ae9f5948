"""The tournament API: tournaments, players (one by one or CSV), rounds, check-in and seating.

Reads are open (players look up their table); writes need a head judge of the tournament
(creating a tournament needs a staff account; its creator becomes its head judge). Refusals
answer 4xx with a message naming the field or the rule and write nothing; an unsplittable
player count answers 409 with the options the head judge chooses from.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dune.formats import FORMATS
from scoring import services as scoring
from tournament import people, services
from tournament.models import MAX_SEED, Player, Round, Tournament
from tournament.permissions import is_head_judge
from tournament.presenters import (
    person_link_json,
    player_detail_json,
    player_json,
    round_json,
    seating_json,
    tournament_json,
)
from tournament.round_state import with_states


class TournamentIn(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    format = serializers.ChoiceField(choices=list(FORMATS))
    format_changes = serializers.JSONField(
        required=False,
        default=None,
        help_text='fields of the preset\'s document the event changes, e.g. {"rounds.heat.hours": 4}',
    )
    series = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="the series this tournament is an edition of"
    )
    time_zone = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=64,
        help_text="where it is played: an IANA name such as America/Los_Angeles (default: the platform's zone)",
    )


class PlayerIn(serializers.Serializer):
    name = serializers.CharField(max_length=120, allow_blank=True)
    email = serializers.CharField(required=False, allow_blank=True, default="")
    club = serializers.CharField(required=False, allow_blank=True, default="", max_length=120)
    household = serializers.CharField(required=False, allow_blank=True, default="", max_length=120)


class ImportIn(serializers.Serializer):
    file = serializers.FileField(required=False, help_text="CSV with columns name, email, club")
    csv = serializers.CharField(
        required=False, allow_blank=True, help_text="the CSV as text instead of a file"
    )
    preview = serializers.BooleanField(required=False, default=False)
    skip_refused = serializers.BooleanField(required=False, default=False)
    separate = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=list,
        help_text="CSV lines not to link to the person their email names (a different person)",
    )


class RoundIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["heat", "final"])
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class SeatingIn(serializers.Serializer):
    seed = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=MAX_SEED)
    players = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_null=True, default=None
    )
    small_tables = serializers.CharField(required=False, allow_blank=True, allow_null=True, default=None)
    reason = serializers.CharField(required=False, allow_blank=True, default="")
    alternates = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
    absent = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)


class CheckInIn(serializers.Serializer):
    player = serializers.IntegerField()
    checked_in = serializers.BooleanField(required=False, default=True)


class SwapIn(serializers.Serializer):
    first = serializers.IntegerField()
    second = serializers.IntegerField()
    reason = serializers.CharField(required=False, allow_blank=True, default="")


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


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _require_head_judge(request: Request, tournament: Tournament) -> None:
    if not is_head_judge(request.user, tournament):
        raise PermissionDenied("Only a head judge of this tournament may change it.")


def _round(pk: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), pk=pk)


class TournamentListView(APIView):
    @extend_schema(
        request=TournamentIn, responses={201: OpenApiResponse(description="the tournament"), 400: REFUSED}
    )
    def post(self, request: Request) -> Response:
        if not getattr(request.user, "is_staff", False):
            raise PermissionDenied("Creating a tournament needs a head judge's (staff) account.")
        data = _valid(TournamentIn, request)
        tournament = services.create_tournament(
            name=data["name"],
            format=data["format"],
            user=request.user,
            series=data["series"],
            time_zone=data["time_zone"],
            format_changes=data["format_changes"],
        )
        return Response(tournament_json(tournament), status=status.HTTP_201_CREATED)


class TournamentEditIn(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=200, help_text="a new name")
    time_zone = serializers.CharField(
        required=False, max_length=64, help_text="another IANA zone; rounds not yet under way keep their wall-clock start"
    )
    series = serializers.IntegerField(
        required=False, help_text="a series of the same format you own: the tournament becomes an edition of it"
    )


class TournamentDetailView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the tournament, with its time zone")})
    def get(self, request: Request, pk: int) -> Response:
        return Response(tournament_json(get_object_or_404(Tournament, pk=pk)))

    @extend_schema(
        request=TournamentEditIn,
        responses={200: OpenApiResponse(description="the tournament"), 400: REFUSED, 403: REFUSED, 409: REFUSED},
    )
    def patch(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        _require_head_judge(request, tournament)
        data = _valid(TournamentEditIn, request)
        with transaction.atomic():
            if "series" in data:
                services.join_series(tournament, data["series"], user=request.user)
            if "name" in data or "time_zone" in data:
                services.edit_tournament(tournament, name=data.get("name"), time_zone=data.get("time_zone"))
        tournament.refresh_from_db()
        return Response(tournament_json(tournament))


class PlayerListView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the tournament's players")})
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        judge = is_head_judge(request.user, tournament)
        players = Player.objects.filter(tournament=tournament).order_by("name", "id")
        return Response({"players": [player_json(p, private=judge) for p in players]})

    @extend_schema(request=PlayerIn, responses={201: OpenApiResponse(description="the player"), 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        _require_head_judge(request, tournament)
        data = _valid(PlayerIn, request)
        player = services.add_player(tournament, **data)
        return Response(player_json(player, private=True), status=status.HTTP_201_CREATED)


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
        request={"multipart/form-data": ImportIn, "application/json": ImportIn},
        responses={
            200: OpenApiResponse(description="preview rows"),
            201: OpenApiResponse(description="imported"),
            400: REFUSED,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        _require_head_judge(request, tournament)
        data = _valid(ImportIn, request)
        upload = data.get("file")
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
            text = data.get("csv") or ""
        if not text.strip():
            return Response(
                {
                    "file": ["send a CSV file (field 'file') or its text (field 'csv')"],
                    "detail": "no CSV given",
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        if data["preview"]:
            rows = services.preview_import(tournament, text)
            return Response(
                {
                    "rows": [r.to_dict() for r in rows],
                    "accepted": sum(r.ok for r in rows),
                    "refused": sum(not r.ok for r in rows),
                }
            )
        created, rows = services.import_players(
            tournament, text, skip_refused=data["skip_refused"], separate=set(data["separate"]), user=request.user
        )
        return Response(
            {
                "created": [player_json(p, private=True) for p in created],
                "rows": [r.to_dict() for r in rows],
                "refused": sum(not r.ok for r in rows),
            },
            status=status.HTTP_201_CREATED,
        )


class RoundListView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the tournament's rounds, each with its state")})
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        rounds = with_states(tournament.rounds.order_by("number"))
        return Response({"rounds": [round_json(r) for r in rounds]})

    @extend_schema(request=RoundIn, responses={201: OpenApiResponse(description="the round"), 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        _require_head_judge(request, tournament)
        data = _valid(RoundIn, request)
        round_ = services.create_round(tournament, kind=data["kind"], starts_at=data["starts_at"])
        return Response(round_json(round_), status=status.HTTP_201_CREATED)


class RoundEditIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["heat", "final"], required=False, help_text="only before it is seated")
    starts_at = serializers.DateTimeField(required=False, allow_null=True, help_text="null: no scheduled start")


class RoundDetailView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the round, with its state")})
    def get(self, request: Request, pk: int) -> Response:
        return Response(round_json(_round(pk)))

    @extend_schema(
        request=RoundEditIn,
        responses={200: OpenApiResponse(description="the round"), 400: REFUSED, 409: REFUSED},
    )
    def patch(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        data = _valid(RoundEditIn, request)
        services.edit_round(round_, kind=data.get("kind"), starts_at=data.get("starts_at", ...))
        return Response(round_json(_round(pk)))

    @extend_schema(responses={204: OpenApiResponse(description="deleted"), 409: REFUSED})
    def delete(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        services.delete_round(round_)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CheckInView(APIView):
    @extend_schema(
        request=CheckInIn, responses={200: OpenApiResponse(description="checked-in player ids"), 400: REFUSED}
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        data = _valid(CheckInIn, request)
        player = Player.objects.filter(pk=data["player"], tournament=round_.tournament).first()
        if player is None:
            return Response(
                {
                    "player": [f"no player {data['player']} in this tournament"],
                    "detail": f"no player {data['player']} in this tournament",
                },
                status=400,
            )
        if data["checked_in"]:
            services.check_in(round_, player)
        else:
            services.undo_check_in(round_, player)
        return Response({"round": round_.pk, "checked_in": services.checked_in_ids(round_)})


class SeatingView(APIView):
    @extend_schema(
        request=SeatingIn,
        responses={
            200: SEATING_OUT,
            400: REFUSED,
            409: OpenApiResponse(description="count needs a choice: options"),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        data = _valid(SeatingIn, request)
        if round_.kind == Round.Kind.FINAL:
            finalists = data["players"]
            alternates = data["alternates"]
            if finalists is None:
                finalists, suggested = scoring.finalist_ids(round_.tournament)
                alternates = alternates or suggested
            services.seat_final_round(
                round_,
                user=request.user,
                finalists=finalists,
                alternates=alternates,
                absent=data["absent"],
                seed=data["seed"],
                reason=data["reason"],
            )
        else:
            services.seat_round(
                round_,
                user=request.user,
                seed=data["seed"],
                players=data["players"],
                small_tables=data["small_tables"],
                reason=data["reason"],
            )
        round_.refresh_from_db()
        return Response(seating_json(round_, judge=True))


class PublishView(APIView):
    @extend_schema(request=None, responses={200: SEATING_OUT, 400: REFUSED, 409: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        round_ = services.publish_round(round_, user=request.user)
        return Response(seating_json(round_, judge=True))


class SwapView(APIView):
    @extend_schema(request=SwapIn, responses={200: SEATING_OUT, 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        data = _valid(SwapIn, request)
        services.swap(round_, data["first"], data["second"], user=request.user, reason=data["reason"])
        round_.refresh_from_db()
        return Response(seating_json(round_, judge=True))


class TablesView(APIView):
    @extend_schema(responses={200: SEATING_OUT})
    def get(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        return Response(seating_json(round_, judge=is_head_judge(request.user, round_.tournament)))


class LatecomerIn(serializers.Serializer):
    player = serializers.IntegerField()
    override = serializers.BooleanField(required=False, default=False)
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class FactionIn(serializers.Serializer):
    action = serializers.ChoiceField(choices=["trade", "take_undrawn", "keep"])
    player = serializers.IntegerField()
    other = serializers.IntegerField(required=False, help_text="trade: the other player")
    faction = serializers.CharField(required=False, allow_blank=True, default="")
    consenting = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)


class PickIn(serializers.Serializer):
    player = serializers.IntegerField()
    faction = serializers.CharField()


class LatecomerView(APIView):
    @extend_schema(request=LatecomerIn, responses={200: SEATING_OUT, 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        data = _valid(LatecomerIn, request)
        player = Player.objects.filter(pk=data["player"], tournament=round_.tournament).first()
        if player is None:
            message = f"no player {data['player']} in this tournament"
            return Response({"player": [message], "detail": message}, status=status.HTTP_400_BAD_REQUEST)
        services.add_latecomer(
            round_, player, user=request.user, override=data["override"], reason=data["reason"]
        )
        round_.refresh_from_db()
        return Response(seating_json(round_, judge=True))


class FactionView(APIView):
    """WBC trades by consent (and for the undrawn faction), LoLV kept cards (0.08)."""

    @extend_schema(request=FactionIn, responses={200: SEATING_OUT, 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        data = _valid(FactionIn, request)
        if data["action"] == "trade":
            if "other" not in data:
                raise services.Refused("a trade names the other player", field="other")
            services.trade(
                round_, data["player"], data["other"], consenting=data["consenting"], user=request.user
            )
        elif data["action"] == "take_undrawn":
            services.take_undrawn(
                round_, data["player"], data["faction"], consenting=data["consenting"], user=request.user
            )
        else:
            services.keep_card(round_, data["player"], data["faction"], user=request.user)
        round_.refresh_from_db()
        return Response(seating_json(round_, judge=True))


class FinalPickView(APIView):
    @extend_schema(request=PickIn, responses={200: SEATING_OUT, 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _require_head_judge(request, round_.tournament)
        data = _valid(PickIn, request)
        services.pick_final_faction(round_, data["player"], data["faction"], user=request.user)
        round_.refresh_from_db()
        return Response(seating_json(round_, judge=True))


class PlayerDetailView(APIView):
    @extend_schema(responses={200: PLAYER_OUT, 404: OpenApiResponse(description="no such player")})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("tournament"), pk=pk)
        return Response(player_detail_json(player))


class PersonLinkIn(serializers.Serializer):
    person = serializers.IntegerField(
        allow_null=True, help_text="the person to link the player to; null makes them a person of their own"
    )
    reason = serializers.CharField(allow_blank=True, max_length=2000)


class PlayerPersonView(APIView):
    """A head judge links a player to an existing person, or unlinks them (with a reason)."""

    @extend_schema(
        request=PersonLinkIn,
        responses={200: OpenApiResponse(description="the player and the recorded changes"), 400: REFUSED},
    )
    def post(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("tournament"), pk=pk)
        _require_head_judge(request, player.tournament)
        data = _valid(PersonLinkIn, request)
        if data["person"] is None:
            player = people.unlink_player(player, user=request.user, reason=data["reason"])
        else:
            player = people.link_player(player, data["person"], user=request.user, reason=data["reason"])
        return Response(
            {**player_detail_json(player), "changes": [person_link_json(c) for c in people.links_of(player)]}
        )
