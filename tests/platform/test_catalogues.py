"""The catalogues hold every marked string, translated: Spanish, French and German are complete.

`makemessages` extracts the marked strings of a copy of the sources (the pages' and the
scripts' domains, as `make messages` does) into a template; `msgcmp` then fails on any string of that template that a
shipped catalogue lacks, leaves untranslated or holds only as a fuzzy guess. This is what
`make messages` does, run where it changes nothing: a string marked without its translations
fails here, in CI, not at the venue.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("es", "fr", "de")
DOMAINS = ("django", "djangojs")
#: What makemessages reads: the apps, the pages, the scripts and the settings that find them.
SKIPPED = shutil.ignore_patterns(".venv", ".git", "var", "tests", "docs", "*.mo", "__pycache__", "*.egg-info")


def _catalogue(lang: str, domain: str) -> Path:
    return ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The freshly extracted template (.pot) of each domain, from a copy of the sources."""
    copy = tmp_path_factory.mktemp("sources") / "tree"
    shutil.copytree(ROOT, copy, ignore=SKIPPED)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.test_settings")}
    for domain in DOMAINS:
        scripts_only = ["--ignore=templates", "--ignore=static/vendor"] if domain == "djangojs" else []
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", "es", "-d", domain, "--keep-pot",
             "--ignore=.venv", "--ignore=tests", "--no-obsolete", "-v", "0", *scripts_only],
            cwd=copy, env=env, check=True, capture_output=True, text=True,
        )
    return {domain: copy / "locale" / f"{domain}.pot" for domain in DOMAINS}


def _missing(catalogue: Path, template: Path) -> str:
    """msgcmp's complaints: the template's strings the catalogue lacks, leaves empty or fuzzy."""
    answer = subprocess.run(["msgcmp", str(catalogue), str(template)], capture_output=True, text=True)
    return "" if answer.returncode == 0 else answer.stderr


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_marked_string_is_translated(templates: dict[str, Path], lang: str, domain: str) -> None:
    catalogue = _catalogue(lang, domain)
    assert catalogue.is_file(), f"{catalogue.relative_to(ROOT)} is missing"
    assert templates[domain].is_file() and "msgid" in templates[domain].read_text(encoding="utf-8")
    assert _missing(catalogue, templates[domain]) == ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalogue_compiles_with_every_plural_form_and_no_fuzzy_entry(lang: str, tmp_path: Path) -> None:
    for domain in DOMAINS:
        # -c: the formats match the source's, and each plural has the language's every form.
        compiled = subprocess.run(
            ["msgfmt", "-c", "-o", str(tmp_path / f"{domain}.mo"), str(_catalogue(lang, domain))],
            capture_output=True, text=True,
        )
        assert compiled.returncode == 0, compiled.stderr
        fuzzy = subprocess.run(
            ["msgattrib", "--only-fuzzy", "--no-obsolete", str(_catalogue(lang, domain))],
            capture_output=True, text=True, check=True,
        ).stdout
        assert "msgid" not in fuzzy, fuzzy[:2000]


def test_the_check_catches_a_string_without_its_translation(tmp_path: Path) -> None:
    template = tmp_path / "t.pot"
    template.write_text('msgid ""\nmsgstr ""\n\nmsgid "Where do I sit?"\nmsgstr ""\n', encoding="utf-8")
    untranslated = tmp_path / "u.po"
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    untranslated.write_text(header + 'msgid "Where do I sit?"\nmsgstr ""\n', encoding="utf-8")
    fuzzy = tmp_path / "f.po"
    fuzzy.write_text(header + '#, fuzzy\nmsgid "Where do I sit?"\nmsgstr "¿Dónde?"\n', encoding="utf-8")
    done = tmp_path / "d.po"
    done.write_text(header + 'msgid "Where do I sit?"\nmsgstr "¿Dónde me siento?"\n', encoding="utf-8")
    assert "untranslated" in _missing(untranslated, template)
    assert _missing(fuzzy, template) != ""
    assert _missing(done, template) == ""


def test_a_pure_cores_refusal_reads_in_the_readers_language() -> None:
    from django.utils import translation

    from foundation.core_words import core_refusal, core_word

    message = "battles are fought in the battle phase, not in the storm phase"
    with translation.override("de"):
        assert core_refusal(message) == "Schlachten werden in der Schlachtphase ausgetragen, nicht in der Phase Sturm"
        assert core_refusal("field 'type': unknown event type 'x'") == "Feld 'type': unbekannter Ereignistyp 'x'"
        assert core_word("Last turn") == "Letzter Zug" and core_word("Last 20 minutes") == "Letzte 20 Minuten"
    with translation.override("es"):
        assert core_refusal("an extension may be at most 60 minutes") == "una prórroga puede ser como mucho de 60 minutos"
    with translation.override("en"):
        assert core_refusal(message) == message
    assert core_refusal("words no core wrote") == "words no core wrote"


def test_the_engines_words_inside_a_refusal_read_in_the_readers_language() -> None:
    from django.utils import translation

    from foundation.core_words import core_refusal

    with translation.override("es"):
        assert core_refusal("Duncan Idaho is not dead (tanks face up): a ghola comes from the tanks") == (
            "Duncan Idaho no está muerto (en los tanques boca arriba): un ghola sale de los tanques"
        )
        assert core_refusal("a Terror token needs the Moritani in the game") == (
            "una ficha de Terror requiere a los Moritani en la partida"
        )
    with translation.override("de"):
        # The template naming the state outright wins over the one filling in any state.
        assert core_refusal("Paul Atreides is held captive by Harkonnen, not an active leader of Atreides") == (
            "Paul Atreides ist Gefangener von Harkonnen, kein aktiver Anführer von Atreides"
        )
        assert core_refusal("Terror tokens stand only in the five strongholds, not in Arrakeen and Imperial Basin") == (
            "Terror-Marker stehen nur in den fünf Festungen, nicht in Arrakeen und Imperial Basin"
        )
    with translation.override("fr"):
        assert core_refusal(
            "the Guild makes one of its three kinds of shipment a turn: it made a cross ship shipment, not also a normal one"
        ) == (
            "la Guild fait un de ses trois types d'envoi par tour : elle a fait un envoi de type « de territoire à "
            "territoire », pas aussi un de type « normal »"
        )


def test_a_field_of_the_engines_words_fits_only_those_words() -> None:
    from django.utils import translation

    from foundation.core_words import core_refusal

    with translation.override("fr"):
        assert core_refusal("'auction' is a list of 4 counts") == "'auction' est une liste de 4 nombres"
        assert core_refusal("AH 1979 has no Terror tokens") == "AH 1979 n'a pas de jetons Terreur"
        # "%(key)s is %(meaning)s" takes no sentence whose end is not one of its shapes.
        assert core_refusal("the sky is blue") == "the sky is blue"
    with translation.override("es"):
        assert core_refusal("a trade needs both players' consent; Ann and Bob have not consented") == (
            "un intercambio necesita el consentimiento de ambos jugadores; Ann y Bob no han dado su consentimiento"
        )


def test_a_refusals_result_kind_ending_and_replay_read_in_the_readers_language() -> None:
    from django.utils import translation

    from foundation.core_words import core_refusal

    with translation.override("es"):
        assert core_refusal("the recorded game ended by a concession, not by the turn limit") == (
            "la partida registrada terminó por una concesión, no por el límite de turnos"
        )
        assert core_refusal(
            "Fremen ships and moves before Atreides and Guild in storm order, and Atreides and Guild have begun: "
            "Fremen's turn is over; only the Guild may go out of turn"
        ) == (
            "Fremen envía y mueve antes que Atreides y Guild en el orden de la tormenta, y Atreides y Guild ya han "
            "empezado: el turno de Fremen ha terminado; solo la Guild puede jugar fuera de turno"
        )
    with translation.override("de"):
        assert core_refusal(
            "without the voided event, event 7 (storm_moved) would be refused: the storm has not been placed yet"
        ).startswith("ohne das annullierte Ereignis würde Ereignis 7 (storm_moved) abgelehnt: ")


def test_a_result_checks_refusal_reads_in_the_readers_language() -> None:
    from django.utils import translation

    from foundation.core_words import core_refusal

    with translation.override("fr"):
        assert core_refusal(
            "a solo stronghold victory cannot end a game by a concession (ended_by concession); it ends by a victory"
            " or the time limit"
        ) == (
            "une victoire individuelle par les forteresses ne peut pas terminer une partie par une concession "
            "(ended_by concession) ; elle se termine par une victoire ou la limite de temps"
        )
        assert core_refusal("Ann and Bob cannot be one alliance: three-faction alliances may not form in a final") == (
            "Ann et Bob ne peuvent pas former une alliance : les alliances à trois factions ne peuvent pas se former "
            "en finale"
        )


def test_a_victory_standing_and_a_final_pick_read_in_the_readers_language() -> None:
    from django.utils import translation

    from foundation.core_words import core_refusal

    with translation.override("de"):
        assert core_refusal(
            "Atreides and Fremen win at this Mentat Pause (rule AH IV.A): confirm the victory with the table"
            " (Confirm victory) instead of starting another turn"
        ) == (
            "Atreides und Fremen gewinnen bei dieser Mentat-Pause (Regel AH IV.A): bestätige den Sieg mit dem Tisch"
            " (Sieg bestätigen), statt einen weiteren Zug zu beginnen"
        )
        assert core_refusal("Harkonnen cannot be picked: Ann already picked it; still free: none") == (
            "Harkonnen kann nicht gewählt werden: Ann hat sie schon gewählt; noch frei: keine"
        )


def test_a_default_action_out_of_its_phase_reads_in_the_readers_language() -> None:
    from django.utils import translation

    from foundation.core_words import core_refusal

    with translation.override("de"):
        assert core_refusal("a default battle plan is taken only in the battle phase, not in the storm phase") == (
            "nur in der Phase Schlacht wird ein Standard-Schlachtplan genommen, nicht in der Phase Sturm"
        )


def test_the_engines_resolution_of_a_battle_reads_in_the_readers_language() -> None:
    from django.utils import translation

    from web.gameplay.page_forms import battle_words

    resolution = {
        "outcome": "battle", "winner": "atreides", "loser": "harkonnen", "totals": {},
        "losses": [{"faction": "harkonnen", "territory": "arrakeen", "normal": 3, "special": 0, "advisors": 0, "rule": "1.07.06"}],
        "leaders": [{"faction": "harkonnen", "leader": "feyd_rautha", "status": "tanks_face_up", "rule": "1.07.06.02"}],
        "rulings": [{"text": "Atreides wins 5 to 5 (the aggressor wins a tie)", "rule": "1.07.06.00"}],
    }
    with translation.override("es"):
        words = battle_words(resolution)
    assert words["head"] == "Atreides gana; Harkonnen pierde"
    assert words["lines"][0] == ("Harkonnen pierde 3 fuerzas en Arrakeen", "1.07.06")
    assert words["lines"][1][0].endswith("(Harkonnen): en los tanques boca arriba")
    assert words["rulings"] == [("Atreides gana 5 a 5 (el agresor gana los empates)", "1.07.06.00")]
    with translation.override("en"):
        assert battle_words(resolution)["head"] == "Atreides win; Harkonnen lose"
