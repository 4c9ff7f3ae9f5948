"""The clocks API: read a table's or a round's clocks; head judges change them, table judges
call the clock at their own table.

Every write is a command of `clocks.commands` (the same the clock pages call); a view only
reads the JSON body and the `Idempotency-Key` header in, and the command's answer (stored with
the key: a retry gets it back and changes nothing) or its refusal out. Every answer carries
`server_now` (the database's time) so that a page counts down from the server's time, not
the phone's.
"""

from __future__ import annotations

from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clocks import commands
from clocks.presenters import round_clocks_answer, round_timer_answer, table_clock_answer
from tournament.models import Round, Table
from web.clocks import schemas
from web.idempotency_api import SCHEMA_PARAMETER, SCHEMA_REUSED, answered, key_of

#: Larger ids cannot exist (bigint); refusing them early avoids a database range error.
MAX_ID = 2**63 - 1
#: The table actions of `POST /api/tables/{id}/clock/{action}/` (call and stop have their own paths).
TABLE_ACTIONS = [name for name in commands.TABLE_ACTIONS if name not in ("call", "stop")]
_WRITE_ANSWERS = {400: schemas.Refusal, 403: schemas.Refusal, 409: schemas.Refusal, 422: SCHEMA_REUSED}


def _table(pk: int) -> Table:
    if pk > MAX_ID:
        raise NotFound(_("No such table."))
    return get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)


def _round(pk: int) -> Round:
    if pk > MAX_ID:
        raise NotFound(_("No such round."))
    return get_object_or_404(Round.objects.select_related("tournament"), pk=pk)


def _change(request: Request, pk: int, action: str) -> HttpResponseBase:
    changed = commands.change_table_clock(_table(pk), action, request.data, actor=request.user, key=key_of(request))
    return answered(request, changed)


class TableClockView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A table's clock: state, deadlines, time left and the server's now",
        responses={200: schemas.ClockAnswer},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(table_clock_answer(_table(pk)))


class TableClockActionView(APIView):
    """POST start | pause | resume | extend {minutes, reason} | waive {reason, all_players_agree} | finish."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="Change a table's clock (head judge; a table judge may finish)",
        parameters=[
            OpenApiParameter("action", OpenApiTypes.STR, OpenApiParameter.PATH, enum=TABLE_ACTIONS),
            SCHEMA_PARAMETER,
        ],
        request=schemas.ClockActionRequest,
        responses={200: schemas.ClockAnswer, **_WRITE_ANSWERS},
    )
    def post(self, request: Request, pk: int, action: str) -> HttpResponseBase:
        return _change(request, pk, action)


class TableCallView(APIView):
    """POST {action: bid|turn|battle_plan|nexus|diplomacy, faction} starts a called clock."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="Call the clock for a player's current action (WBC time guidelines)",
        parameters=[SCHEMA_PARAMETER],
        request=schemas.CallRequest,
        responses={201: schemas.CallAnswer, **_WRITE_ANSWERS},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        return _change(request, pk, "call")


class TableCallStopView(APIView):
    """POST {timer} stops a called clock when the player acted in time."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="Stop a called clock: the player acted in time",
        parameters=[SCHEMA_PARAMETER],
        request=schemas.StopCallRequest,
        responses={200: schemas.ClockAnswer, **_WRITE_ANSWERS},
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        return _change(request, pk, "stop")


class RoundClocksView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="Every table clock of a round, with the server's now",
        responses={200: schemas.RoundClocksAnswer},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(round_clocks_answer(_round(pk)))


class RoundTimerView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="What a round's projector timer shows: the room's time up and the tables ending otherwise",
        responses={200: schemas.RoundTimerAnswer},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(round_timer_answer(_round(pk)))


class RoundClocksActionView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="Start, pause or resume every table clock of a round (head judge)",
        parameters=[
            OpenApiParameter("action", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(commands.ROUND_ACTIONS)),
            SCHEMA_PARAMETER,
        ],
        request=schemas.RoundActionRequest,
        responses={200: schemas.RoundClocksAnswer, **_WRITE_ANSWERS},
    )
    def post(self, request: Request, pk: int, action: str) -> HttpResponseBase:
        changed = commands.change_round_clocks(_round(pk), action, request.data, actor=request.user, key=key_of(request))
        return answered(request, changed)
