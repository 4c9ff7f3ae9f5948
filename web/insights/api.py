"""The event report's API: `GET /api/tournaments/{id}/event-report/` (public, cached).

The figures the head judge writes up after the event, as JSON: the keys the report promises
(`tournament`, `provisional`, `players`, `games`, `turns_mean`, `by_size`, `results`,
`adjudicated`, `factions`, `final`) and more beside them. Means and rates are decimal strings
rounded to two places; null where there is nothing to average.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from insights import presenters, services
from tournament.models import Tournament


def _decimal(help_text: str) -> serializers.CharField:
    return serializers.CharField(allow_null=True, help_text=help_text)


class EventReportTableSizeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    games = serializers.IntegerField()
    turns_mean = _decimal("mean turns, two places; null without a game")
    hours_mean = _decimal("mean hours from the clocks, pauses excluded; null without a clock record")
    turns_median = _decimal("median turns")
    hours_median = _decimal("median hours")
    timed_games = serializers.IntegerField(help_text="games with a clock record")
    turns_distribution = serializers.DictField(child=serializers.IntegerField())


class EventReportFactionSerializer(serializers.Serializer):  # type: ignore[type-arg]
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    rate = _decimal("wins / games, two places")


_REPORT = inline_serializer(
    "EventReport",
    {
        "tournament": serializers.IntegerField(),
        "provisional": serializers.BooleanField(
            help_text="true until every round, the final included, is closed"
        ),
        "players": serializers.IntegerField(help_text="players who played at least one game"),
        "games": serializers.IntegerField(help_text="filed game reports, heats and final"),
        "turns_mean": _decimal("mean turns per game, two places"),
        "by_size": serializers.DictField(
            child=EventReportTableSizeSerializer(), help_text='by players at the table: "5", "6"'
        ),
        "results": serializers.DictField(
            child=serializers.IntegerField(), help_text="result kind -> games whose winners had it"
        ),
        "adjudicated": inline_serializer(
            "EventReportAdjudicated",
            {"games": serializers.IntegerField(), "rate": _decimal("adjudicated / games, two places")},
        ),
        "factions": serializers.DictField(
            child=EventReportFactionSerializer(), help_text="faction id -> games played and won"
        ),
        "final": serializers.DictField(allow_null=True, help_text="the final's seats, result and turns"),
        "format": serializers.CharField(),
        "rounds": serializers.DictField(),
        "heat_games": serializers.IntegerField(),
        "final_games": serializers.IntegerField(),
        "turns_median": _decimal("median turns per game"),
        "hours_mean": _decimal("mean hours per game with a clock record"),
        "hours_median": _decimal("median hours"),
        "timed_games": serializers.IntegerField(),
        "untimed_games": serializers.IntegerField(help_text="games without a clock record"),
        "ended_by": serializers.DictField(child=serializers.IntegerField()),
        "wins": serializers.DictField(),
        "concessions": serializers.IntegerField(),
        "dropouts": serializers.IntegerField(help_text="seats that dropped out"),
        "factions_heats": serializers.DictField(child=EventReportFactionSerializer()),
        "factions_final": serializers.DictField(child=EventReportFactionSerializer()),
        "awards_rule": serializers.CharField(allow_null=True),
        "awards_how": serializers.CharField(allow_null=True),
        "awards": serializers.ListField(child=serializers.DictField()),
        "tiebreaks": serializers.ListField(child=serializers.DictField()),
        "finalists": serializers.ListField(child=serializers.DictField()),
    },
)


class EventReportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)],
        responses={200: _REPORT, 404: OpenApiResponse(OpenApiTypes.OBJECT, description="no such tournament")},
        summary="The event report's figures",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        report = services.report_for(tournament)
        return Response(presenters.report_json(report, services.player_names(tournament, report)))
