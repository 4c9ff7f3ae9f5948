"""A command's input is declared once (`foundation.commands.Field`): the command reads it, the
API's OpenAPI schema shows it, and the API refuses what it does not declare. So a limit such as
a tournament's longest name is the same whichever door a name comes through."""

from __future__ import annotations

from typing import Any

import pytest

from config.schema import schema
from dune.text_rules import TITLE_LIMIT
from foundation.commands import Refused
from tournament import commands
from tournament.models import Series, Tournament

pytestmark = pytest.mark.django_db


def _body_schema(path: str) -> dict[str, Any]:
    document = schema()
    found = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return document["components"]["schemas"][found["$ref"].rsplit("/", 1)[-1]]


def test_the_schema_shows_the_commands_own_limits() -> None:
    for path, declared in (("/api/tournaments/", commands.NewTournament.FIELDS),
                           ("/api/series/", commands.NewSeries.FIELDS)):
        body = _body_schema(path)
        assert set(body["properties"]) == set(declared)
        assert body["properties"]["name"]["maxLength"] == declared["name"].max_length == TITLE_LIMIT
        assert set(body["required"]) == {name for name, field in declared.items() if field.required}


def test_a_name_one_over_the_limit_is_refused_by_both_doors(judge_client: Any, head_judge: Any) -> None:
    longest, too_long = "N" * TITLE_LIMIT, "N" * (TITLE_LIMIT + 1)
    response = judge_client.post("/api/tournaments/", {"name": too_long, "format": "wbc"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "name"
    with pytest.raises(Refused) as refused:
        commands.create_tournament({"name": too_long, "format": "wbc"}, actor=head_judge, key=None)
    assert refused.value.field == "name" and refused.value.status == 400
    assert Tournament.objects.count() == 0
    created = judge_client.post("/api/tournaments/", {"name": longest, "format": "wbc"}, format="json")
    assert created.status_code == 201 and created.json()["name"] == longest


def test_an_unknown_field_is_refused_naming_it(judge_client: Any, head_judge: Any) -> None:
    response = judge_client.post("/api/tournaments/", {"name": "Open", "format": "wbc", "nmae": "x"}, format="json")
    assert response.status_code == 400 and "nmae" in str(response.json())
    response = judge_client.post("/api/series/", {"name": "Cup", "format": "wbc", "owner": 1}, format="json")
    assert response.status_code == 400 and "owner" in str(response.json())
    assert Tournament.objects.count() == 0 and Series.objects.count() == 0
