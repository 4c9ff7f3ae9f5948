"""No English left where the pure cores' words reach a person in Spanish, French or German.

The cores (dune/) write English; their words reach a page through the known translated calls:
a label through `core_word` (listed in foundation/core_words.LABELS), a refusal through
`core_refusal` (its template listed in REFUSALS, a phase named inside it through PHASES), and a
sentence a core assembles (a chart's caption and text alternative) through the `Words` the
Django layer hands it (dune/words.py). These tests fail when a core grows a label the lists
lack, when a listed word has no translation, or when a chart or the event report's CSV,
rendered in German, still holds a word of the English they were written in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from dune.engine.names import FACTION_NAMES, PHASE_NAMES
from dune.engine.results import ENDING_WORDS, RESULTS, kind_words
from dune.event_report.charts import charts
from dune.event_report.figures import event_report
from dune.points.awards import MEASURES
from dune.points.registry import SYSTEMS, TIEBREAKERS
from foundation.core_words import LABELS, PHASES, core_refusal, core_word
from insights.presenters import csv_rows
from tests.insights.test_figures import wbc_event

LANGUAGES = ("es", "fr", "de")
#: The words the charts and the event report's rows were written with: none may remain in German.
ENGLISH = re.compile(
    r"\b(games?|wins?|won|turns?|players?|heats?|final|rounds?|rate|results?|ended|lasted|often|filed|yet|"
    r"factions?|adjudicated|adjudications?|decided|tables?|victory|stronghold|alliance|loss|dropout|seat|"
    r"hours|mean|points|solo|limit|concessions?|best|headline|report|status|provisional|played|"
    r"without|clock|record|awards?|finalists|champion|placings|tied|not|of|the|and|or|by|at|no)\b",
    re.IGNORECASE,
)


def _core_labels() -> Iterator[str]:
    """Every label the cores hand a page as it is: result kinds, endings, points tables' names,
    tiebreaks, award measures (an abbreviation such as PP excepted)."""
    yield from (row.name for row in RESULTS.values())
    yield from (kind_words(kind) for kind in RESULTS)
    yield from (entry.label for system in SYSTEMS.values() for entry in system.table.values())
    yield from ENDING_WORDS.values()
    yield from (text for tb in TIEBREAKERS.values() for text in (*tb.labels, tb.summary) if text)
    yield from (text for m in MEASURES.values() for text in (m.summary, m.how, m.unit) if not text.isupper())


def test_every_label_the_cores_hand_a_page_is_listed_for_the_catalogue() -> None:
    assert sorted(set(_core_labels()) - set(LABELS)) == []
    assert set(PHASE_NAMES.values()) == set(PHASES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_listed_label_and_phase_has_its_translation(lang: str) -> None:
    catalogue = trans_real.translation(lang)._catalog
    assert [label for label in LABELS if label not in catalogue] == []
    assert [phase for phase in PHASES if f"phase\x04{phase}" not in catalogue] == []


def test_a_label_reads_in_the_readers_language() -> None:
    with translation.override("de"):
        assert core_word(RESULTS[next(iter(RESULTS))].name) == "ein Einzelsieg durch Festungen"
        assert core_word(ENDING_WORDS["time_limit"]) == "das Zeitlimit"
    with translation.override("en"):
        assert core_word(ENDING_WORDS["time_limit"]) == "the time limit"


def test_a_phase_named_inside_a_refusal_reads_in_the_readers_language() -> None:
    message = "battles are fought in the battle phase, not in the shipment and movement phase"
    with translation.override("fr"):
        assert core_refusal(message).endswith("pas en phase envoi et déplacement")
    with translation.override("de"):
        refused = core_refusal("spice blows only in the spice blow or storm phase, not in the battle phase")
        assert "Gewürzausbruch oder Sturm" in refused and refused.endswith("nicht in der Phase Schlacht")


def _english_left(texts: list[str]) -> list[str]:
    names = sorted(FACTION_NAMES.values(), key=len, reverse=True)
    found = []
    for text in texts:
        bare = text
        for name in names:  # names of the game stay as the board prints them
            bare = bare.replace(name, "")
        bare = bare.replace("WBC Dropouts", "")  # a rule's name, as rule numbers
        if ENGLISH.search(bare):
            found.append(text)
    return found


def test_the_charts_in_german_hold_no_english_word() -> None:
    report = event_report(wbc_event())
    with translation.override("de"):
        drawn = charts(report, faction_names=dict(FACTION_NAMES), words=translation)
    texts = []
    for chart in drawn:
        texts += [chart.title, chart.alt, *chart.columns, *(cell for row in chart.rows for cell in row)]
        texts += re.findall(r"<text[^>]*>([^<]+)</text>", chart.svg)
    assert _english_left(texts) == []
    wins = drawn[0]
    assert "Siege in den Vorrunden nach Fraktion: " in wins.alt and "gewann 2 von 7 Partien" in wins.alt
    assert drawn[3].rows[-1][0] == "Finale" and drawn[3].rows[0][0] == "Vorrunde 1"


def test_the_charts_in_english_are_unchanged_by_default() -> None:
    report = event_report(wbc_event())
    assert charts(report, faction_names=dict(FACTION_NAMES))[0].title == "Faction wins in the heats"


def test_the_event_report_csv_rows_in_german_hold_no_english_word() -> None:
    report = event_report(wbc_event())
    with translation.override("de"):
        rows = list(csv_rows(report, {}, dict(FACTION_NAMES)))
    words = [cell for row in rows for cell in row]
    assert _english_left(words) == []
    assert ("Eckdaten", "Partien", str(report.games)) in rows
    assert any(row[0] == "beendet durch" and row[1] == "das Zeitlimit" for row in rows)
    assert ("Finale", "beendet durch", "einen Sieg") in rows


def test_the_seating_pages_words_read_in_the_readers_language() -> None:
    from dune.seating_words import FLAG_WORDS, choice_words, flag_words

    options = [{"key": "fours:1"}, {"key": "wait:3"}]
    assert choice_words(19, options) == "seat 19: make a table of four, or keep 3 players waiting"
    with translation.override("es"):
        assert choice_words(19, options, translation) == "sentar a 19: hacer una mesa de cuatro o dejar a 3 jugadores esperando"
    for lang in LANGUAGES:
        with translation.override(lang):
            assert [flag for flag in FLAG_WORDS if flag_words(flag, translation) == FLAG_WORDS[flag]] == []


def test_every_format_field_the_format_page_shows_is_listed_and_translated() -> None:
    from dune.formats.document import FIELDS
    from foundation.core_words import FORMAT_WORDS

    shown = {text for f in FIELDS for text in (f.group, f.help, f.words) if text}
    points = {f.words for f in FIELDS if f.path.startswith("points.results.")}
    assert sorted(shown - points - set(FORMAT_WORDS)) == []
    for lang in LANGUAGES:
        catalogue = trans_real.translation(lang)._catalog
        assert [text for text in FORMAT_WORDS if text not in catalogue] == []


def test_a_phase_a_page_names_reads_in_the_readers_language() -> None:
    from gameplay.record_words import _phase
    from web.templatetags.table_tags import label

    with translation.override("de"):
        assert label("shipment_movement") == "Transport und Bewegung"
        assert _phase({"phase": "spice_blow"}) == "Die Phase Gewürzausbruch hat begonnen"
    with translation.override("en"):
        assert label("choam_charity") == "CHOAM Charity" and label("shipment_movement") == "Shipment and movement"


def test_a_standings_explanation_reads_in_the_readers_language() -> None:
    from scoring.presenters import explanation_words

    labels = ("best game QP", "best game strongholds")
    said = "2 points from 1 game: 1x solo stronghold victory (WBC QP). Tiebreak: best game QP 2, best game strongholds 0."
    assert explanation_words(said, labels) == said
    with translation.override("de"):
        assert explanation_words(said, labels) == (
            "2 Punkte aus 1 Partie: 1x Einzelsieg durch Festungen (WBC QP). "
            "Feinwertung: QP der besten Partie 2, Festungen der besten Partie 0."
        )
