"""The format's player options: faction preferences and player self-report, off in every preset,
and off (citing why) in a document written before they existed."""

from __future__ import annotations

import pytest

from dune.formats import format_from_document, get_format, preset_document
from dune.formats.document import ADDED_OFF, apply_changes, load_document


@pytest.mark.parametrize("key", ["wbc", "lolv", "ah1979"])
def test_the_presets_ask_no_preferences_and_take_no_self_report(key: str) -> None:
    fmt = get_format(key)
    assert (fmt.faction_preferences, fmt.self_report) == (False, False)
    assert fmt.document["rules"]["players.self_report"]


def test_a_document_written_before_the_player_options_reads_them_as_off() -> None:
    old = preset_document("wbc")
    del old["players"]
    for path in ADDED_OFF:
        del old["rules"][path]
    loaded = load_document(old)
    assert loaded["players"] == {"faction_preferences": False, "self_report": False}
    assert loaded["rules"]["players.self_report"] == ADDED_OFF["players.self_report"]


def test_an_event_turns_them_on_and_a_bad_value_is_refused_by_name() -> None:
    on = format_from_document(apply_changes(preset_document("lolv"), {
        "players.faction_preferences": True, "players.self_report": True}))
    assert on.faction_preferences and on.self_report
    with pytest.raises(ValueError, match="players.self_report"):
        format_from_document(apply_changes(preset_document("lolv"), {"players.self_report": "sometimes"}))
