"""WBC Best Faction Awards: performance points per turn (the normalisation per game is
scoring's; the worked example checks that the per-turn points feed it exactly). WBC only:
performance points are in no other text (test_other_rulesets_have_no_pp)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply
from dune.engine.numbers import decimal_str, parse_decimal

from .helpers import at, position, started, to_phase


def _pp(**kw: Any) -> Any:
    return {f: decimal_str(v) for f, v in evaluate(position(**kw)).pp.items()}


def test_wbc_pp_cities_one_each() -> None:
    """Controlling Carthag and/or Arrakeen: 1 PP each."""
    pp = _pp(forces=[at("harkonnen", "carthag"), at("harkonnen", "arrakeen")])
    assert pp["harkonnen"] == "2"


def test_wbc_pp_other_strongholds_fremen_one_others_half() -> None:
    pp = _pp(
        forces=[at("fremen", "sietch_tabr"), at("fremen", "habbanya_sietch"), at("guild", "tueks_sietch")]
    )
    assert pp["fremen"] == "2"
    assert pp["guild"] == "0.5"


def test_wbc_pp_bg_coexisting_tenth_each() -> None:
    """Coexisting in any stronghold (Bene Gesserit): 0.1 PP each."""
    forces = [
        at("bene_gesserit", "carthag"),
        at("harkonnen", "carthag"),
        at("bene_gesserit", "tueks_sietch"),
        at("guild", "tueks_sietch"),
    ]
    pp = _pp(forces=forces, coexisting=["carthag", "tueks_sietch"])
    assert pp["bene_gesserit"] == "0.2"
    assert pp["harkonnen"] == "1" and pp["guild"] == "0.5"


def test_wbc_pp_contested_and_shield_wall_earn_nothing() -> None:
    forces = [at("harkonnen", "carthag"), at("atreides", "carthag"), at("emperor", "shield_wall", sector=8)]
    pp = _pp(forces=forces, worms=4)
    assert pp["harkonnen"] == pp["atreides"] == pp["emperor"] == "0"


@pytest.mark.parametrize("ruleset", ["ah1979", "lolv-2.8.4"])
def test_other_rulesets_have_no_pp(ruleset: str) -> None:
    assert _pp(ruleset=ruleset, forces=[at("harkonnen", "carthag")]) == {}


def test_wbc_pp_accumulate_at_each_turn_end() -> None:
    """At the end of each game turn each player gains PP: the position keeps the totals."""
    pos = started()  # Atreides Arrakeen, Harkonnen Carthag, Guild Tuek's, Fremen Sietch Tabr
    for _ in range(3):
        pos = apply(to_phase(pos, "mentat_pause"), {"type": "turn_advanced"})
    assert pos.states["atreides"].pp == 3
    assert pos.states["fremen"].pp == 3
    assert pos.states["guild"].pp == Fraction(3, 2)
    assert evaluate(pos).pp_total["guild"] == Fraction(3, 2)


def test_wbc_pp_worked_example_5_players_7_turns() -> None:
    """WBC example: an Atreides player at a 5-player table scores 9.5 PP over 7 turns:
    9.5 / 7 x 5/6 = 1.131. The engine's per-turn points add up exactly to the 9.5."""
    five = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen")
    per_turn = [
        [at("atreides", "arrakeen"), at("atreides", "carthag")],  # 2
        [at("atreides", "arrakeen"), at("atreides", "carthag")],  # 2
        [at("atreides", "arrakeen"), at("atreides", "tueks_sietch")],  # 1.5
        [at("atreides", "arrakeen")],  # 1
        [at("atreides", "arrakeen")],  # 1
        [at("atreides", "arrakeen")],  # 1
        [at("atreides", "arrakeen")],  # 1
    ]
    total = sum((parse_decimal(_pp(factions=five, forces=f)["atreides"]) for f in per_turn), Fraction(0))
    assert total == Fraction(19, 2)
    normalised = total / len(per_turn) * Fraction(5, 6)
    assert round(normalised, 3) == Fraction(1131, 1000)
    assert decimal_str(total) == "9.5"
