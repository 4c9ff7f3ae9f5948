"""What the engine derives and the judge confirms in one record: CHOAM Charity (LoLV 1.03.01-02,
2.02.09; AH VIII.I, VIII.I.1), the collection round (1.08.01-02, AH XI.A) with the cities' and Tuek's
income (AH XI.C; LoLV 1.13.01 in the Advanced game only)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import ADVANCED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.income import charity_due, collection_due, income_due
from dune.engine.position import Position
from tests.engine.helpers import AH_WBC, CLASSIC, LOLV, at, snap

SPICE = {"atreides": 0, "bene_gesserit": 5, "emperor": 1, "fremen": 3, "harkonnen": 2, "guild": 7}


def _pos(ruleset: str, phase: str, **extra: Any) -> Position:
    per = {f: {"spice": n} for f, n in SPICE.items()}
    return load_position(snap(ruleset, CLASSIC, phase=phase, per_faction=per, **extra))


def _charity(pos: Position, amounts: dict[str, int]) -> Position:
    return apply(pos, {"type": "charity_collected", "amounts": amounts})


def test_1_03_01_lolv_brings_0_or_1_spice_to_2_and_the_bg_always_receive_2() -> None:
    """1.03.01 with 2.02.09."""
    pos = _pos(LOLV, "choam_charity")
    due = charity_due(pos)
    assert due == {"atreides": 2, "emperor": 1, "bene_gesserit": 2}
    after = _charity(pos, due)
    assert {f: st.spice for f, st in after.states.items()} == {**SPICE, "atreides": 2, "emperor": 2, "bene_gesserit": 7}
    assert load_position(dump_position(after)) == after


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_viii_i_1_no_spice_receives_2_and_the_bg_from_the_second_turn(ruleset: str) -> None:
    """AH VIII.I and AH VIII.I.1, at the start of the bidding round."""
    assert charity_due(_pos(ruleset, "bidding", turn=1)) == {"atreides": 2}
    assert charity_due(_pos(ruleset, "bidding", turn=2)) == {"atreides": 2, "bene_gesserit": 2}


def test_1_03_02_charity_once_a_turn_and_as_derived() -> None:
    pos = _pos(LOLV, "choam_charity")
    with pytest.raises(IllegalAction) as err:
        _charity(pos, {"atreides": 2})
    assert err.value.rule == "1.03.01" and err.value.field == "amounts"
    assert "Atreides 2, Bene Gesserit 2 and Emperor 1" in err.value.message
    after = _charity(pos, charity_due(pos) or {})
    with pytest.raises(IllegalAction) as again:
        _charity(after, {})
    assert again.value.rule == "1.03.02"


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_viii_i_charity_before_the_first_card(ruleset: str) -> None:
    pos = _pos(ruleset, "bidding", turn=1)
    bought = apply(pos, {"type": "card_bought", "faction": "guild", "price": 1})
    with pytest.raises(IllegalAction) as err:
        _charity(bought, {"atreides": 2})
    assert err.value.rule == "AH VIII.I"


def _collection(ruleset: str, **extra: Any) -> Position:
    forces = [at("fremen", "the_great_flat", 2, sector=14), at("harkonnen", "carthag", 3),
              at("atreides", "arrakeen", 1), at("guild", "tueks_sietch", 5)]
    return _pos(ruleset, "spice_collection", forces=forces, spice_on_board={"the_great_flat": 10}, **extra)


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_xi_c_collection_and_the_strongholds_income_in_one_record(ruleset: str) -> None:
    """AH XI.A: two Fremen collect 4 of 10; AH XI.C: Arrakeen and Carthag 2 each, Tuek's 1."""
    pos = _collection(ruleset)
    assert collection_due(pos) == [("fremen", "the_great_flat", 4)]
    assert income_due(pos) == {"atreides": 2, "harkonnen": 2, "guild": 1}
    after = apply(pos, {"type": "spice_harvested", "collections": [{"faction": "fremen", "territory": "the_great_flat", "amount": 4}],
                        "income": income_due(pos)})
    assert after.spice_on_board == {"the_great_flat": 6}
    assert {f: st.spice for f, st in after.states.items()} == {**SPICE, "fremen": 7, "atreides": 2, "harkonnen": 4, "guild": 8}
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "spice_harvested", "collections": [["fremen", "the_great_flat", 5]], "income": income_due(pos)})
    assert err.value.field == "collections" and "collect at most 4" in err.value.message
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "spice_harvested", "collections": [], "income": {}})
    assert err.value.rule == "AH XI.C" and err.value.field == "income"
    with pytest.raises(IllegalAction):
        apply(after, {"type": "spice_harvested", "collections": [], "income": income_due(pos)})


def test_1_13_01_the_strongholds_income_in_the_advanced_game_only() -> None:
    assert income_due(_collection(LOLV)) == {"atreides": 2, "harkonnen": 2, "guild": 1}
    assert income_due(_collection(LOLV, options=[])) == {}
    assert ADVANCED == "advanced"


def test_2_09_04_a_record_without_the_choams_income_keeps_its_meaning() -> None:
    """2.09.04: the engine derives the CHOAM's income and the others' charity
    (test_rules_2_09_04_choam_charity.py); a record that leaves the CHOAM's income out, as the
    table's own amounts were kept before, still reads as the bank's payment."""
    factions = ("atreides", "bene_gesserit", "choam", "fremen", "harkonnen", "guild")
    per = {f: {"spice": 0} for f in factions}
    pos = load_position(snap(LOLV, factions, phase="choam_charity", per_faction=per))
    assert (charity_due(pos) or {}).get("choam") == 12
    after = apply(pos, {"type": "charity_collected", "amounts": {"fremen": 2}})
    assert after.states["fremen"].spice == 2 and after.states["choam"].spice == 0
