"""`GET /api/tournaments/{id}/export/`: the tournament as one sealed JSON document (head
judges of that tournament only). `manage.py import_tournament FILE` loads it elsewhere.
`GET /api/tournaments/{id}/changes/` is its incremental form, pulled by a spare laptop."""

from __future__ import annotations

import json

import orjson
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from tournament.models import Tournament
from tournament.permissions import is_head_judge
from venue import backups, changes, export, installation, pairing


class ExportView(APIView):
    permission_classes = [AllowAny]  # checked below: head judges of this tournament only

    @extend_schema(
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="the export document: format_version, content (every row of the tournament, "
                "the people, series and accounts it refers to; no password hash: only a backup sealed for "
                "this installation's spares carries them), checksum (sha256 of the content as canonical JSON) and seal (the "
                "installation's HMAC: only this installation's import trusts the links and hashes)",
            ),
            403: OpenApiResponse(description="not a head judge of this tournament"),
        }
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        tournament = get_object_or_404(Tournament, pk=pk)
        if not request.user.is_authenticated:
            raise NotAuthenticated("Sign in as a head judge of this tournament to export it.")
        if not is_head_judge(request.user, tournament):
            raise PermissionDenied(_("Only a head judge of this tournament may export it."))
        # A download leaves the installation: no password hash, no privileges (the backups on
        # this laptop's disk, sealed for its spares, carry them).
        text = export.export_text(tournament, superusers_sign_in=False, for_spares=False)
        response = HttpResponse(text, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
        response["Cache-Control"] = "no-store"
        return response


def _head_judge_of(request: Request, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not request.user.is_authenticated:
        raise NotAuthenticated("Sign in as a head judge of this tournament to follow it.")
    if not is_head_judge(request.user, tournament):
        raise PermissionDenied(_("Only a head judge of this tournament may follow it."))
    return tournament


class FollowableView(APIView):
    """`GET /api/venue/followed/`: the running tournaments the caller heads, for a spare laptop
    (`bin/venue follow URL`) to keep a copy of."""

    permission_classes = [AllowAny]  # checked below: any signed-in account, its own tournaments

    @extend_schema(responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="{tournaments: [{id, name}]}")})
    def get(self, request: Request) -> HttpResponse:
        if not request.user.is_authenticated:
            raise NotAuthenticated("Sign in as a head judge to follow this laptop's tournaments.")
        found = [{"id": t.pk, "name": t.name} for t in backups.running_tournaments()
                 if is_head_judge(request.user, t)]
        response = JsonResponse({"tournaments": found})
        response["Cache-Control"] = "no-store"
        return response


class ChangesView(APIView):
    """`GET /api/tournaments/{id}/changes/?cursor=JSON`: what changed since the cursor (head judges
    of that tournament only); an empty cursor gives the whole tournament (venue.changes)."""

    permission_classes = [AllowAny]  # checked below: head judges of this tournament only

    @extend_schema(
        parameters=[OpenApiParameter("cursor", OpenApiTypes.STR, description="the cursor of the previous answer, as JSON")],
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="rows changed since the cursor, the ids of "
                                        "the models sent whole, and the next cursor"),
                   400: OpenApiResponse(description="a cursor that is not one this endpoint handed out"),
                   403: OpenApiResponse(description="not a head judge of this tournament")},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        tournament = _head_judge_of(request, pk)
        raw = request.query_params.get("cursor") or "{}"
        try:
            cursor = changes.Cursor.parse(json.loads(raw))
        except (ValueError, RecursionError) as exc:
            raise ValidationError({"cursor": [str(exc) if isinstance(exc, changes.CursorRefused)
                                              else "cursor: not JSON"]}) from None
        # A spare paired with this laptop proves it (venue.pairing): only then does the feed carry
        # the judges' sign-in content.
        key = installation.sealing_key()
        spare = key is not None and pairing.proves_spare(key, tournament.pk, raw,
                                                          request.headers.get(pairing.SPARE_HEADER, ""))
        body = changes.changes(tournament, cursor, spare=spare)
        response = HttpResponse(orjson.dumps(body), content_type="application/json")
        response["Cache-Control"] = "no-store"
        return response
