"""The Moritani's six Terror tokens (LoLV 2.12.03): a revealed token leaves the game (2.12.07),
one not revealed after Enemy of My Enemy (2.12.11) or an Extortion regained (2.12.09.03) goes
back behind the shield (`terror_revealed.to_supply`). With none left behind the shield no token
is placed (third edition of the rulings), and no snapshot holds more than six. LoLV only."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import CORRECTED, REFINED
from dune.engine.errors import IllegalAction, InvalidPosition
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import position, snap

FACTIONS = ("atreides", "moritani", "emperor", "fremen", "harkonnen", "guild")


def _pos(edition: int = REFINED, **kw: Any) -> Position:
    return position(ruleset="lolv-2.8.4", factions=FACTIONS, edition=edition, phase="mentat_pause", **kw)


def test_2_12_07_revealed_tokens_leave_the_game_and_the_supply_shrinks() -> None:
    pos = apply(_pos(terror=["carthag"]), {"type": "terror_revealed", "territory": "carthag"})
    assert pos.terror_spent == 1
    assert evaluate(pos).board.terror_supply == 5
    assert load_position(dump_position(pos)) == pos
    back = apply(
        _pos(terror=["carthag"]), {"type": "terror_revealed", "territory": "carthag", "to_supply": True}
    )
    assert back.terror_spent == 0 and evaluate(back).board.terror_supply == 6


def test_2_12_03_no_token_left_behind_the_shield() -> None:
    full = ["carthag", "arrakeen", "tueks_sietch"]
    place = {"type": "terror_placed", "territory": "sietch_tabr"}
    with pytest.raises(IllegalAction) as info:
        apply(_pos(terror=full, terror_spent=3), place)
    assert info.value.rule == "2.12.03"
    assert apply(_pos(terror=full, terror_spent=2), place).terror == {*full, "sietch_tabr"}
    moved = {"type": "terror_placed", "territory": "sietch_tabr", "from_territory": "carthag"}
    assert "sietch_tabr" in apply(_pos(terror=full, terror_spent=3), moved).terror  # a move needs none
    assert apply(_pos(CORRECTED, terror=full, terror_spent=3), place).terror


def test_2_12_03_no_snapshot_holds_more_than_six() -> None:
    data = snap(ruleset="lolv-2.8.4", factions=FACTIONS, terror=["carthag", "arrakeen"], terror_spent=5)
    with pytest.raises(InvalidPosition) as info:
        load_position(data)
    assert info.value.rule == "2.12.03"
