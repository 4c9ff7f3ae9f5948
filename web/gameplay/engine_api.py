"""`POST /api/engine/evaluate/`: the judge's rules assistant.

Takes a position snapshot (the shape `dune.engine.load_position` reads) and answers the
engine's `evaluate`: storm order, control, battles, win attempts, victory, end of game,
statistics, PP and the adjudication ranking. Nothing is stored; an impossible snapshot is
refused with 400 and the rule it breaks (config/api_errors.py renders the RuleViolation).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_parsers import SafeJSONParser
from dune.engine import evaluate, load_position

#: The largest snapshot `POST /api/engine/evaluate/` reads (bytes); a larger one is a 413
#: before any of it is parsed.
SNAPSHOT_LIMIT = 128 * 1024

EXAMPLE_SNAPSHOT = {
    "ruleset": "wbc2018",
    "turn": 5,
    "last_turn": False,
    "storm": 7,
    "worms": 4,
    "family_atomics": False,
    "factions": {
        "atreides": {"marker": 1, "spice": 10, "cards": 2, "leaders": 5, "reserves": 10, "tanks": 0},
        "harkonnen": {"marker": 4, "spice": 8, "cards": 3, "leaders": 5, "reserves": 10, "tanks": 0},
    },
    "forces": [
        {"faction": "atreides", "territory": "arrakeen", "sector": 9, "normal": 10, "special": 0, "advisors": 0},
        {"faction": "harkonnen", "territory": "carthag", "sector": 10, "normal": 10, "special": 0, "advisors": 0},
    ],
    "alliances": [],
}


class EvaluationErrorSerializer(serializers.Serializer):
    rule = serializers.CharField(allow_blank=True)
    message = serializers.CharField()
    detail = serializers.CharField()


class SnapshotParser(SafeJSONParser):
    """A snapshot's JSON, read only up to `SNAPSHOT_LIMIT`: the largest real position (twelve
    factions in every territory) is a few tens of kB, and anyone may ask."""

    limit = SNAPSHOT_LIMIT


class EvaluateView(APIView):
    """Anyone may ask: the answer depends only on the snapshot sent."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    parser_classes = [SnapshotParser]

    @extend_schema(
        operation_id="engine_evaluate",
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: EvaluationErrorSerializer},
        examples=[OpenApiExample("Two factions, one stronghold each", value=EXAMPLE_SNAPSHOT, request_only=True)],
        description="Evaluate a position snapshot with the rules engine (no state is stored).",
    )
    def post(self, request: Request) -> Response:
        data: Any = request.data
        if not isinstance(data, dict):
            return Response(
                {"rule": "", "message": "the body must be a JSON object: a position snapshot",
                 "detail": "the body must be a JSON object: a position snapshot"},
                status=400,
            )
        return Response(evaluate(load_position(data)).to_dict())
