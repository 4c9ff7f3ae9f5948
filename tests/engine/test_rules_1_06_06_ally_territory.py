"""An ally's territory: under the LoLV nothing is refused when forces ship or move where an
ally stands; forces that end the shipment-and-movement action there go to the tanks (1.06.06,
4.01.16), with the Polar Sink, advisors and the Ecaz's alliance (2.11.11) excepted. Under WBC
entering an ally's location is refused (WBC IX.2), as ending there is under AH (XII.E.5)."""

from __future__ import annotations

import pytest

from gameplay.engine.errors import IllegalAction
from gameplay.engine.game_log import apply
from gameplay.engine.position import Position

from .helpers import started, to_phase

LOLV = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")


def _movement(ruleset: str, **extra: object) -> Position:
    kw: dict[str, object] = {"factions": LOLV} if ruleset == "lolv-2.8.4" else {}
    pos = to_phase(started(ruleset, storm=0, **kw, **extra), "shipment_movement")
    return pos.evolve(alliances=(("atreides", "emperor"),))


SHIP = {"type": "forces_placed", "faction": "emperor", "territory": "arrakeen", "sector": 9, "normal": 3}
ONWARD = {
    "type": "forces_moved",
    "faction": "emperor",
    "from_territory": "arrakeen",
    "from_sector": 9,
    "to_territory": "old_gap",
    "to_sector": 8,
    "normal": 3,
}


def test_1_06_06_lolv_shipping_beside_an_ally_is_accepted_then_sent_to_the_tanks() -> None:
    pos = apply(_movement("lolv-2.8.4", automatic_losses=True), SHIP)
    assert pos.forces[("emperor", "arrakeen", 9)] == (3, 0, 0)
    ended = apply(pos, {"type": "action_ended", "faction": "emperor"})
    assert ("emperor", "arrakeen", 9) not in ended.forces
    assert ended.states["emperor"].tanks == (3, 0)
    assert ended.losses[0][-1] == "1.06.06"


def test_4_01_16_a_move_onward_ends_the_action_elsewhere() -> None:
    pos = apply(apply(_movement("lolv-2.8.4", automatic_losses=True), SHIP), ONWARD)
    pos = to_phase(pos, "battle")
    assert pos.forces[("emperor", "old_gap", 8)] == (3, 0, 0)
    assert pos.states["emperor"].tanks == (0, 0)


def test_4_01_16_the_next_factions_shipment_ends_the_action() -> None:
    """LoLV 1.06.01: factions take their shipment and movement in turn, so the next
    faction's shipment closes the previous faction's action."""
    pos = apply(_movement("lolv-2.8.4", automatic_losses=True), SHIP)
    nxt = {
        "type": "forces_placed",
        "faction": "harkonnen",
        "territory": "the_great_flat",
        "sector": 14,
        "normal": 1,
    }
    assert ("emperor", "arrakeen", 9) not in apply(pos, nxt).forces


def test_1_06_06_without_automatic_losses_the_judge_removes_them() -> None:
    pos = to_phase(apply(_movement("lolv-2.8.4"), SHIP), "battle")
    assert pos.forces[("emperor", "arrakeen", 9)] == (3, 0, 0)


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_wbc_ix_2_entering_an_allys_territory_is_refused(ruleset: str) -> None:
    with pytest.raises(IllegalAction):
        apply(_movement(ruleset), SHIP)


def test_wbc_ix_3_ending_beside_an_ally_for_any_reason_destroys_the_tokens() -> None:
    """WBC IX.3: a player ending his shipment/movement turn beside his ally's (non-coexisting)
    tokens loses them, however they came together (here: allied while sharing the Great
    Flat, WBC XII.1)."""
    pos = to_phase(started("wbc2018", storm=0, automatic_losses=True), "shipment_movement")
    forces = {
        **pos.forces,
        ("emperor", "the_great_flat", 14): (2, 0, 0),
        ("atreides", "the_great_flat", 14): (1, 0, 0),
    }
    pos = pos.evolve(forces=forces, alliances=(("atreides", "emperor"),))
    pos = apply(
        pos,
        {
            "type": "forces_placed",
            "faction": "emperor",
            "territory": "tueks_sietch",
            "sector": 4,
            "normal": 1,
        },
    )
    ended = apply(pos, {"type": "action_ended", "faction": "emperor"})
    assert ("emperor", "the_great_flat", 14) not in ended.forces
    assert ended.losses[0][-1] == "WBC IX.3"
    assert ("atreides", "the_great_flat", 14) in ended.forces


def test_ah_xii_e_5_no_destruction_after_the_turn_in_the_1979_text() -> None:
    pos = to_phase(started("ah1979", storm=0, automatic_losses=True), "shipment_movement")
    forces = {
        **pos.forces,
        ("emperor", "the_great_flat", 14): (2, 0, 0),
        ("atreides", "the_great_flat", 14): (1, 0, 0),
    }
    pos = pos.evolve(forces=forces, alliances=(("atreides", "emperor"),))
    ended = apply(pos, {"type": "action_ended", "faction": "emperor"})
    assert ended.forces[("emperor", "the_great_flat", 14)] == (2, 0, 0)
