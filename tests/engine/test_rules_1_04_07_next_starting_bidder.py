"""The bidding opener's rotation: the first player opens the bidding for the first card, or the
next able to bid to their right (LoLV 1.04.06, AH VIII.B); for each next card the first able to
bid to the right of the one who opened the card before (LoLV 1.04.07, AH VIII.D: "In this way
every player gets a chance to open the bidding").

With the storm on sector 0 and the markers on the dots 1, 4, ... in seat order, the storm order
is Atreides, Bene Gesserit, Emperor, Fremen, Harkonnen, Guild."""

from __future__ import annotations

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.game_log import apply
from dune.engine.income import opener
from dune.engine.position import Position
from tests.engine.helpers import ALL_RULESETS, CLASSIC, snap

#: The Atreides (4) and the Harkonnen (8) hold full hands; the Emperor fills his with one card.
CARDS = {"atreides": 4, "bene_gesserit": 1, "emperor": 3, "fremen": 0, "harkonnen": 8, "guild": 2}


def _bidding(ruleset: str) -> Position:
    per = {f: {"spice": 10, "cards": n} for f, n in CARDS.items()}
    return load_position(snap(ruleset, CLASSIC, phase="bidding", per_faction=per))


def _sold(pos: Position, faction: str) -> Position:
    return apply(pos, {"type": "card_bought", "faction": faction, "price": 1})


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_07_each_next_card_is_opened_to_the_right_of_the_last_opener(ruleset: str) -> None:
    pos = _bidding(ruleset)
    assert opener(pos) == "bene_gesserit"  # the Atreides, first player, hold a full hand
    pos = _sold(pos, "fremen")
    assert pos.opened == (pos.turn, "bene_gesserit")
    assert opener(pos) == "emperor"
    pos = _sold(pos, "emperor")  # his hand is now full
    assert opener(pos) == "fremen"
    assert load_position(dump_position(pos)) == pos and load_position(dump_position(pos)).opened == pos.opened
    pos = _sold(pos, "guild")
    assert opener(pos) == "guild"  # the Harkonnen, to the Fremen's right, hold a full hand


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_04_07_a_new_turn_starts_again_from_the_first_player(ruleset: str) -> None:
    pos = _sold(_bidding(ruleset), "fremen")
    later = load_position({**dump_position(pos), "turn": pos.turn + 1})
    assert opener(later) == "bene_gesserit"
