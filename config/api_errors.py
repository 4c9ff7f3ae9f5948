"""One shape for every API refusal: HTTP 4xx with a message naming the field or the rule.

Services and the pure cores raise a `refusals.Refusal` (the engine's `RuleViolation`,
scoring's report refusals, the planner's and the head judge's `Refused`, the clocks'
`ClockError`); this handler is the one place that turns any of them into the answer, with
the refusal's own status and body. Django `ValidationError`s from model validation become
400 answers too, so that a refusal is never a 500.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.api_parsers import UnsafeInput, refusal_body
from dune.refusals import Refusal
from foundation.core_words import core_refusal


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, UnsafeInput):
        # The text rules' and the numbers' English reasons read in the reader's language.
        return Response(refusal_body(exc.field, core_refusal(exc.problem)), status=exc.status_code)
    if isinstance(exc, Refusal):
        body = exc.to_dict()
        # `detail` follows Accept-Language; a pure core's English message is translated here.
        body["detail"] = core_refusal(exc.message)
        return Response(body, status=exc.status)
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            detail: Any = {field: [str(m) for m in msgs] for field, msgs in exc.message_dict.items()}
        else:
            detail = {"detail": " ".join(exc.messages)}
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
