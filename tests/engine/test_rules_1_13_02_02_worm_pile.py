"""Where a worm appears with the double spice blow: each turn's cards go on discard pile A
until a territory card is turned there, then on pile B likewise, and a worm appears in the
territory on top of its own pile (LoLV 1.02.05, 1.13.02, 1.13.02.01-02; WBC Rule Set AH XXI;
AH VII.A.2). With one pile every card goes on pile A."""

from __future__ import annotations

import pytest

from dune.engine.spice import spice_blows, worm_pile_top

from .helpers import position

#: Turn 2 turned the Funeral Plain on pile A and South Mesa on pile B.
TURN_2 = [("turn_advanced", None), ("spice_blow", "funeral_plain"), ("spice_blow", "south_mesa")]


@pytest.mark.parametrize(("ruleset", "piles"), [("ah1979", 1), ("wbc2018", 2), ("lolv-2.8.4", 2)])
def test_the_rulesets_with_two_discard_piles(ruleset: str, piles: int) -> None:
    assert spice_blows(position(ruleset=ruleset, phase="spice_blow", turn=3)) == piles


def test_1_13_02_01_a_worm_on_pile_a_appears_on_pile_a_top() -> None:
    turn_3 = [("turn_advanced", None)]
    assert worm_pile_top(TURN_2 + turn_3, 2) == "funeral_plain"
    # Worms on pile A leave it as it is: the next worm is there too.
    assert worm_pile_top(TURN_2 + turn_3 + [("worm", "funeral_plain")], 2) == "funeral_plain"


def test_1_13_02_02_a_worm_on_pile_b_after_a_pile_a_territory_appears_on_pile_b_top() -> None:
    turn_3 = [("turn_advanced", None), ("worm", "funeral_plain"), ("spice_blow", "the_minor_erg")]
    # Not the Minor Erg just turned on pile A: South Mesa, on top of pile B since turn 2.
    assert worm_pile_top(TURN_2 + turn_3, 2) == "south_mesa"
    assert worm_pile_top(TURN_2 + turn_3 + [("worm", "south_mesa")], 2) == "south_mesa"
    # The records between (storm, phases, forces) change nothing.
    noise = [("phase_advanced", None), ("forces_placed", "arrakeen")]
    assert worm_pile_top(noise + TURN_2 + noise + turn_3 + noise, 2) == "south_mesa"


def test_a_worm_as_the_first_card_of_an_empty_pile_has_no_territory() -> None:
    assert worm_pile_top([("turn_advanced", None)], 2) is None
    assert worm_pile_top([], 1) is None
    # Pile B empty: turn 2 turned a territory on pile A only.
    assert worm_pile_top([("turn_advanced", None), ("spice_blow", "funeral_plain")], 2) is None


def test_one_pile_the_worm_appears_on_the_last_territory_turned() -> None:
    log = [("turn_advanced", None), ("spice_blow", "funeral_plain"), ("turn_advanced", None),
           ("worm", "funeral_plain"), ("spice_blow", "the_minor_erg")]
    assert worm_pile_top(log, 1) == "the_minor_erg"
    assert worm_pile_top(log + [("turn_advanced", None)], 1) == "the_minor_erg"
    assert worm_pile_top(log[:2] + [("turn_advanced", None)], 1) == "funeral_plain"
