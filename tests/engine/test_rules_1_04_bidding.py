"""The bidding round card by card (`card_bought`): who may bid (a full hand may not, LoLV
1.04.03, AH VIII.G), with what spice (1.04.06.03, AH VIII.C; an ally's help, 1.10.02.04, AH
XII.E.3), to whom the price goes (the Emperor, 2.03.04, AH VIII.B.3; else the bank,
1.04.06.02), the Harkonnen's extra card (2.05.08, AH Harkonnen 2), a Karama purchase (3.01.11.04,
WBC VIII.10), the cards dealt (1.04.04, AH VIII.A) and a card nobody bids on (1.04.09, AH VIII.E)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.income import auction_state, bidders
from dune.engine.position import Position
from tests.engine.helpers import ALL_RULESETS, CLASSIC, LOLV, snap

HAND_LIMIT = {"ah1979": "AH VIII.G", "wbc2018": "AH VIII.G", LOLV: "1.04.02"}
BID_SPICE = {"ah1979": "AH VIII.C", "wbc2018": "AH VIII.C", LOLV: "1.04.06.03"}
DEALT = {"ah1979": "AH VIII.A", "wbc2018": "AH VIII.A", LOLV: "1.04.04"}
BOUGHT_IN = {"ah1979": "AH VIII.E", "wbc2018": "AH VIII.E", LOLV: "1.04.09"}


def _bidding(ruleset: str, factions: tuple[str, ...] = CLASSIC, **per: dict[str, Any]) -> Position:
    sheets = {f: {"spice": 10, "cards": 1} for f in factions}
    for f, values in per.items():
        sheets[f] = {**sheets[f], **values}
    return load_position(snap(ruleset, factions, phase="bidding", per_faction=sheets, storm=0))


def _buy(pos: Position, faction: str | None, price: int = 0, **kw: Any) -> Position:
    return apply(pos, {"type": "card_bought", "faction": faction, "price": price, **kw})


def _spice(pos: Position) -> dict[str, int | None]:
    return {f: st.spice for f, st in pos.states.items()}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_06_02_the_price_goes_to_the_emperor_and_the_card_to_the_hand(ruleset: str) -> None:
    """2.03.04, AH VIII.B.3: another faction pays the Emperor; the Emperor pays the bank."""
    pos = _bidding(ruleset)
    after = _buy(pos, "atreides", 3)
    assert _spice(after) == {**_spice(pos), "atreides": 7, "emperor": 13}
    assert after.states["atreides"].cards == 2
    own = _buy(after, "emperor", 2)
    assert _spice(own) == {**_spice(after), "emperor": 11}
    assert load_position(dump_position(own)) == own


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_06_02_without_the_emperor_the_bank_receives(ruleset: str) -> None:
    factions = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild")
    pos = _bidding(ruleset, factions)
    assert _spice(_buy(pos, "guild", 4)) == {**_spice(pos), "guild": 6}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_03_a_full_hand_may_not_bid(ruleset: str) -> None:
    pos = _bidding(ruleset, atreides={"cards": 4})
    assert "atreides" not in bidders(pos)
    with pytest.raises(IllegalAction) as err:
        _buy(pos, "atreides", 1)
    assert err.value.rule == HAND_LIMIT[ruleset] and err.value.field == "faction"
    assert "Atreides holds 4 cards" in err.value.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_06_03_no_bid_beyond_the_spice_held(ruleset: str) -> None:
    pos = _bidding(ruleset, fremen={"spice": 2})
    with pytest.raises(IllegalAction) as err:
        _buy(pos, "fremen", 3)
    assert err.value.rule == BID_SPICE[ruleset] and err.value.field == "price"
    assert "Fremen has only 2 spice" in err.value.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_10_02_04_an_ally_pays_part_of_the_price(ruleset: str) -> None:
    """1.10.02.04, AH XII.E.3: the ally's spice lets the buyer bid beyond its own."""
    sheets = {f: {"spice": 10, "cards": 1} for f in CLASSIC}
    sheets["fremen"] = {"spice": 2, "cards": 1}
    pos = load_position(snap(ruleset, CLASSIC, phase="bidding", per_faction=sheets, alliances=[["atreides", "fremen"]]))
    after = _buy(pos, "fremen", 5, ally_paid=3)
    assert _spice(after) == {**_spice(pos), "fremen": 0, "atreides": 7, "emperor": 15}
    with pytest.raises(IllegalAction) as err:
        _buy(pos, "harkonnen", 5, ally_paid=3)
    assert err.value.field == "ally_paid"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_08_the_harkonnen_draw_an_extra_card_below_their_limit(ruleset: str) -> None:
    pos = _bidding(ruleset, harkonnen={"cards": 6})
    assert _buy(pos, "harkonnen", 1).states["harkonnen"].cards == 8
    full = _bidding(ruleset, harkonnen={"cards": 7})
    assert _buy(full, "harkonnen", 1).states["harkonnen"].cards == 8  # never more than 8


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_3_01_11_04_a_karama_card_buys_without_paying(ruleset: str) -> None:
    pos = _bidding(ruleset, atreides={"spice": 0})
    after = _buy(pos, "atreides", 12, karama=True)
    assert _spice(after) == _spice(pos) and after.states["atreides"].cards == 2


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_04_one_card_dealt_per_faction_able_to_bid(ruleset: str) -> None:
    """Five factions may bid (the Harkonnen's hand is full), so five cards are sold at most."""
    pos = _bidding(ruleset, harkonnen={"cards": 8})
    for f in ("atreides", "bene_gesserit", "emperor", "fremen", "guild"):
        pos = _buy(pos, f, 1)
    with pytest.raises(IllegalAction) as err:
        _buy(pos, "atreides", 1)
    assert err.value.rule == DEALT[ruleset] and "5 cards were dealt" in err.value.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_09_a_card_nobody_bids_on_ends_the_round(ruleset: str) -> None:
    pos = _buy(_buy(_bidding(ruleset), "atreides", 1), None)
    with pytest.raises(IllegalAction) as err:
        _buy(pos, "fremen", 1)
    assert err.value.rule == BOUGHT_IN[ruleset]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_06_cards_are_bought_in_the_bidding_phase_only(ruleset: str) -> None:
    pos = load_position(snap(ruleset, CLASSIC, phase="revival", per_faction={f: {"spice": 5, "cards": 0} for f in CLASSIC}))
    with pytest.raises(IllegalAction):
        _buy(pos, "atreides", 1)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_06_01_a_card_is_bought_for_1_spice_or_more(ruleset: str) -> None:
    with pytest.raises(IllegalAction) as err:
        _buy(_bidding(ruleset), "atreides", 0)
    assert err.value.field == "price"


def test_2_10_08_and_2_07_07_the_richese_and_ixian_cards_leave_the_count_to_the_table() -> None:
    """The Richese's own card (2.10.08) and the Ixians' Supply Chain (2.07.07) change how many
    cards are dealt: the engine does not count them."""
    factions = ("atreides", "ixians", "emperor", "fremen", "richese", "guild")
    pos = _bidding(LOLV, factions, emperor={"cards": 0}, guild={"cards": 0})
    for _ in range(7):  # six factions able to bid, seven cards bought
        pos = _buy(pos, "emperor" if pos.states["emperor"].cards < 4 else "guild", 1)
    assert pos.states["guild"].cards == 3


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_08_the_round_is_over_once_every_card_dealt_is_sold(ruleset: str) -> None:
    """Only the Emperor may bid (every other hand is full): one card is dealt, and once it is
    sold the round is over."""
    full = {f: {"cards": 8 if f == "harkonnen" else 4} for f in CLASSIC if f != "emperor"}
    pos = _bidding(ruleset, **full)
    assert auction_state(pos) == (0, 1, False)
    assert auction_state(_buy(pos, "emperor", 1)) == (1, 1, True)
