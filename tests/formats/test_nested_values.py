"""Every input path of a format document is total: a list or table where a choice is expected,
a document nested deeper than any format needs, and a list as the seating's `action` are each
refused by name (400), never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from dune.formats.document import FormatDocumentError, parse_text
from tests.factories import make_round, make_tournament

pytestmark = pytest.mark.django_db

CHOICES = ["factions.deal", "rounds.heat.tracking", "awards.measure"]
ODD = [{"a": 1}, ["draft"], [[]]]


@pytest.fixture
def api(head_judge: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(head_judge)
    return client


@pytest.mark.parametrize("path", CHOICES)
@pytest.mark.parametrize("value", ODD, ids=["table", "list", "nested-list"])
def test_a_list_or_table_as_a_choice_is_refused_by_name(api: APIClient, head_judge: Any, path: str, value: Any) -> None:
    tournament = make_tournament(head_judge=head_judge)
    patched = api.patch(f"/api/tournaments/{tournament.pk}/format/", {"format_changes": {path: value}}, format="json")
    assert patched.status_code == 400, patched.content[:300]
    assert path in patched.content.decode()
    created = api.post("/api/tournaments/", {"name": "Nested", "format": "wbc", "format_changes": {path: value}},
                       format="json")
    assert created.status_code == 400 and path in created.content.decode()


@pytest.mark.parametrize("text", [
    "a = " + "[" * 5000 + "]" * 5000,
    "a = " + "{b = " * 3000 + "1" + "}" * 3000,
    ".".join(f"k{n}" for n in range(3000)) + " = 1",
    "{" + '"a": {' * 5000 + "}" * 5001,
    '{"a": ' + "[" * 5000 + "]" * 5000 + "}",
], ids=["toml-arrays", "toml-inline-tables", "toml-dotted-keys", "json-objects", "json-arrays"])
def test_a_deeply_nested_document_is_refused_before_it_is_parsed(text: str) -> None:
    with pytest.raises(FormatDocumentError) as refused:
        parse_text(text)
    assert "nested more than" in refused.value.problems["document"]


def test_the_format_page_refuses_a_deep_upload_next_to_the_document(client: Any, head_judge: Any) -> None:
    tournament = make_tournament(head_judge=head_judge)
    client.force_login(head_judge)
    answer = client.post(f"/tournaments/{tournament.pk}/format/",
                         {"action": "upload", "text": "a = " + "[" * 3000 + "]" * 3000})
    assert answer.status_code == 400 and "nested more than" in answer.content.decode()


@pytest.mark.parametrize("action", [["trade"], {"trade": 1}, 3])
def test_a_list_or_table_as_the_seatings_action_is_refused_by_name(api: APIClient, head_judge: Any, action: Any) -> None:
    round_ = make_round(make_tournament(head_judge=head_judge))
    answer = api.post(f"/api/rounds/{round_.pk}/seating/factions/", {"action": action}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "action", answer.content[:300]
