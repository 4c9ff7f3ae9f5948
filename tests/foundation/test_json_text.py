"""The post path's JSON (foundation.json_text) reads as the standard library's and Django's does."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from hypothesis import given
from hypothesis import strategies as st

from foundation import json_text

plain_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@given(plain_json)
def test_plain_values_read_back_as_themselves_and_as_the_standard_library_wrote_them(value: Any) -> None:
    text = json_text.dumps(value)
    assert json_text.loads(text) == value
    assert json.loads(text) == json.loads(json.dumps(value))
    assert json_text.dumps_noting_conversions(value) == (text, False)


def test_moments_and_decimals_are_written_as_django_writes_them_and_noted() -> None:
    value = {
        "at": datetime(2026, 11, 25, 18, 30, 5, 123456, tzinfo=UTC),
        "day": date(2026, 11, 25),
        "left": timedelta(minutes=95),
        "spice": Decimal("2.50"),
        "faction": "Bene Gesserit — Wanna",
    }
    text, converted = json_text.dumps_noting_conversions(value)
    assert converted
    assert json.loads(text) == json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def test_keys_that_are_not_text_are_written_as_text_like_the_standard_library() -> None:
    value = {1: "one", 2: ["two"]}
    assert json.loads(json_text.dumps(value)) == json.loads(json.dumps(value)) == {"1": "one", "2": ["two"]}
