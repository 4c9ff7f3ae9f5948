"""The seating planner's issues and a player's place read in Spanish, French and German.

The planner writes its issues in English (they are stored with the round and the API hands them
out as written); the round's seating page shows each through `core_refusal`, which finds the
issue's template in foundation/core_words.REFUSALS and fills it with the names as they are, how
often two players met in the reader's words (once, twice, 3 times), why they are kept apart and
the factions joined by the reader's "and". A place ("1st", "placed 2nd (tied)") is the
reader's too: "1.º", "1er", "2e", "1.".
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from dune.engine.ids import CLASSIC_FACTIONS
from dune.seating import KeepApart, SeatingPlan, times_count, times_words
from foundation.core_words import core_refusal
from scoring.player_states import ALTERNATE, FINALIST, PLACED, SEATED, PlayerState, ordinal
from tests.seating.helpers import past_round, plan

NAMES = {1: "Alia Atreides", 2: "Bijaz Tleilax", 3: "Chani Kynes", 4: "Duncan Idaho", 5: "Esmar Tuek", 6: "Feyd Rautha"}
#: The planner's English words, none of which may be left in a translated issue ("table" is French too).
ENGLISH = re.compile(r"\b(already|met|once|twice|times?|and|share|asked|kept|apart|request|household|club|"
                     r"but|played|gets|it|them|again|at)\b")


def _met(times: int) -> SeatingPlan:
    """Six players who all sat together `times` rounds before, seated again at one table."""
    history = tuple(t for r in range(times) for t in past_round(r + 1, [[1, 2, 3, 4, 5, 6]]))
    return plan(6, history=history, names=NAMES, keep_apart=(KeepApart(frozenset({1, 2}), kind="household"),))


def _repeats() -> SeatingPlan:
    every = tuple(
        t
        for r in range(6)
        for t in past_round(r + 1, [[1, 2, 3, 4, 5, 6]], {p: CLASSIC_FACTIONS[(p + r) % 6] for p in range(1, 7)})
    )
    return plan(6, seed=3, history=every, names=NAMES)


def _issue(plan_: SeatingPlan, code: str) -> str:
    return next(i.message for i in plan_.issues if i.code == code and i.players[0] == 1)


def test_how_often_two_players_met_reads_back_as_its_count() -> None:
    assert [times_words(n) for n in (1, 2, 3, 7)] == ["once", "twice", "3 times", "7 times"]
    assert [times_count(times_words(n)) for n in (1, 2, 3, 7)] == [1, 2, 3, 7]
    assert times_count("often") is None


@pytest.mark.parametrize(
    ("lang", "once", "twice", "three"),
    [
        ("es", "ya se enfrentaron una vez", "ya se enfrentaron dos veces", "ya se enfrentaron 3 veces"),
        ("fr", "déjà affrontés une fois", "déjà affrontés deux fois", "déjà affrontés 3 fois"),
        ("de", "schon einmal begegnet", "schon zweimal begegnet", "schon 3-mal begegnet"),
    ],
)
def test_a_repeat_opponent_reads_in_the_readers_language_with_its_count(
    lang: str, once: str, twice: str, three: str
) -> None:
    messages = [_issue(_met(n), "repeat_opponent_unavoidable") for n in (1, 2, 3)]
    assert messages[0] == "Alia Atreides and Bijaz Tleilax already met once and share table 1"
    with translation.override(lang):
        shown = [core_refusal(m) for m in messages]
    for text, words in zip(shown, (once, twice, three), strict=True):
        assert words in text and "Alia Atreides" in text and "Bijaz Tleilax" in text, text
        assert ENGLISH.findall(text) == [], text


@pytest.mark.parametrize(("lang", "why"), [("es", "(mismo hogar)"), ("fr", "(même foyer)"), ("de", "(Haushalt)")])
def test_a_keep_apart_request_not_honoured_reads_in_the_readers_language(lang: str, why: str) -> None:
    message = _issue(_met(1), "keep_apart_violated")
    assert message == "Alia Atreides and Bijaz Tleilax asked to be kept apart (household) but share table 1"
    with translation.override(lang):
        shown = core_refusal(message)
    assert why in shown and ENGLISH.findall(shown) == [], shown


@pytest.mark.parametrize("lang", ["es", "fr", "de"])
def test_a_faction_played_again_reads_in_the_readers_language(lang: str) -> None:
    messages = [i.message for i in _repeats().issues if i.code == "faction_repeat_unavoidable"]
    assert len(messages) == 6
    two = "Alia Atreides already played Bene Gesserit and CHOAM and gets them again at table 1"
    with translation.override(lang):
        shown = [core_refusal(m) for m in (*messages, two)]
    for text in shown:
        assert ENGLISH.findall(text) == [], text
    assert {"es": " y ", "fr": " et ", "de": " und "}[lang] + "CHOAM" in shown[-1]


@pytest.mark.parametrize(
    ("lang", "places"),
    [
        ("en", ["1st", "2nd", "3rd", "4th", "11th", "21st", "22nd", "113th"]),
        ("es", ["1.º", "2.º", "3.º", "4.º", "11.º", "21.º", "22.º", "113.º"]),
        ("fr", ["1er", "2e", "3e", "4e", "11e", "21e", "22e", "113e"]),
        ("de", ["1.", "2.", "3.", "4.", "11.", "21.", "22.", "113."]),
    ],
)
def test_a_place_reads_as_the_readers_ordinal(lang: str, places: list[str]) -> None:
    with translation.override(lang):
        assert [ordinal(n) for n in (1, 2, 3, 4, 11, 21, 22, 113)] == places


@pytest.mark.parametrize(
    ("lang", "placed", "tied", "alternate", "top"),
    [
        ("en", "placed 1st", "placed 2nd (tied)", "alternate 2", "in the top 6 so far"),
        ("es", "1.º puesto", "2.º puesto (empate)", "suplente 2", "entre los 6 primeros por ahora"),
        ("fr", "classé 1er", "classé 2e (ex æquo)", "remplaçant 2", "dans les 6 premiers pour l'instant"),
        ("de", "Platz 1.", "Platz 2. (gleichauf)", "Nachrücker 2", "bisher unter den ersten 6"),
    ],
)
def test_a_players_standing_reads_in_the_readers_language(
    lang: str, placed: str, tied: str, alternate: str, top: str
) -> None:
    with translation.override(lang):
        assert PlayerState(1, PLACED, place=1).words == placed
        assert PlayerState(1, PLACED, place=2, tied=True).words == tied
        assert PlayerState(1, ALTERNATE, alternate=2).words == alternate
        assert PlayerState(1, SEATED, ranked=True, provisional=True, top=True, seats=6).words == top
        states = [PlayerState(1, FINALIST, came_in_as_alternate=True), PlayerState(1, SEATED, ranked=True)]
        if lang != "en":
            english = ["in the final (came in as an alternate)", "not qualified"]
            assert [s.words for s in states if s.words in english] == []


@pytest.mark.parametrize(("lang", "place"), [("es", r"\d+\.º"), ("fr", r"\d+(er|e)"), ("de", r"\d+\.")])
def test_the_event_reports_final_placings_read_as_the_readers_ordinals(lang: str, place: str) -> None:
    from dataclasses import replace

    from dune.engine.names import FACTION_NAMES
    from dune.event_report.figures import event_report
    from dune.points.placings import Placing
    from insights.presenters import csv_rows
    from tests.insights.test_figures import wbc_event

    placings = (Placing(1, False, 11, "sole winner"), Placing(2, True, 7, "loss"), Placing(2, True, 8, "loss"))
    report = event_report(replace(wbc_event(), placings=placings))
    with translation.override(lang):
        rows = list(csv_rows(report, {}, dict(FACTION_NAMES)))
        section = translation.gettext("final placings")
    placings = [row[1] for row in rows if row[0] == section]
    assert placings and all(re.fullmatch(place + r"( \(.+\))?", p) for p in placings), placings


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Recorded: storm moved (record #12), then turn 3 (record #13)."),
        ("es", "Registrado: tormenta movida (registro n.º 12), luego turno 3 (registro n.º 13)."),
        ("fr", "Enregistré : tempête déplacée (enregistrement n° 12), puis tour 3 (enregistrement n° 13)."),
        ("de", "Erfasst: Sturm bewegt (Eintrag Nr. 12), dann Zug 3 (Eintrag Nr. 13)."),
    ],
)
def test_the_line_after_a_record_reads_in_the_readers_language(lang: str, line: str) -> None:
    from gameplay.commands import Recorded
    from web.gameplay.views import _notice

    body = {"event": {"seq": 12, "type": "storm_moved"}, "seq": 13, "position": {"turn": 3, "phase": "storm"}}
    with translation.override(lang):
        assert _notice(Recorded(status=201, body=body), then_turn=True) == line
