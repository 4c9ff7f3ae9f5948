"""Schemathesis over the OpenAPI schema: no server error, no response that breaks the schema.

Every operation is exercised anonymously, signed in as a head judge and as a table judge
(token auth), against the real database. Write requests with generated bodies are refused with
4xx answers that must still match the schema. (Cases are drawn with Hypothesis from each
operation's strategy, one operation after another, so a failure names the operation.) About
half the cases aim at the tournament, round and table that exist, so that generated bodies
reach the services and not only the 404 of an unknown id. Each run prints how many cases ran.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
EXAMPLES_PER_OPERATION = 10


@pytest.fixture
def seeded(db: Any, head_judge: Any, make_user: Any) -> dict[str, Any]:
    """Something to read and write: a WBC tournament with a published heat and one table,
    the head judge and the table's judge."""
    from tests.factories import make_players, make_round, make_tournament, seat_table

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    round_ = make_round(tournament)
    judge = make_user("tablejudge")
    tournament.table_judges.add(judge)
    table = seat_table(round_, make_players(tournament, 6), judge=judge)
    return {"tournaments": tournament.pk, "rounds": round_.pk, "tables": table.pk, "judge": judge}


@pytest.fixture
def api_schema(seeded: dict[str, Any]) -> Iterator[Any]:
    import schemathesis
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    # As Django's test client does: a request must not close the test's transaction.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _existing_id(path: str, seeded: dict[str, Any]) -> int | None:
    """The id of the seeded object a path with `{pk}` names (`/api/tables/{pk}/...` -> the table)."""
    parts = path.strip("/").split("/")
    return seeded.get(parts[1]) if len(parts) > 2 and parts[2] == "{pk}" else None


def _run(operation: Any, headers: dict[str, str], existing: int | None) -> int:
    """Draw the operation's cases, about half aimed at the existing object; answer how many ran."""
    cases = 0

    @given(case=operation.as_strategy(), aim=st.booleans())
    @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case: Any, aim: bool) -> None:
        nonlocal cases
        if aim and existing is not None:
            case.path_parameters = {**(case.path_parameters or {}), "pk": existing}
        cases += 1
        case.call_and_validate(headers=headers, checks=CHECKS)

    check()
    return cases


def exercise(schema: Any, headers: dict[str, str], seeded: dict[str, Any], who: str) -> list[str]:
    exercised = []
    cases = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        cases += _run(operation, headers, _existing_id(operation.path, seeded))
        exercised.append(operation.label)
    print(f"schemathesis as {who}: {cases} cases over {len(exercised)} operations, 0 server errors")
    return exercised


def _token(user: Any) -> dict[str, str]:
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}"}


def test_every_operation_anonymously(api_schema: Any, seeded: dict[str, Any]) -> None:
    exercised = exercise(api_schema, {}, seeded, "anonymous")
    assert any("/api/tournaments/" in label for label in exercised)


def test_every_operation_as_head_judge(api_schema: Any, seeded: dict[str, Any], head_judge: Any) -> None:
    exercised = exercise(api_schema, _token(head_judge), seeded, "head judge")
    assert any("POST /api/tournaments/" in label for label in exercised)


def test_every_operation_as_table_judge(api_schema: Any, seeded: dict[str, Any]) -> None:
    exercised = exercise(api_schema, _token(seeded["judge"]), seeded, "table judge")
    assert any(label.startswith("POST") and label.endswith("/game/events/") for label in exercised)
