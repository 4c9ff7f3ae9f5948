"""The table game's API.

- `GET /api/tables/{id}/game/`: the position (the engine's snapshot), its evaluation, the seq;
- `GET /api/tables/{id}/game/events/`: the log (`?after=<seq>` for what came since);
- `POST /api/tables/{id}/game/events/` with `{"event": {...}, "expected_seq": n, "reason"?}`:
  201 with the recorded event and the new position; 409 with the current position and the
  events the writer missed when `expected_seq` is stale; 400 with the rule when the engine
  refuses; 403 unless the user judges this table or is a head judge. With an
  `Idempotency-Key` header a retry gets the first answer back and records nothing (422 when
  the key was used for another body).
Anyone may read (players follow their table); the BG prediction stays hidden from
non-judges until it is revealed.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dune.text_rules import whole_number
from gameplay import commands, presenters, services
from gameplay.commands import judges_table
from tournament import table_rows
from tournament.models import Table
from tournament.table_rows import table_with_round
from web import idempotency_api
from web.api_fields import body_of
from web.gameplay.views import load_table, published_game


def stale_json(error: commands.Stale, *, table: Table, judge: bool) -> dict[str, Any]:
    """A stale write's answer: what the writer missed and the game as it is now."""
    game = services.read_game(table)
    voided = services.voided_seqs(error.changes)
    return {
        "detail": error.message,
        "expected_seq": error.expected_seq,
        "changes": presenters.events_json(error.changes, game=game, judge=judge, voided=voided),
        **presenters.game_json(game, judge=judge),
    }


_GAME = inline_serializer(
    "TableGame",
    {
        "table": serializers.IntegerField(),
        "ruleset": serializers.CharField(),
        "tracking": serializers.ChoiceField(choices=["quick", "full"]),
        "seq": serializers.IntegerField(help_text="sequence number of the last event in the log"),
        "position": serializers.JSONField(help_text="the engine's snapshot (BG prediction hidden from non-judges)"),
        "evaluation": serializers.JSONField(help_text="the engine's evaluate() answer for the position"),
    },
)
#: The event command's body, from its own declaration (`gameplay.commands.EVENT_FIELDS`).
_EVENT_POST = body_of("GameEventPost", commands.EVENT_FIELDS)


class GameView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: _GAME}, summary="A table's game: position, evaluation and sequence number")
    def get(self, request: Request, pk: int) -> Response:
        table = load_table(pk)
        game = published_game(table)
        judge = judges_table(request.user, table)
        etag = presenters.game_etag(game, judge=judge)
        if etag in (t.strip() for t in request.headers.get("If-None-Match", "").split(",")):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)  # unchanged: no body at all
        else:
            response = Response(presenters.game_json(game, judge=judge))
        response["ETag"] = etag
        response["Cache-Control"] = "private, no-cache"  # always asked again, answered 304 while unchanged
        return response


def _stored_event(user: Any, data: dict[str, Any], key: str, *, pk: int) -> commands.Recorded | None:
    """A retried post's stored answer, as `GameEventsView.post` would send it (or None)."""
    return commands.stored_event(pk, commands.read_fields(commands.EVENT_FIELDS, data), actor=user, key=key)


@idempotency_api.answers_retries(commands.EVENT_FIELDS, _stored_event, commands.event_scope, table_rows.along)
class GameEventsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[OpenApiParameter("after", OpenApiTypes.INT, description="only events after this sequence number")],
        responses={200: OpenApiTypes.OBJECT},
        summary="A table's event log",
    )
    def get(self, request: Request, pk: int) -> Response:
        table = load_table(pk)
        game = published_game(table)
        judge = judges_table(request.user, table)
        after = whole_number(request.query_params.get("after", "0"))
        if after is None:
            raise ApiValidationError({"after": "must be a sequence number (0 or more)"})
        events = services.game_events(game)
        voided = services.voided_seqs(events)
        shown = [e for e in events if e.seq > after]
        return Response(
            {"seq": game.seq, "events": presenters.events_json(shown, game=game, judge=judge, voided=voided)}
        )

    @extend_schema(
        request=_EVENT_POST,
        parameters=[idempotency_api.SCHEMA_PARAMETER],
        responses={
            201: OpenApiResponse(_GAME, description="recorded; the new position and the event"),
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="refused by the rules: rule, message, phase, input"),
            403: OpenApiResponse(OpenApiTypes.OBJECT, description="not this table's judge or a head judge"),
            409: OpenApiResponse(OpenApiTypes.OBJECT, description="stale: current position and the events missed"),
            422: idempotency_api.SCHEMA_REUSED,
        },
        summary="Record an event (checked by the rules engine)",
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        # The round is enough here; the tournament is read only when a head judge who is not
        # the table's judge writes (the hot path is the table judge posting events).
        table = table_with_round(pk)
        if table is None:
            raise Http404(_("No such table."))
        sent = commands.read_fields(commands.EVENT_FIELDS, request.data if isinstance(request.data, dict) else {})
        try:
            recorded = commands.record_event(
                table, sent["event"], actor=request.user, key=idempotency_api.key_of(request),
                expected_seq=sent["expected_seq"], reason=sent["reason"],
            )
        except commands.Stale as stale:
            return Response(stale_json(stale, table=table, judge=True), status=stale.status)
        # Any other refusal is answered by the API's one handler (config.api_errors): its
        # status, message, and the rule or field.
        return idempotency_api.answered(request, recorded)


_SEEN_POST = body_of("PhoneSeenReport", commands.SEEN_FIELDS)


class PhoneSeenView(APIView):
    """`POST /api/tables/{id}/game/seen/`: a table judge's phone reports the highest record
    number it saw, and the records it sent again after finding this server behind (a restore);
    the head judge's dashboard shows what came back and which tables are still behind."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(request=_SEEN_POST, responses={200: OpenApiTypes.OBJECT},
                   parameters=[idempotency_api.SCHEMA_PARAMETER],
                   summary="A phone's report of the records it saw and sent again")
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        table = table_with_round(pk)
        if table is None:
            raise Http404(_("No such table."))
        return idempotency_api.answered(
            request, commands.phone_seen(table, request.data, actor=request.user, key=idempotency_api.key_of(request))
        )
