"""LoLV 2.07.14 (a Basic ability): the Suboids are worth half in battle, in the Basic game as in
the Advanced (2.07.23); the eighth edition counted them whole without spice dialing."""

from __future__ import annotations

import pytest

from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos
from tests.engine.helpers import LOLV, at

IXIANS = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "ixians")


def _basic(**kw: object) -> object:
    forces = [at("atreides", "arrakeen", 3), at("ixians", "arrakeen", 4)]
    per = {"ixians": {"reserves": 11, "reserves_special": 7}}
    return battle_pos(LOLV, forces=forces, factions=IXIANS, options=[], per_faction=per, **kw)


def test_2_07_14_suboids_are_worth_half_in_the_basic_game() -> None:
    ixians = {"faction": "ixians", "dial": 2, "leader": "cammar_pilru"}
    body = battle({"faction": "atreides", "dial": 0, "leader": "gurney_halleck"}, ixians)
    apply(_basic(), body)
    body["defender"]["dial"] = 3
    with pytest.raises(IllegalAction) as err:
        apply(_basic(), body)
    assert (err.value.rule, err.value.field) == ("1.07.04.01", "defender.dial")
    body["defender"]["dial"] = 4
    apply(_basic(edition=SEQUENCED), body)
