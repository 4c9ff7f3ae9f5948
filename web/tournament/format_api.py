"""The formats API: the presets, and a tournament's frozen format document.

`GET /api/formats/` lists the presets; `GET /api/formats/{key}/` answers one's document;
`GET /api/tournaments/{id}/format/` answers the tournament's document with every difference
from its preset; `PATCH` with `format_changes` changes it until the first round is seated
(then 409, saying why). A bad field answers 400 naming it (`field`, and `fields` for all).
"""

from __future__ import annotations

from typing import Any

from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dune.formats import FORMATS, Format, get_format
from tournament import commands, services
from tournament.models import Tournament
from web.api_fields import body_of
from web.idempotency_api import SCHEMA_PARAMETER, SCHEMA_REUSED, answered, key_of

REFUSED = OpenApiResponse(description="refused: `field` and `fields` name each bad field and why; nothing written")


#: The body of `change_format`, from the command's own declaration.
FormatChangesIn = body_of("FormatChangesIn", commands.FormatChanges.CHANGE_FIELDS)


def format_json(tournament: Tournament) -> dict[str, Any]:
    """The tournament's frozen document, where it came from, and its differences from it."""
    rules = tournament.rules
    return {
        "tournament": tournament.pk,
        "preset": tournament.format,
        "version": tournament.format_version or rules.preset.version,
        "document": dict(rules.document),
        "differences": [
            {"field": d.field, "words": d.words, "preset": d.preset, "event": d.event, "rule": d.rule}
            for d in rules.differences()
        ],
        "frozen": services.frozen_because(tournament),
    }


def preset_json(fmt: Format) -> dict[str, Any]:
    return {"key": fmt.key, "name": fmt.name, "version": fmt.version}


class FormatListView(APIView):
    @extend_schema(operation_id="formats_list", responses={200: OpenApiResponse(description="the presets: key, name, version")})
    def get(self, request: Request) -> Response:
        return Response({"formats": [preset_json(f) for f in FORMATS.values()]})


class FormatDetailView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the preset's document"), 404: REFUSED})
    def get(self, request: Request, key: str) -> Response:
        fmt = get_format(key) if key in FORMATS else None
        if fmt is None:
            known = ", ".join(FORMATS)
            return Response({"detail": f"no preset {key!r}; known: {known}", "field": "key"}, status=404)
        return Response({**preset_json(fmt), "document": dict(fmt.document)})


class TournamentFormatView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the document, with `differences` from its preset")})
    def get(self, request: Request, pk: int) -> Response:
        return Response(format_json(get_object_or_404(Tournament, pk=pk)))

    @extend_schema(
        parameters=[SCHEMA_PARAMETER],
        request=FormatChangesIn,
        responses={200: OpenApiResponse(description="the changed document"), 400: REFUSED, 409: REFUSED,
                   422: SCHEMA_REUSED},
    )
    def patch(self, request: Request, pk: int) -> HttpResponseBase:
        tournament = get_object_or_404(Tournament, pk=pk)
        changed = commands.change_format(
            tournament, request.data, actor=request.user, key=key_of(request), present=format_json
        )
        return answered(request, changed)
