"""Scoring's API.

- `GET /api/tables/{id}/report/`: the table's filed report (404 when none).
- `POST /api/tables/{id}/report/`: file it; 201 with the stored report; 400 naming the row,
  field and rule (nothing saved); 403 unless the user judges this table or is a head judge;
  409 when a filed report is locked.
- `GET /api/tables/{id}/report/draft/`: the report form's starting values, in the shape the
  POST takes: the filed report's once one is filed (also after a reopen), the game record's
  before the first filing (`X-Draft-Source: filed` or `game_record`). Table judges only.
- `POST /api/tables/{id}/report/reopen/` with `{"reason"}`: head judges only.
- `GET /api/tournaments/{id}/standings/`, `/finalists/`, `/awards/`: public, cached.
"""

from __future__ import annotations

from typing import Any

from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clocks import services as clock_services
from dune.points import Finalists
from scoring import commands, corrections, presenters, services
from scoring.models import GameReport
from scoring.player_states import final_lists, player_states
from scoring.presenters import state_json
from tournament.models import Table, Tournament
from tournament.permissions import can_judge_table, is_head_judge
from web import idempotency_api
from web.api_fields import body_of

#: The body of `file_report`, from the command's own declaration (the form's starting values too).
_REPORT_POST = body_of("GameReportPost", commands.REPORT_FIELDS)
_REPORT = inline_serializer(
    "FiledGameReport",
    {
        "table": serializers.IntegerField(),
        "state": serializers.ChoiceField(choices=["filed", "reopened"]),
        "locked": serializers.BooleanField(),
        "version": serializers.IntegerField(),
        "filed_at": serializers.DateTimeField(),
        "filed_by": serializers.IntegerField(allow_null=True),
        "reopened_at": serializers.DateTimeField(allow_null=True),
        "reopen_reason": serializers.CharField(allow_blank=True),
        "report": serializers.JSONField(
            help_text="the validated report as stored (tokens and pp as exact decimals)"
        ),
        "history": serializers.JSONField(
            required=False,
            help_text="GET only: each filing and reopening (action, version, by, at, reason) and, for a "
            "refiling, the fields it changed (field, player, before, after)",
        ),
        "game_record_differences": serializers.JSONField(
            required=False, help_text="GET only: where the recorded game says otherwise than the report"
        ),
    },
)
_REFUSAL = inline_serializer(
    "GameReportRefusal",
    {
        "detail": serializers.CharField(),
        "rule": serializers.CharField(),
        "field": serializers.CharField(),
        "player": serializers.JSONField(allow_null=True),
        "errors": serializers.JSONField(required=False),
    },
)
_STANDINGS = inline_serializer(
    "Standings",
    {
        "format": serializers.CharField(),
        "provisional": serializers.BooleanField(
            help_text="true until every heat's reports are filed: nobody is a finalist before then"
        ),
        "tiebreak_labels": serializers.ListField(child=serializers.CharField()),
        "standings": inline_serializer(
            "StandingRow",
            many=True,
            fields={
                "rank": serializers.IntegerField(),
                "tied": serializers.BooleanField(),
                "player": serializers.IntegerField(),
                "points": serializers.FloatField(),
                "tiebreak": serializers.ListField(child=serializers.FloatField()),
                "disqualified": serializers.BooleanField(),
                "games": serializers.IntegerField(),
                "results": serializers.ListField(child=serializers.CharField()),
                "explanation": serializers.CharField(),
            },
        ),
        "problems": serializers.ListField(
            child=serializers.CharField(),
            required=False,
            help_text="head judges only: filed reports left out of the standings, and why",
        ),
    },
)
_FINALISTS = inline_serializer(
    "Finalists",
    {
        "finalists": serializers.ListField(
            child=serializers.IntegerField(),
            help_text="as the players' states say: once the final is seated, who sits at its table; "
            "before, the qualifiers still eligible; none while the standings are provisional",
        ),
        "alternates": serializers.ListField(
            child=serializers.IntegerField(), help_text="the alternates still waiting, by their number"
        ),
        "drawn_by_lot": serializers.ListField(child=serializers.IntegerField()),
        "placings": serializers.JSONField(
            required=False, help_text="WBC final placings once the final is filed"
        ),
    },
)
_AWARDS = inline_serializer(
    "BestFactionAwards",
    {
        "format": serializers.CharField(),
        "measure": serializers.CharField(help_text="how a game is measured (the format's awards.measure)"),
        "detail": serializers.CharField(required=False),
        "awards": inline_serializer(
            "BestFactionAward",
            many=True,
            fields={
                "faction": serializers.CharField(),
                "player": serializers.IntegerField(),
                "score": serializers.FloatField(help_text="the game's score by the format's award measure, 3 decimals"),
                "score_exact": serializers.CharField(help_text="the exact fraction"),
                "pp": serializers.FloatField(),
                "strongholds": serializers.IntegerField(help_text="strongholds held at the end of the game"),
                "measure": serializers.CharField(help_text="the award measure (awards.measure of the format)"),
                "figure": serializers.FloatField(help_text="the game's figure behind the score, in `unit`"),
                "unit": serializers.CharField(help_text="PP or strongholds"),
                "turns": serializers.IntegerField(),
                "players": serializers.IntegerField(),
                "round": serializers.IntegerField(),
                "table": serializers.IntegerField(),
                "tied": serializers.BooleanField(),
            },
        ),
    },
)
_ID = [OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)]
_NOT_FOUND = OpenApiResponse(OpenApiTypes.OBJECT, description="no such table, tournament or report")


def _table(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)


class ReportView(APIView):
    @extend_schema(
        parameters=_ID, responses={200: _REPORT, 404: _NOT_FOUND}, summary="A table's filed game report"
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        report = GameReport.objects.filter(table=table).first()
        if report is None:
            return Response(
                {"detail": f"no report has been filed for table {pk}"}, status=status.HTTP_404_NOT_FOUND
            )
        body = presenters.report_json(report)
        body["history"] = corrections.history_json(corrections.report_history(report))
        body["game_record_differences"] = [c.to_dict() for c in corrections.report_draft(table, report=report).differences]
        return Response(body)

    @extend_schema(
        parameters=[*_ID, idempotency_api.SCHEMA_PARAMETER],
        request=_REPORT_POST,
        responses={
            201: OpenApiResponse(_REPORT, description="filed and locked"),
            400: OpenApiResponse(
                _REFUSAL, description="refused: the row (player), field and rule; nothing saved"
            ),
            403: OpenApiResponse(OpenApiTypes.OBJECT, description="not this table's judge or a head judge"),
            404: _NOT_FOUND,
            409: OpenApiResponse(
                _REFUSAL, description="already filed and locked; a head judge must reopen it"
            ),
            422: idempotency_api.SCHEMA_REUSED,
        },
        summary="File a table's game report (validated by the tournament's format)",
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        table = _table(pk)
        # Refusals (locked, rejected, not a judge of this table, a reused key) go to the API's
        # one handler (config.api_errors): nothing is filed and nothing remembered under the key.
        filed = commands.file_report(table, request.data, actor=request.user, key=idempotency_api.key_of(request),
                                     clock_ran_out=clock_services.ran_out(table))
        return idempotency_api.answered(request, filed)


class ReportDraftView(APIView):
    @extend_schema(
        parameters=_ID,
        responses={
            200: OpenApiResponse(_REPORT_POST, description="the form's starting values"),
            403: OpenApiResponse(OpenApiTypes.OBJECT, description="not this table's judge or a head judge"),
            404: _NOT_FOUND,
        },
        summary="A table's report form's starting values (the filed report's once filed)",
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        if not can_judge_table(request.user, table):
            return Response(
                {"detail": _("only this table's judge or a head judge sees its report form")},
                status=status.HTTP_403_FORBIDDEN,
            )
        draft = corrections.report_draft(table)
        response = Response(draft.report)
        response["X-Draft-Source"] = draft.source
        return response


class ReopenReportView(APIView):
    @extend_schema(
        request=body_of("ReopenReport", commands.REOPEN_FIELDS),
        parameters=[*_ID, idempotency_api.SCHEMA_PARAMETER],
        responses={
            200: _REPORT,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="no reason, or not locked"),
            403: OpenApiResponse(OpenApiTypes.OBJECT, description="head judges only"),
            404: _NOT_FOUND,
        },
        summary="Reopen a filed report for correction (head judge, with a reason)",
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        table = _table(pk)
        report = get_object_or_404(GameReport.objects.select_related("tournament", "table"), table=table)
        reopened = commands.reopen_report(report, request.data, actor=request.user, key=idempotency_api.key_of(request))
        return idempotency_api.answered(request, reopened)


class StandingsView(APIView):
    @extend_schema(parameters=_ID, responses={200: _STANDINGS, 404: _NOT_FOUND}, summary="Standings in order")
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        scoring = services.scoring_for(tournament)
        body: dict[str, Any] = {
            "format": scoring.format,
            "provisional": services.standings_provisional(tournament),
            "tiebreak_labels": list(scoring.labels),
            "standings": [presenters.standing_json(r) for r in scoring.standings],
        }
        if is_head_judge(request.user, tournament):
            body["problems"] = list(scoring.problems)
        return Response(body)


class FinalistsView(APIView):
    @extend_schema(
        parameters=_ID,
        responses={200: _FINALISTS, 404: _NOT_FOUND},
        summary="Finalists and alternates in order",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        scoring = services.scoring_for(tournament)
        states = player_states(tournament, scoring=scoring)
        finalists, alternates = final_lists(tournament, states, scoring=scoring)
        lists = Finalists(
            finalists=tuple(finalists), alternates=tuple(alternates), drawn_by_lot=scoring.finalists.drawn_by_lot
        )
        body = presenters.finalists_json(lists, scoring.placings)
        body["states"] = [state_json(s) for s in states.values()]
        return Response(body)


class AwardsView(APIView):
    @extend_schema(
        parameters=_ID, responses={200: _AWARDS, 404: _NOT_FOUND}, summary="Best-faction awards by the format's measure"
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        scoring = services.awards_board_for(tournament)
        body: dict[str, Any] = {
            "format": scoring.format,
            "measure": tournament.rules.award_measure.key,
            "awards": [presenters.award_json(a) for a in scoring.awards],
        }
        if not tournament.rules.awards:
            body["detail"] = f"{tournament.rules.name} names no best-faction awards"
        return Response(body)
