"""The one rule for text anyone sends (dune/text_rules.py), without a database."""

from __future__ import annotations

from dune.text_rules import refused_characters, text_problem, without_refused


def test_the_api_wording_of_each_refused_character() -> None:
    assert text_problem("ab\x00") == "contains a NUL character at position 3"
    assert text_problem("a\ud800") == "contains an unpaired surrogate (not valid Unicode) at position 2"
    assert text_problem("\x1b[31m") == "contains the control character U+001B at position 1"
    assert text_problem("a\x85b") == "contains the control character U+0085 at position 2"


def test_tabs_and_line_breaks_stay_allowed() -> None:
    text = "Turn 3:\tstorm\r\nmoved"
    assert text_problem(text) is None
    assert refused_characters(text) == []
    assert without_refused(text) == text


def test_every_refused_character_is_found_and_taken_out() -> None:
    text = "A\x07l\x00i\ud800a\x7f"
    assert refused_characters(text) == [
        (2, "the control character U+0007"),
        (4, "a NUL character"),
        (6, "an unpaired surrogate (not valid Unicode)"),
        (8, "the control character U+007F"),
    ]
    assert without_refused(text) == "Alia"
    assert text_problem(without_refused(text)) is None
