"""LoLV 2.09.20 (an Advanced ability): when another faction pays spice for its forces in battle,
half of it, rounded down, goes to the CHOAM (the rest to the bank, 1.13.03.04); the CHOAM's own
payment goes to the bank (2.09.21)."""

from __future__ import annotations

from dune.engine.editions import SEQUENCED
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos
from tests.engine.helpers import LOLV, at


def _fight(traitors: bool = False, **kw: object) -> object:
    pos = battle_pos(LOLV, forces=[at("atreides", "arrakeen", 5), at("harkonnen", "arrakeen", 4)], factions=("atreides", "bene_gesserit", "choam", "emperor", "fremen", "harkonnen"), per_faction={"choam": {"spice": 10}}, **kw)
    body = battle(
        {"faction": "atreides", "dial": 3, "spice": 3, "leader": "gurney_halleck", "traitor": traitors},
        {"faction": "harkonnen", "dial": 2, "spice": 2, "leader": "piter_de_vries", "traitor": traitors},
    )
    return apply(pos, body)


def test_2_09_20_the_choam_receive_half_of_each_dialing_payment() -> None:
    after = _fight()
    assert after.states["choam"].spice == 10 + 1 + 1  # 3 // 2 and 2 // 2
    assert after.states["atreides"].spice == 7 and after.states["harkonnen"].spice == 8
    assert _fight(edition=SEQUENCED).states["choam"].spice == 10


def test_2_09_21_none_from_a_faction_that_revealed_a_traitor() -> None:
    """LoLV 2.09.21: two traitors pay their spice to the bank only."""
    assert _fight(traitors=True).states["choam"].spice == 10
