"""An integer past 64 bits in a JSON body is refused with 400 naming its field, before any
write: the database and orjson (which writes the idempotency record's request hash and the
answer) hold 64-bit integers only."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

BIG = [2**63, 2**64, -(2**63) - 1, 10**30]


@pytest.fixture
def table(head_judge: Any) -> Any:
    from gameplay import services
    from tests.factories import make_seated_table

    table = make_seated_table()
    table.round.tournament.head_judges.add(head_judge)
    services.game_for(table)
    return table


@pytest.mark.parametrize("number", BIG)
def test_an_integer_past_64_bits_with_an_idempotency_key_answers_400(
    table: Any, judge_client: Any, number: int
) -> None:
    from foundation.models import IdempotencyRecord
    from gameplay.models import GameEvent

    events = GameEvent.objects.count()
    body = json.dumps({"type": "storm_moved", "sectors": number, "expected_seq": 0})
    answer = judge_client.post(f"/api/tables/{table.pk}/game/events/", body, content_type="application/json",
                               HTTP_IDEMPOTENCY_KEY="k-big")
    assert answer.status_code == 400, answer.content
    assert "sectors" in json.dumps(answer.json())
    assert not IdempotencyRecord.objects.exists() and GameEvent.objects.count() == events


@settings(max_examples=25, deadline=None)
@given(st.one_of(st.integers(min_value=2**63), st.integers(max_value=-(2**63) - 1)))
def test_any_integer_past_64_bits_is_refused_by_the_parser_naming_its_field(number: int) -> None:
    from config.api_parsers import SafeJSONParser, UnsafeInput

    with pytest.raises(UnsafeInput) as refused:
        SafeJSONParser().parse(io.BytesIO(json.dumps({"rows": [{"n": number}]}).encode()))
    assert "n" in refused.value.field


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_every_64_bit_integer_is_read(number: int) -> None:
    from config.api_parsers import SafeJSONParser

    assert SafeJSONParser().parse(io.BytesIO(json.dumps({"n": number}).encode())) == {"n": number}


def test_the_refusal_of_a_number_past_64_bits_reads_in_german(table: Any, judge_client: Any) -> None:
    body = json.dumps({"type": "storm_moved", "sectors": 2**64, "expected_seq": 0})
    answer = judge_client.post(f"/api/tables/{table.pk}/game/events/", body, content_type="application/json",
                               HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert answer.json()["sectors"] == [
        f"die Zahl {2**64} ist größer als eine 64-Bit-Ganzzahl (höchstens {2**63 - 1})"
    ]
    deep = "[" * 70 + "]" * 70
    nested = judge_client.post(f"/api/tables/{table.pk}/game/events/", deep, content_type="application/json",
                               HTTP_ACCEPT_LANGUAGE="fr")
    assert nested.status_code == 400 and nested.json()["body"] == ["JSON imbriqué sur plus de 64 niveaux"]
    english = judge_client.post(f"/api/tables/{table.pk}/game/events/", body, content_type="application/json")
    assert english.json()["sectors"] == [f"the number {2**64} is larger than a 64-bit integer (at most {2**63 - 1})"]
