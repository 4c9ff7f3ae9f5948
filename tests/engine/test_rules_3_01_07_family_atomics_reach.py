"""Family Atomics is played by a player with forces on the Shield Wall or in a territory next
to it with no storm between (LoLV 3.01.07, WBC VI.5); advisors and coexisting BG tokens do not
count (LoLV 2.02.12, WBC VI.4). Checked from the third edition of the rulings; the AH text
gives no card wording (AH questions A.2 only says the storm does not stop it), so AH refuses
nothing here."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import CORRECTED, REFINED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import at, position

RULE = {"wbc2018": ("WBC VI.5", "WBC VI.4"), "lolv-2.8.4": ("3.01.07", "2.02.12")}
ATOMICS = {"type": "family_atomics", "faction": "bene_gesserit"}


def _pos(ruleset: str, forces: list[dict[str, Any]], edition: int = REFINED, **kw: Any) -> Position:
    return position(ruleset=ruleset, edition=edition, phase="storm", turn=3, forces=forces, **kw)


def _refused(pos: Position, rule: str) -> None:
    with pytest.raises(IllegalAction) as info:
        apply(pos, ATOMICS)
    assert info.value.rule == rule
    assert info.value.field == "faction"


@pytest.mark.parametrize("ruleset", sorted(RULE))
def test_3_01_07_family_atomics_needs_forces_on_or_next_to_the_shield_wall(ruleset: str) -> None:
    reach, _ = RULE[ruleset]
    far = [at("bene_gesserit", "the_great_flat", 2, sector=14)]
    _refused(_pos(ruleset, far), reach)
    assert apply(_pos(ruleset, far, CORRECTED), ATOMICS).family_atomics  # the second edition
    on_wall = [at("bene_gesserit", "shield_wall", 1, sector=7)]
    assert apply(_pos(ruleset, on_wall, storm=7), ATOMICS).family_atomics  # storm or not
    beside = [at("bene_gesserit", "hole_in_the_rock", 1, sector=8)]
    assert apply(_pos(ruleset, beside, storm=7), ATOMICS).family_atomics


@pytest.mark.parametrize("ruleset", sorted(RULE))
def test_wbc_vi_5_no_family_atomics_with_the_storm_between(ruleset: str) -> None:
    reach, _ = RULE[ruleset]
    mesa = [at("bene_gesserit", "pasty_mesa", 1, sector=4)]
    assert apply(_pos(ruleset, mesa, storm=0), ATOMICS).family_atomics
    _refused(_pos(ruleset, mesa, storm=5), reach)
    _refused(_pos(ruleset, [at("bene_gesserit", "pasty_mesa", 1, sector=5)], storm=5), reach)


def test_2_02_12_advisors_do_not_play_family_atomics() -> None:
    advisors = [at("bene_gesserit", "shield_wall", 0, advisors=2, sector=7)]
    _refused(_pos("lolv-2.8.4", advisors), "2.02.12")


def test_wbc_vi_4_coexisting_bg_tokens_do_not_play_family_atomics() -> None:
    tokens = [at("bene_gesserit", "shield_wall", 2, sector=7), at("emperor", "shield_wall", 1, sector=7)]
    _refused(_pos("wbc2018", tokens, coexisting=["shield_wall"]), "WBC VI.4")
    assert apply(_pos("wbc2018", tokens), ATOMICS).family_atomics


def test_ah_questions_a_2_no_reach_refused_under_ah() -> None:
    far = [at("bene_gesserit", "the_great_flat", 2, sector=14)]
    assert apply(_pos("ah1979", far), ATOMICS).family_atomics
