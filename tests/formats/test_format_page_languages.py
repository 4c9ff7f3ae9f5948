"""The head judge's format page and the tournament page's list of differences read wholly in
Spanish, French and German: the fields' names, the choices (how factions are dealt, the tracking
depth, the Shield Wall's side, the tiebreakers, the award measure), yes and no, "(none)" and
"all", the numbers' decimal mark, the rules the presets cite (their rule numbers kept) and each
difference from the preset. What a page must not show is read from the catalogue itself
(tests/e2e/test_languages.py `english_left`, and its TELLTALES of assembled English)."""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser
from typing import Any

import pytest

from tests.e2e.test_languages import TELLTALES, english_left
from tests.factories import make_tournament
from tournament import commands

pytestmark = pytest.mark.django_db

#: A change to each kind of field: a choice, a number, a yes or no, a list of keys.
CHANGES = {
    "wbc": {"rounds.heat.tracking": "full", "rounds.heat.turns": 8, "awards.best_faction": False,
            "engine.shield_wall_counts": "imperial_basin_side", "points.tiebreaks": ["best_game"],
            "rules.rounds.heat.turns": "WBC 2018 house rules"},
    "ah1979": {"factions.trades": False, "points.results.adjudicated": "0.25", "engine.coexistence": "declared"},
    "lolv": {"rounds.final.tracking": "quick", "points.alternates": 2},
}


class _Texts(HTMLParser):
    """The texts a reader sees in a page's main part (and its read attributes), not what a
    form posts (an input's value)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0
        self._main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self._main = True
        if tag in ("script", "style", "template"):
            self._skip += 1
        for name, value in attrs:
            if self._main and name in ("title", "aria-label", "placeholder", "alt") and value and value.strip():
                self.texts.append(" ".join(value.split()))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self._skip -= 1
        if tag == "main":
            self._main = False

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if self._main and not self._skip and text:
            self.texts.append(text)


def _english(html: str, lang: str) -> list[str]:
    parser = _Texts()
    parser.feed(html)
    whole, runs = english_left(lang)
    found = [t for t in parser.texts if t in whole or TELLTALES.search(t)]
    found += [f"{r!r} in {t!r}" for t in parser.texts for r in runs if r in t]
    return found


def _changed(preset: str, head_judge: Any) -> Any:
    tournament = make_tournament(format=preset, head_judge=head_judge)
    changes = dict(CHANGES[preset])
    commands.change_format(tournament, {"format_changes": changes}, actor=head_judge, key=None)
    tournament.refresh_from_db()
    assert len(tournament.rules.differences()) == len(changes)
    return tournament


@pytest.mark.parametrize("lang", ["es", "fr", "de"])
@pytest.mark.parametrize("preset", sorted(CHANGES))
def test_the_format_page_leaves_no_english(client: Any, head_judge: Any, preset: str, lang: str) -> None:
    tournament = _changed(preset, head_judge)
    client.force_login(head_judge)
    client.cookies["django_language"] = lang
    for url in (f"/tournaments/{tournament.pk}/format/", f"/tournaments/{tournament.pk}/"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 200
        html = response.content.decode()
        assert f'lang="{lang}"' in html
        assert _english(html, lang) == [], url


def test_the_check_catches_the_english_options_and_rules(client: Any, head_judge: Any) -> None:
    """The same page in English shows what the check catches: the choices, yes and no, the
    presets' rules and the differences in English."""
    tournament = _changed("wbc", head_judge)
    client.force_login(head_judge)
    html = client.get(f"/tournaments/{tournament.pk}/format/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    found = " | ".join(_english(html, "de"))
    for english in ("full tracking (every force, spice and card)", "the whole territory", "yes", "no",
                    "WBC 2018 format (heats: tables of 6, at least 5)",
                    "the best game (its points, then win attempts"):
        assert english in found or english.capitalize() in found, english


def test_the_german_page_says_the_choices_values_and_differences_in_german(client: Any, head_judge: Any) -> None:
    tournament = _changed("wbc", head_judge)
    client.force_login(head_judge)
    client.cookies["django_language"] = "de"
    html = client.get(f"/tournaments/{tournament.pk}/format/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<option value="imperial_basin_side" selected>nur die Seite am Imperial Basin</option>' in html
    assert "Vorrunde: Zuglimit</strong>: 8 statt 10" in html
    assert "<span data-preset>0,5</span>" in html  # the points' decimal mark
    assert "<span data-rule>WBC-2018-Format (Vorrunden: Tische zu 6, mindestens 5)</span>" in html
    assert 'name="points.tiebreaks" value="best_game"' in html  # the form posts keys


#: A format's own heat clock: 9 turns or 4 hours, no new turn in the last 20 minutes.
OWN_CLOCK = {"rounds.heat.turns": 9, "rounds.heat.hours": 4, "rounds.heat.no_new_turn_minutes": 20}
OWN_CLOCK_WORDS = {
    "en": "WBC Dune heat: 9 turns or 4 hours, no new turn in the last 20 minutes",
    "es": "WBC Dune, ronda clasificatoria: 9 turnos o 4 horas, ningún turno nuevo en los últimos 20 minutos",
    "fr": "WBC Dune, manche : 9 tours ou 4 heures, aucun nouveau tour dans les 20 dernières minutes",
    "de": "WBC Dune, Vorrunde: 9 Züge oder 4 Stunden, kein neuer Zug in den letzten 20 Minuten",
}


@pytest.mark.parametrize("lang", ["en", "es", "fr", "de"])
def test_a_clock_limit_a_tournaments_own_format_builds_reads_in_the_readers_language(
    client: Any, head_judge: Any, lang: str
) -> None:
    from clocks import services as clocks
    from tests.factories import make_players, make_round, seat_table

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    commands.change_format(tournament, {"format_changes": dict(OWN_CLOCK)}, actor=head_judge, key=None)
    tournament.refresh_from_db()
    assert tournament.rules.clock("heat").format_name  # not the preset's limit
    heat = make_round(tournament)
    table = seat_table(heat, make_players(tournament, 6))
    clocks.start(table, user=head_judge)
    client.force_login(head_judge)
    client.cookies["django_language"] = lang
    for url in (f"/rounds/{heat.pk}/clocks/", f"/tables/{table.pk}/clock/"):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert OWN_CLOCK_WORDS[lang] in html, url
    shown = client.get(f"/api/tables/{table.pk}/clock/", HTTP_ACCEPT_LANGUAGE=lang).json()
    assert OWN_CLOCK_WORDS[lang] in str(shown)


def test_a_limit_per_player_says_its_hours_with_the_readers_decimal_mark() -> None:
    from datetime import timedelta

    from django.utils import translation

    from dune.clock_limits import LOLV_LIMIT, limit_words

    own = replace(LOLV_LIMIT, format_name="Club", per_player=timedelta(minutes=90), turns=8)
    assert limit_words(own) == "Club heat: 8 turns, 1.5 hours per player, then 30 minutes to finish the turn"
    with translation.override("de"):
        assert limit_words(own, translation) == (
            "Club, Vorrunde: 8 Züge, 1,5 Stunden pro Spieler, dann 30 Minuten, um den Zug zu beenden"
        )
        assert limit_words(LOLV_LIMIT, translation).startswith("LoLV: 1 Stunde pro Spieler")


def test_once_seated_the_page_says_why_the_format_is_fixed_in_the_readers_language(
    client: Any, head_judge: Any
) -> None:
    from tests.factories import make_players, make_round, seat_table

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    seat_table(make_round(tournament), make_players(tournament, 6))
    client.force_login(head_judge)
    client.cookies["django_language"] = "de"
    html = client.get(f"/tournaments/{tournament.pk}/format/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Runde 1 (Vorrunde) ist bereits gesetzt" in html
    assert "ein Format steht fest, sobald die erste Runde gesetzt ist" in html
    assert _english(html, "de") == []
