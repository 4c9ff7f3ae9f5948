"""Every name a person reads in words: one name per result kind on every page and in every
points table, the award measure by what it measures, a round's field by its round."""

from __future__ import annotations

import pytest

from dune.engine.ids import ResultKind
from dune.engine.results import kind_words
from dune.formats import get_format, preset_document
from dune.formats.document import Difference, differences
from web.scoring.views import SHORT
from web.templatetags.table_tags import label

PRESETS = ("wbc", "lolv", "ah1979")


@pytest.mark.parametrize("kind", list(ResultKind))
def test_a_result_kind_has_one_name(kind: ResultKind) -> None:
    assert label(kind.value).lower() == kind_words(kind).lower()
    assert SHORT[kind.value] == kind_words(kind)


def test_wbc_qp_the_fremen_special_victory_is_named_as_such() -> None:
    """WBC QP scores AH IV.B's Fremen special win as the Fremen default, under its own name."""
    table = get_format("wbc").points.table
    assert table[ResultKind.FREMEN_SPECIAL_SOLO].label == "solo Fremen special victory"
    assert table[ResultKind.FREMEN_SPECIAL_SOLO].points == table[ResultKind.FREMEN_DEFAULT_SOLO].points
    assert table[ResultKind.FREMEN_SPECIAL_ALLIED].label == "allied Fremen special victory"
    assert {kind_words(k) for k in table} == {e.label for e in table.values()}  # one name per kind


@pytest.mark.parametrize("key", PRESETS)
def test_a_points_table_names_each_line_once(key: str) -> None:
    system = get_format(key).points
    described = system.description
    for entry in {e.label for e in system.table.values()}:
        assert described.count(f"{entry} ") <= 1 or entry in ("loss", "dropout"), entry


def test_the_differences_say_the_measure_and_the_round_in_words() -> None:
    preset = preset_document("wbc")
    event = {**preset, "awards": {**preset["awards"], "measure": "strongholds_per_turn"},
             "rounds": {**preset["rounds"], "heat": {**preset["rounds"]["heat"], "hours": 4}}}
    said = {d.field: (d.words, d.event_words, d.preset_words) for d in differences(preset, event)}
    words, now, was = said["awards.measure"]
    assert "_" not in now and "_" not in was and "per turn" in now
    assert said["rounds.heat.hours"][0] == "heat time limit (hours)"
    assert isinstance(next(iter(differences(preset, event))), Difference)
