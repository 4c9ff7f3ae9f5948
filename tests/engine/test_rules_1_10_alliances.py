"""Alliances: LoLV 1.10, AH XII (and XX.B), WBC house rules on alliance size."""

from __future__ import annotations

import pytest

from gameplay.engine.errors import IllegalAction
from gameplay.engine.game_log import apply, replay
from gameplay.engine.position import Position

from .helpers import CLASSIC, in_turn, next_turn, setup_event, started, to_phase

LOLV = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ecaz")


def _nexus(ruleset: str = "wbc2018", factions: tuple[str, ...] | None = None) -> Position:
    args = {} if factions is None else {"factions": factions}
    pos = in_turn(2, ruleset=ruleset, phase="spice_blow", **args)
    return apply(pos, {"type": "worm", "territory": "the_great_flat"})


def _ally(pos: Position, *factions: str) -> Position:
    return apply(pos, {"type": "alliance_formed", "factions": list(factions)})


def test_1_10_00_alliances_only_in_a_nexus() -> None:
    """LoLV 1.10.00 / AH XII.A: alliances are made when a worm causes a nexus."""
    pos = in_turn(2, phase="spice_blow")
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "atreides", "fremen")
    assert info.value.rule == "AH XII.A"
    assert _ally(_nexus(), "atreides", "fremen").alliances == (("atreides", "fremen"),)


def test_1_02_02_no_alliance_in_turn_1() -> None:
    """LoLV 1.02.02 / AH VII.A.3: first-turn worms are set aside: no nexus, no alliance."""
    pos = to_phase(in_turn(1), "spice_blow")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "worm"})
    assert info.value.rule == "AH VII.A.3"
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "atreides", "fremen")
    assert info.value.rule == "AH VII.A.3"


def test_nexus_closes_with_the_spice_blow_phase() -> None:
    pos = to_phase(_nexus(), "bidding")
    with pytest.raises(IllegalAction):
        _ally(pos, "atreides", "fremen")


def test_1_10_01_03_third_ally_refused_under_lolv() -> None:
    """LoLV 1.10.01.03: no more than two players in an alliance."""
    # Allied in an earlier nexus (1.10.01.01 lets each faction ally once per nexus).
    pos = _nexus("lolv-2.8.4", LOLV).evolve(alliances=(("atreides", "fremen"),))
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "guild", "atreides")
    assert info.value.rule == "1.10.01.03"


def test_wbc_three_faction_alliance_needs_consent_and_six_players() -> None:
    """WBC house rules: alliances of 2; of 3 only at a 6-player table where all consented."""
    pos = _ally(_nexus(), "atreides", "fremen")
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "atreides", "fremen", "guild")
    assert info.value.rule == "WBC house rules (alliances)"
    consented = apply(to_phase(next_turn(started(three_alliances=True)), "spice_blow"), {"type": "worm"})
    assert _ally(consented, "atreides", "fremen", "guild").alliances == (("atreides", "fremen", "guild"),)
    with pytest.raises(IllegalAction):
        setup_event_five = setup_event(factions=CLASSIC[:5], three_alliances=True)
        replay([setup_event_five])


def test_ah_xii_c_2_alliances_of_any_size_and_xx_b_limit() -> None:
    """AH XII.C.2: any number of players; XX.B (optional): at most two."""
    pos = _ally(_nexus("ah1979"), "atreides", "fremen", "guild", "emperor")
    assert len(pos.alliances[0]) == 4
    limited = apply(
        to_phase(next_turn(started("ah1979", options=["xx_b_alliances_of_two"])), "spice_blow"),
        {"type": "worm"},
    )
    with pytest.raises(IllegalAction) as info:
        _ally(limited, "atreides", "fremen", "guild")
    assert "at most 2" in info.value.message


def test_1_10_01_04_one_alliance_per_faction_and_joining() -> None:
    """LoLV 1.10.01.04 / AH XII.C.4: no faction in two alliances; AH lets players join one."""
    pos = _ally(_ally(_nexus("ah1979"), "atreides", "fremen"), "guild", "emperor")
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "fremen", "guild")
    assert info.value.rule == "AH XII.C.4"
    joined = _ally(pos, "fremen", "harkonnen")
    assert ("atreides", "fremen", "harkonnen") in joined.alliances


def test_1_10_01_05_breaking_an_alliance() -> None:
    pos = _ally(_nexus(), "atreides", "fremen")
    broken = apply(pos, {"type": "alliance_broken", "faction": "fremen"})
    assert broken.alliances == ()
    with pytest.raises(IllegalAction):
        apply(broken, {"type": "alliance_broken", "faction": "fremen"})
