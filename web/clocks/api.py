"""The clocks API: read a table's or a round's clocks; head judges change them, table judges
call the clock at their own table.

Every answer carries `server_now` (the database's time) so that a page counts down from the
server's time, not the phone's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import (
    NotAuthenticated,
    NotFound,
    PermissionDenied,
    ValidationError,
)
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clocks import schemas, services
from clocks.game_log import current_turn, turns_for
from clocks.models import TableClock
from clocks.presenters import clock_payload
from dune.text_rules import whole_number
from tournament.models import Round, Table
from tournament.permissions import can_judge_table, is_head_judge

TABLE_ACTIONS = ("start", "pause", "resume", "extend", "waive", "finish")
ROUND_ACTIONS = ("start", "pause", "resume")


def _need_head_judge(request: Request, tournament: Any) -> None:
    if not request.user or not request.user.is_authenticated:
        raise NotAuthenticated("Sign in as a head judge to change clocks.")
    if not is_head_judge(request.user, tournament):
        raise PermissionDenied("Only a head judge of this tournament may change its clocks.")


def _need_table_judge(request: Request, table: Table) -> None:
    if not request.user or not request.user.is_authenticated:
        raise NotAuthenticated("Sign in as a judge of this table to call the clock.")
    if not can_judge_table(request.user, table):
        raise PermissionDenied("Only this table's judge or a head judge may call the clock here.")


def _text(data: Any, name: str, *, required: bool = False, max_length: int = 500) -> str:
    value = data.get(name, "")
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError({name: [f"must be text, not {value!r}"]})
    value = value.strip()
    if required and not value:
        raise ValidationError({name: ["this field is required (it goes in the table's history)"]})
    if len(value) > max_length:
        raise ValidationError({name: [f"at most {max_length} characters"]})
    return value


def _minutes(data: Any) -> object:
    value = data.get("minutes")
    if value is None or value == "":
        raise ValidationError({"minutes": ["this field is required: whole minutes to add, e.g. 15"]})
    if isinstance(value, str):
        number = whole_number(value, signed=True)
        if number is not None:
            return number
    return value


#: Larger ids cannot exist (bigint); refusing them early avoids a database range error.
MAX_ID = 2**63 - 1


def _body(request: Request) -> Mapping[str, Any]:
    data = request.data
    if not isinstance(data, Mapping):
        raise ValidationError({"detail": f"expected a JSON object, not {type(data).__name__}"})
    return data


def _table(pk: int) -> Table:
    if pk > MAX_ID:
        raise NotFound("No such table.")
    return get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)


def table_clock_body(table: Table) -> dict[str, Any]:
    clock = TableClock.objects.filter(table=table).select_related("table__round__tournament").first()
    return clock_payload(table, clock, now=services.db_now(), turn=current_turn(table))


class TableClockView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A table's clock: state, deadlines, time left and the server's now",
        responses={200: schemas.ClockAnswer},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(table_clock_body(_table(pk)))


class TableClockActionView(APIView):
    """POST start | pause | resume | extend {minutes, reason} | waive {reason, all_players_agree} | finish."""

    permission_classes = [AllowAny]  # checked per action below, with a message

    @extend_schema(
        summary="Change a table's clock (head judge; a table judge may finish)",
        parameters=[
            OpenApiParameter("action", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(TABLE_ACTIONS))
        ],
        request=schemas.ClockActionRequest,
        responses={
            200: schemas.ClockAnswer,
            400: schemas.Refusal,
            403: schemas.Refusal,
            409: schemas.Refusal,
        },
    )
    def post(self, request: Request, pk: int, action: str) -> Response:
        if action not in TABLE_ACTIONS:
            raise ValidationError({"action": [f"expected one of {list(TABLE_ACTIONS)}, not {action!r}"]})
        table = _table(pk)
        if action == "finish":
            _need_table_judge(request, table)
        else:
            _need_head_judge(request, table.round.tournament)
        data = _body(request)
        if action == "extend":
            minutes = _minutes(data)
            reason = _text(data, "reason", required=True)
            services.extend(table, minutes=minutes, reason=reason, user=request.user)
        elif action == "waive":
            reason = _text(data, "reason", required=True)
            agree = data.get("all_players_agree")
            if isinstance(agree, str):
                agree = agree.lower() in ("true", "on", "1", "yes")
            services.waive(table, user=request.user, reason=reason, all_players_agree=agree is True)
        else:
            op = {"start": services.start, "pause": services.pause, "resume": services.resume}.get(
                action, services.finish
            )
            op(table, user=request.user, reason=_text(data, "reason"))
        return Response(table_clock_body(table))


class TableCallView(APIView):
    """POST {action: bid|turn|battle_plan|nexus|diplomacy, faction} starts a called clock;
    POST .../call/stop/ {timer} stops it when the player acted in time."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="Call the clock for a player's current action (WBC time guidelines); /stop/ stops it",
        request=schemas.CallRequest,
        responses={
            201: schemas.CallAnswer,
            200: schemas.ClockAnswer,
            400: schemas.Refusal,
            403: schemas.Refusal,
        },
    )
    def post(self, request: Request, pk: int, stop: bool = False) -> Response:
        table = _table(pk)
        _need_table_judge(request, table)
        data = _body(request)
        if stop:
            timer_id = data.get("timer")
            if isinstance(timer_id, str) and whole_number(timer_id) is not None:
                timer_id = whole_number(timer_id)
            services.stop_call(table, timer_id=timer_id, user=request.user)
            return Response(table_clock_body(table))
        action = _text(data, "action", required=True, max_length=20)
        faction = _text(data, "faction", required=True, max_length=20)
        timer = services.call_clock(table, action=action, faction=faction, user=request.user)
        body = table_clock_body(table)
        body["timer"] = timer.pk
        return Response(body, status=status.HTTP_201_CREATED)


def round_clocks_body(round_: Round) -> dict[str, Any]:
    now = services.db_now()
    clocks = {c.table_id: c for c in TableClock.objects.filter(table__round=round_).select_related("table__round__tournament")}
    tables = list(round_.tables.select_related("round__tournament").order_by("number"))
    turns = turns_for(t.pk for t in tables)
    rows = [clock_payload(t, clocks.get(t.pk), now=now, turn=turns.get(t.pk)) for t in tables]
    return {"round": round_.pk, "server_now": now.isoformat(), "clocks": rows}


class RoundClocksView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Every table clock of a round, with the server's now",
        responses={200: schemas.RoundClocksAnswer},
    )
    def get(self, request: Request, pk: int) -> Response:
        if pk > MAX_ID:
            raise NotFound("No such round.")
        return Response(round_clocks_body(get_object_or_404(Round, pk=pk)))


class RoundClocksActionView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Start, pause or resume every table clock of a round (head judge)",
        parameters=[
            OpenApiParameter("action", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(ROUND_ACTIONS))
        ],
        request=schemas.RoundActionRequest,
        responses={200: schemas.RoundClocksAnswer, 403: schemas.Refusal, 409: schemas.Refusal},
    )
    def post(self, request: Request, pk: int, action: str) -> Response:
        if action not in ROUND_ACTIONS:
            raise ValidationError({"action": [f"expected one of {list(ROUND_ACTIONS)}, not {action!r}"]})
        if pk > MAX_ID:
            raise NotFound("No such round.")
        round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
        _need_head_judge(request, round_.tournament)
        reason = _text(_body(request), "reason")
        op = {"start": services.start_round, "pause": services.pause_round, "resume": services.resume_round}[
            action
        ]
        outcome = op(round_, user=request.user, reason=reason)
        if not outcome["done"]:
            doing = {"start": "started", "resume": "resumed"}.get(action)
            raise services.ClockStateError(
                rule=action,
                msg=f"no table clock of this round could be {doing}"
                if doing
                else "no table clock of this round is running unpaused",
                input=outcome["skipped"],
            )
        body = round_clocks_body(round_)
        body["tables_changed"] = outcome["done"]
        body["tables_skipped"] = outcome["skipped"]
        return Response(body)
