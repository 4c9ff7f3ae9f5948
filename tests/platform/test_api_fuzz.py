"""Schemathesis over the OpenAPI schema: no server error, no response that breaks the schema.

Every operation is exercised anonymously and signed in as a head judge (token auth), against
the real database. Write requests with generated bodies are refused with 4xx answers that
must still match the schema. (Cases are drawn with Hypothesis from each operation's strategy,
one operation after another, so a failure names the operation.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
EXAMPLES_PER_OPERATION = 12


@pytest.fixture
def api_schema(db: Any) -> Iterator[Any]:
    import schemathesis
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    from tests.factories import make_players, make_round, make_tournament, seat_table

    # Something to read, so that GETs with small ids find real objects too.
    tournament = make_tournament(format="wbc")
    round_ = make_round(tournament)
    seat_table(round_, make_players(tournament, 6))
    # As Django's test client does: a request must not close the test's transaction.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def exercise(schema: Any, headers: dict[str, str]) -> list[str]:
    exercised = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case: Any) -> None:
            case.call_and_validate(headers=headers, checks=CHECKS)

        check()
        exercised.append(operation.label)
    return exercised


def test_every_operation_anonymously(api_schema: Any) -> None:
    exercised = exercise(api_schema, headers={})
    assert any("/api/tournaments/" in label for label in exercised)


def test_every_operation_as_head_judge(api_schema: Any, head_judge: Any) -> None:
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=head_judge)
    exercised = exercise(api_schema, headers={"Authorization": f"Token {token.key}"})
    assert any("POST /api/tournaments/" in label for label in exercised)
