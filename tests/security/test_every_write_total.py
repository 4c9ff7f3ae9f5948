"""Bad input answered well on every API write: a field the write does not read is refused by
name (400), never ignored; a body over the limit is a JSON 413; the anonymous evaluation reads
no more than a snapshot's size; one key through the page and then the API answers the same."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_round, make_tournament
from tests.platform.test_every_write_once import EXAMPLES, World

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("operation", sorted(op for op in EXAMPLES if not op.startswith("DELETE")))
def test_every_write_refuses_an_unknown_field_by_name(operation: str, head_judge: Any) -> None:
    method, path = operation.split(" ", 1)
    world = World(head_judge)
    params, body = EXAMPLES[operation].send(world)
    if not isinstance(body, dict) or path == "/api/engine/evaluate/":
        body = {}
    client = APIClient()
    client.force_authenticate(head_judge)
    answer = getattr(client, method.lower())(path.format(**params), {**body, "colour": "red", "zz_top": 1},
                                             format="json", HTTP_IDEMPOTENCY_KEY="unknown-1")
    if path == "/api/engine/evaluate/":
        return  # a snapshot is a free object: the engine refuses what it does not read
    assert answer.status_code == 400, (operation, answer.status_code, answer.content[:300])
    refused = answer.json()
    assert refused["field"] == "colour" and "colour, zz_top" in refused["detail"], refused


def test_a_patch_with_an_unknown_field_changes_nothing(head_judge: Any) -> None:
    tournament = make_tournament(head_judge=head_judge, name="Arrakis Open")
    client = APIClient()
    client.force_authenticate(head_judge)
    answer = client.patch(f"/api/tournaments/{tournament.pk}/", {"name": "Renamed", "nmae": "x"}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "nmae"
    tournament.refresh_from_db()
    assert tournament.name == "Arrakis Open"


def test_an_evaluation_larger_than_a_snapshot_is_refused_before_it_is_read() -> None:
    from web.gameplay.engine_api import SNAPSHOT_LIMIT

    keys = {f"k{n}": n for n in range(50_000)}
    answer = Client().post("/api/engine/evaluate/", json.dumps(keys), content_type="application/json")
    assert answer.status_code == 413 and answer["Content-Type"].startswith("application/json")
    assert answer.json()["field"] == "body" and str(SNAPSHOT_LIMIT) in answer.json()["detail"]


def test_a_retried_delete_says_it_is_a_replay(head_judge: Any) -> None:
    round_ = make_round(make_tournament(head_judge=head_judge), state="planned")
    client = APIClient()
    client.force_authenticate(head_judge)
    first = client.delete(f"/api/rounds/{round_.pk}/", HTTP_IDEMPOTENCY_KEY="gone-1")
    again = client.delete(f"/api/rounds/{round_.pk}/", HTTP_IDEMPOTENCY_KEY="gone-1")
    assert first.status_code == again.status_code == 204
    assert "Idempotent-Replayed" not in first and again["Idempotent-Replayed"] == "true"


def test_one_key_through_the_desk_page_then_the_api_answers_the_same(head_judge: Any) -> None:
    from tournament.models import Player

    tournament = make_tournament(head_judge=head_judge)
    round_ = make_round(tournament, state="planned")
    page = Client()
    page.force_login(head_judge)
    sent = page.post(f"/tournaments/{tournament.pk}/players/", {
        "action": "add", "name": "Alia", "email": "alia@example.org", "round": round_.pk, "check_in": "on",
        "idempotency_key": "desk-1"})
    assert sent.status_code == 302
    api = APIClient()
    api.force_authenticate(head_judge)
    again = api.post(f"/api/tournaments/{tournament.pk}/players/", {"name": "Alia", "email": "alia@example.org"},
                     format="json", HTTP_IDEMPOTENCY_KEY="desk-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true", again.content[:300]
    assert Player.objects.filter(tournament=tournament).count() == 1
