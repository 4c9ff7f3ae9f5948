"""Why a name or a text is refused (dune.text_rules) reads in the reader's language: each kind of
refused character, a name that shows nothing, a tournament's or a series' title, a JSON body's
depth and length. English stays as the rules write it."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from dune.text_rules import MAX_JSON_DEPTH, name_problem, structure_problems, text_problem, title_problem
from foundation.core_words import core_refusal
from tournament.csv_import import validate_player_fields

ENGLISH = re.compile(r"\b(contains|position|the name|needs|at most|characters|shows|nothing|a tab|line break|"
                     r"control|nested|levels|items|accepted|empty|longer|bad email)\b")

#: A refused name of each kind, with its German reason.
NAMES = [
    ("Ann\x00", "enthält ein NUL-Zeichen an Position 4"),
    ("An\tn", "enthält einen Tabulator an Position 3"),
    ("Ann\u200b", "enthält ein Leerzeichen ohne Breite an Position 4"),
    ("Ann\u202e", "enthält ein bidirektionales Steuerzeichen (U+202E) an Position 4"),
    ("Ann\x07", "enthält das Steuerzeichen U+0007 an Position 4"),
    ("Ann\U000e0041", "enthält ein Tag-Zeichen (U+E0041) an Position 4"),
    ("\u3164", "zeigt nichts: er hat keinen Buchstaben, keine Ziffer und kein Zeichen, das ein Leser sähe"),
    ("\u0301a", "beginnt mit einem kombinierenden Zeichen, das keinen Buchstaben hat, auf dem es sitzen kann"),
]


@pytest.mark.parametrize(("name", "german"), NAMES)
def test_a_refused_names_reason_reads_in_german(name: str, german: str) -> None:
    problem = name_problem(name)
    assert problem is not None
    with translation.override("de"):
        assert core_refusal(problem) == german
        assert core_refusal(f"the name {problem}") == f"der Name {german}"
    assert not ENGLISH.search(german)
    with translation.override("en"):
        assert core_refusal(problem) == problem


def test_a_titles_refusals_read_in_the_readers_language_and_keep_their_english() -> None:
    assert title_problem("  ", what="a tournament") == ("", "a tournament needs a name")
    long = title_problem("x" * 201, what="a series")[1]
    assert long == "a series name has at most 200 characters"
    control = title_problem("Open\x07", what="a tournament")[1]
    assert control == "the name contains the control character U+0007 at position 5"
    with translation.override("fr"):
        assert core_refusal("a tournament needs a name") == "un tournoi a besoin d'un nom"
        assert core_refusal(long) == "le nom d'une série compte au plus 200 caractères"
        assert core_refusal(control) == "le nom contient le caractère de contrôle U+0007 à la position 5"
    with translation.override("es"):
        assert core_refusal(text_problem("a\x00b") or "") == "contiene un carácter NUL en la posición 2"


def test_a_json_bodys_shape_refusals_read_in_german() -> None:
    deep: object = 1
    for _ in range(MAX_JSON_DEPTH + 1):
        deep = [deep]
    (problem,) = structure_problems(deep).values()
    assert problem == f"nested more than {MAX_JSON_DEPTH} levels deep"
    with translation.override("de"):
        german = core_refusal(problem)
        key = core_refusal(structure_problems({"a\x01": 1})["body"])
    assert german == f"mehr als {MAX_JSON_DEPTH} Ebenen tief verschachtelt"
    assert key == "ein Schlüssel enthält das Steuerzeichen U+0001 an Position 2"


def test_a_players_name_and_email_refusals_read_in_german() -> None:
    with translation.override("de"):
        problems = [message for _, message in validate_player_fields("An\nn", "nope")]
        problems += [message for _, message in validate_player_fields("", "")]
        problems += [message for _, message in validate_player_fields("x" * 300, "")]
    assert problems == [
        "der Name enthält einen Zeilenumbruch an Position 3",
        "ungültige E-Mail-Adresse 'nope'",
        "leerer Name",
        problems[3],
    ]
    assert problems[3].startswith("Name länger als ") and not any(ENGLISH.search(p) for p in problems)
    assert [m for _, m in validate_player_fields("", "nope")] == ["empty name", "bad email 'nope'"]


def test_a_pages_refusal_of_characters_it_cannot_store_reads_in_german() -> None:
    from web.page_text import TextRefused

    with translation.override("de"):
        one = TextRefused({"name": "Ann\x07", "club": "a\x00"})
        several = TextRefused({"reason": "a\x01b\x02c\x03d\x04ef\x05"})
    assert one.message == (
        "Das Steuerzeichen U+0007 an Position 4 kann nicht gespeichert werden und wurde entfernt: prüfe den Text und"
        " sende ihn erneut. Auch entfernt aus: club."
    )
    assert several.message == (
        "5 Zeichen, die nicht gespeichert werden können, wurden entfernt (das Steuerzeichen U+0001 an Position 2,"
        " das Steuerzeichen U+0002 an Position 4, das Steuerzeichen U+0003 an Position 6 und 2 weitere): prüfe den"
        " Text und sende ihn erneut."
    )
    assert not ENGLISH.search(one.message.replace("club", "")) and not ENGLISH.search(several.message)
    with translation.override("es"):
        assert TextRefused({"note": "x\ny\x00"}).message.startswith("Un carácter NUL en la línea 2, posición 2 ")
