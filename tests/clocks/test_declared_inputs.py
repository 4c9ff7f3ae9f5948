"""The clock commands' inputs are declared once (`clocks.commands`): the commands read them and
the API's schema is built from them, so an extension's limit is the clock rule's own and a
field no clock command reads is refused by name."""

from __future__ import annotations

from typing import Any

import pytest

from clocks import commands
from clocks.models import ClockHistory
from config.schema import schema
from dune import clock_limits as limits

pytestmark = pytest.mark.django_db


def _body(path: str) -> dict[str, Any]:
    document = schema()
    found = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return document["components"]["schemas"][found["$ref"].rsplit("/", 1)[-1]]


def test_the_schema_is_the_commands_declaration() -> None:
    action = _body("/api/tables/{id}/clock/{action}/")
    assert set(action["properties"]) == {*commands.Reason.FIELDS, *commands.Extension.FIELDS, *commands.Waiver.FIELDS}
    assert action["properties"]["minutes"]["maximum"] == limits.MAX_EXTENSION_MINUTES
    assert action["properties"]["minutes"]["minimum"] == 1 and "required" not in action
    call = _body("/api/tables/{id}/clock/call/")
    assert set(call["properties"]) == set(commands.Call.FIELDS) and set(call["required"]) == {"action", "faction"}


def test_an_undeclared_field_is_refused_by_name_and_nothing_changes(judge_client: Any, wbc_table: Any) -> None:
    judge_client.post(f"/api/tables/{wbc_table.pk}/clock/start/", {}, format="json")
    before = ClockHistory.objects.count()
    response = judge_client.post(f"/api/tables/{wbc_table.pk}/clock/extend/",
                                 {"minutes": 10, "reason": "dispute", "minuets": 5}, format="json")
    assert response.status_code == 400 and "minuets" in str(response.json())
    assert ClockHistory.objects.count() == before
    extended = judge_client.post(f"/api/tables/{wbc_table.pk}/clock/extend/",
                                 {"minutes": 10, "reason": "dispute"}, format="json")
    assert extended.status_code == 200
