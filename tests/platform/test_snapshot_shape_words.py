"""A snapshot field that does not fit its shape is refused in the reader's language: the field,
its shape in words (a list, an object, a pair, "or null") and the rule its description cites;
English keeps the schema's description."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from dune.engine.codec.schema import checked
from dune.engine.errors import InvalidPosition
from foundation.core_words import core_refusal

#: The English a translated shape refusal must not hold: the shapes' and descriptions' words.
ENGLISH = re.compile(r"\b(must|be|an? (integer|string|list|object|pair)|of|or null|game turn|faction|where|each|"
                     r"forces revived|this phase|shipped)\b")


def _refused(data: dict[str, Any]) -> str:
    with pytest.raises(InvalidPosition) as info:
        checked(data)
    return info.value.message


def test_lolv_1_06_02_a_snapshot_fields_shape_reads_in_german_with_its_rule() -> None:
    message = _refused({"shipments": 5})
    assert message == (
        "'shipments' must be an object of a string or null (where each faction shipped this phase (LoLV 1.06.02))"
    )
    with translation.override("de"):
        german = core_refusal(message)
    assert german == "'shipments' muss ein Objekt (jeder Wert: eine Zeichenkette) oder null sein (LoLV 1.06.02)"
    assert not ENGLISH.search(german)


def test_lolv_1_05_01_nested_shapes_read_in_the_readers_language() -> None:
    message = _refused({"revived": 3})
    with translation.override("fr"):
        french = core_refusal(message)
    assert french == (
        "'revived' doit être un objet (chaque valeur : une liste (chaque élément : un entier)) ou null (LoLV 1.05.01)"
    )
    assert not ENGLISH.search(french)


@pytest.mark.parametrize(
    ("data", "spanish"),
    [
        ({"turn": "x"}, "'turn' debe ser un entero"),
        ({"forces": [{"faction": 3}]}, "'forces[0].faction' debe ser una cadena de texto"),
        ({"factions": {"atreides": {"spice": "x"}}}, "'factions.atreides.spice' debe ser un entero o null"),
    ],
)
def test_a_shape_without_a_cited_rule_reads_as_one_sentence(data: dict[str, Any], spanish: str) -> None:
    message = _refused(data)
    with translation.override("es"):
        assert core_refusal(message) == spanish
    with translation.override("en"):
        assert core_refusal(message) == message and message.endswith(")")
