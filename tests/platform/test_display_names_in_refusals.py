"""A refusal names a clock's time limit and a movement card by their names, never their ids, and
reads in the reader's language: the platform's words translated ("WBC heat" is a German
"WBC-Vorrunde"), the cards' names as the cards print them (locale/GLOSSARY.md)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from dune.clock_limits import LIMIT_NAMES, LIMITS
from dune.engine.battle.resolve import resolve_battle
from dune.engine.errors import OutOfTime, RuleViolation
from dune.engine.events import event_from_dict
from dune.engine.game_log import apply
from dune.engine.movement import MOVE_CARD_NAMES, MOVE_KIND_WORDS
from dune.engine.rulesets import RULESETS
from foundation.core_words import MOVE_KINDS, WORD_FIELDS, core_refusal
from tests.engine.battle_helpers import battle, battle_pos, plan
from tests.engine.helpers import at, position, started, to_phase

IDS = re.compile(r"wbc_heat|wbc_final|'hajr'|'kulon'|'ornithopter'|cross_ship")


def _turn_refused(ruleset: str, clock: str) -> OutOfTime:
    pos = to_phase(apply(started(ruleset), {"type": "time_up", "clock": clock}), "mentat_pause")
    with pytest.raises(OutOfTime) as info:
        apply(pos, {"type": "turn_advanced"})
    return info.value


def _move_refused(ruleset: str, **move: object) -> RuleViolation:
    pos = position(ruleset=ruleset, storm=9, phase="shipment_movement",
                   forces=[at("emperor", "meridian", 2, sector=1)], per_faction={"emperor": {"cards": 1}})
    event = {"type": "forces_moved", "faction": "emperor", "from_territory": "meridian", "from_sector": 1,
             "to_territory": "cielago_west", "to_sector": 0, "normal": 1, **move}
    with pytest.raises(RuleViolation) as info:
        apply(pos, event)
    return info.value


def test_wbc_preliminary_heat_duration_the_clock_that_ran_out_is_named_and_translated() -> None:
    refusal = _turn_refused("wbc2018", "wbc_heat")
    assert refusal.message == "the table's clock ran out (WBC heat): no new turn may start"
    with translation.override("de"):
        german = core_refusal(refusal.message)
    assert german == "die Uhr des Tisches ist abgelaufen (WBC-Vorrunde): kein neuer Zug darf beginnen"
    assert not IDS.search(german) and "heat" not in german
    with translation.override("fr"):
        assert core_refusal(_turn_refused("lolv-2.8.4", "lolv").message).startswith(
            "l'horloge de la table est écoulée (LoLV)")


def test_every_clock_limit_has_a_name_the_pages_translate() -> None:
    assert set(LIMIT_NAMES) == set(LIMITS)
    assert set(LIMIT_NAMES.values()) == set(WORD_FIELDS["time_up"])


def test_wbc_player_aid_hajr_a_movement_card_is_named_as_it_prints() -> None:
    not_a_card = _move_refused("ah1979", card="hajr")
    assert not_a_card.message == "Hajr is not a movement card in Avalon Hill 1979"
    worm = _move_refused("wbc2018", card="hajr", via="cross_ship")
    assert worm.message == "Hajr is played with a force movement, not a cross-ship"
    kulon = _move_refused("lolv-2.8.4", card="kulon")
    assert kulon.message.startswith("only CHOAM may use Kulon (")
    with translation.override("de"):
        german = [core_refusal(r.message) for r in (not_a_card, worm, kulon)]
    assert german[0] == "Hajr ist in Avalon Hill 1979 keine Bewegungskarte"
    assert german[1] == "Hajr wird mit einer Truppenbewegung gespielt, nicht mit einer Verschiffung zwischen Gebieten"
    assert german[2].startswith("nur CHOAM darf Kulon nutzen (")
    assert not any(IDS.search(line) for line in german)
    assert not re.search(r"\b(is|not|with|may use|played)\b", " ".join(german))


def test_every_movement_card_and_kind_of_move_has_its_words() -> None:
    cards = {key for ruleset in RULESETS.values() for key in ruleset.movement.cards}
    assert cards <= set(MOVE_CARD_NAMES)
    assert set(MOVE_KIND_WORDS.values()) == set(MOVE_KINDS)
    for language in ("es", "fr", "de"):
        with translation.override(language):
            assert all(str(words) != english for english, words in MOVE_KINDS.items()), language


def test_1_07_06_01_a_battle_names_its_cards_and_leaders_as_they_print() -> None:
    pos = battle_pos("lolv-2.8.4")
    body = battle(plan("lolv-2.8.4", "atreides", 3, leader="thufir_hawat", weapon="crysknife", defense="shield"),
                  plan("lolv-2.8.4", "harkonnen", 2, leader="feyd_rautha", weapon="chaumas", defense="shield"))
    rulings = [row.text for row in resolve_battle(pos, event_from_dict(body)).rulings]
    assert "Chaumas kills Thufir Hawat of Atreides" in rulings
    with translation.override("de"):
        german = [core_refusal(text) for text in rulings]
    assert not any("thufir_hawat" in line or "chaumas" in line for line in german)
    generic = battle(plan("lolv-2.8.4", "atreides", 3, leader="thufir_hawat", weapon="projectile"),
                     plan("lolv-2.8.4", "harkonnen", 2, leader="feyd_rautha"))
    generic_rulings = [row.text for row in resolve_battle(pos, event_from_dict(generic)).rulings]
    assert "a projectile weapon kills Feyd-Rautha of Harkonnen" in generic_rulings
    with translation.override("es"):
        spanish = [core_refusal(text) for text in generic_rulings]
    assert any(line.startswith("un arma de proyectil ") and "Feyd-Rautha" in line for line in spanish), spanish


def test_1_07_04_a_battle_plans_card_refusals_name_the_cards() -> None:
    pos = battle_pos("lolv-2.8.4")
    body = battle(plan("lolv-2.8.4", "atreides", 2, leader="thufir_hawat", weapon="shield"),
                  plan("lolv-2.8.4", "harkonnen", 2, leader="feyd_rautha"))
    with pytest.raises(RuleViolation) as info:
        apply(pos, body)
    assert info.value.message == "Shield is a defense, not a weapon"
    with translation.override("de"):
        german = core_refusal(info.value.message)
    assert german.startswith("Shield ") and "defense" not in german and "weapon" not in german



def test_1_07_06_the_cards_a_side_discards_are_named_as_they_print() -> None:
    from web.gameplay.page_forms import battle_words

    resolution = {"outcome": "battle", "winner": "harkonnen", "loser": "atreides", "totals": {}, "losses": [],
                  "leaders": [], "rulings": [], "discarded": {"atreides": ["maula_pistol", "worthless"]}}
    with translation.override("fr"):
        lines = [words for words, _rule in battle_words(resolution)["lines"]]
    assert any("Maula Pistol, une carte sans valeur" in line for line in lines), lines
    assert not any("maula" in line or "worthless" in line for line in lines)
