"""`GET /api/tournaments/{id}/export/`: the tournament as one sealed JSON document (head
judges of that tournament only). `manage.py import_tournament FILE` loads it elsewhere."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from tournament.models import Tournament
from tournament.permissions import is_head_judge
from venue import export


class ExportView(APIView):
    permission_classes = [AllowAny]  # checked below: head judges of this tournament only

    @extend_schema(
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="the export document: format_version, content (every row of the tournament, "
                "the people, series and accounts it refers to, the judges' password hashes but no "
                "superuser's), checksum (sha256 of the content as canonical JSON) and seal (the "
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
            raise PermissionDenied("Only a head judge of this tournament may export it.")
        response = HttpResponse(export.export_text(tournament, superusers_sign_in=False), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
        response["Cache-Control"] = "no-store"
        return response
