"""Alliances: LoLV 1.10, AH XII (and XX.B), WBC house rules on alliance size. Each rule runs
under every ruleset, the refusal citing that ruleset's rule; the WBC three-faction consent and
the AH sizes (with the XX.B option) are single-ruleset."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply, replay
from dune.engine.position import Position

from .helpers import ALL_RULESETS, CLASSIC, in_turn, next_turn, setup_event, started, to_phase

LOLV = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ecaz")


def _nexus(ruleset: str = "wbc2018", factions: tuple[str, ...] | None = None) -> Position:
    args = {} if factions is None else {"factions": factions}
    pos = in_turn(2, ruleset=ruleset, phase="spice_blow", **args)
    return apply(pos, {"type": "worm", "territory": "the_great_flat"})


def _ally(pos: Position, *factions: str) -> Position:
    return apply(pos, {"type": "alliance_formed", "factions": list(factions)})


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Alliances in a nexus: AH XII.A (WBC VII.1 adds a nexus per worm), LoLV 1.10.00.
    [("ah1979", "AH XII.A"), ("wbc2018", "AH XII.A"), ("lolv-2.8.4", "1.10.00")],
)
def test_1_10_00_alliances_only_in_a_nexus(ruleset: str, rule: str) -> None:
    """LoLV 1.10.00 / AH XII.A: alliances are made when a worm causes a nexus."""
    pos = in_turn(2, ruleset=ruleset, phase="spice_blow")
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "atreides", "fremen")
    assert info.value.rule == rule
    assert _ally(_nexus(ruleset), "atreides", "fremen").alliances == (("atreides", "fremen"),)


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # First-turn worms set aside: AH VII.A.3 (WBC adds nothing), LoLV 1.02.02.
    [("ah1979", "AH VII.A.3"), ("wbc2018", "AH VII.A.3"), ("lolv-2.8.4", "1.02.02")],
)
def test_1_02_02_no_alliance_in_turn_1(ruleset: str, rule: str) -> None:
    """LoLV 1.02.02-03 / AH VII.A.3: first-turn worms are set aside: no nexus, no alliance."""
    pos = to_phase(in_turn(1, ruleset=ruleset), "spice_blow")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "worm"})
    assert info.value.rule == rule
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "atreides", "fremen")
    assert info.value.rule == rule


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_nexus_closes_with_the_spice_blow_phase(ruleset: str) -> None:
    """LoLV 1.10.01.06 / AH XII.C.5: no alliance once the nexus is over."""
    pos = to_phase(_nexus(ruleset), "bidding")
    with pytest.raises(IllegalAction):
        _ally(pos, "atreides", "fremen")


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # A third member: any number in the AH text (AH XII.C.2); two (three with consent at six
    # players) under the WBC house rules; two under LoLV 1.10.01.03.
    [("ah1979", None), ("wbc2018", "WBC house rules (alliances)"), ("lolv-2.8.4", "1.10.01.03")],
)
def test_1_10_01_03_third_ally_refused_under_lolv(ruleset: str, rule: str | None) -> None:
    """LoLV 1.10.01.03: no more than two players in an alliance; AH XII.C.2: any number."""
    # Allied in an earlier nexus (1.10.01.01 lets each faction ally once per nexus).
    pos = _nexus(ruleset).evolve(alliances=(("atreides", "fremen"),))
    if rule is None:
        assert _ally(pos, "guild", "atreides").alliances == (("atreides", "fremen", "guild"),)
        return
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "guild", "atreides")
    assert info.value.rule == rule


def test_wbc_three_faction_alliance_needs_consent_and_six_players() -> None:
    """WBC house rules: alliances of 2; of 3 only at a 6-player table where all consented.
    WBC only: the consent is a WBC house rule."""
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
    """AH XII.C.2: any number of players; XX.B (optional): at most two. AH only: the other
    texts' limits are in test_1_10_01_03."""
    pos = _ally(_nexus("ah1979"), "atreides", "fremen", "guild", "emperor")
    assert len(pos.alliances[0]) == 4
    limited = apply(
        to_phase(next_turn(started("ah1979", options=["xx_b_alliances_of_two"])), "spice_blow"),
        {"type": "worm"},
    )
    with pytest.raises(IllegalAction) as info:
        _ally(limited, "atreides", "fremen", "guild")
    assert "at most 2" in info.value.message


@pytest.mark.parametrize(
    ("ruleset", "rule", "joins"),
    # No faction in two alliances: AH XII.C.4, the WBC house rules (alliances), LoLV
    # 1.10.01.04. Joining an alliance as its third member: AH XII.C.2 allows it; the WBC
    # house rules and LoLV 1.10.01.03 keep alliances to two.
    [
        ("ah1979", "AH XII.C.4", True),
        ("wbc2018", "WBC house rules (alliances)", False),
        ("lolv-2.8.4", "1.10.01.04", False),
    ],
)
def test_1_10_01_04_one_alliance_per_faction_and_joining(ruleset: str, rule: str, joins: bool) -> None:
    """LoLV 1.10.01.04 / AH XII.C.4: no faction in two alliances; AH lets players join one."""
    # Allied in an earlier nexus (so LoLV 1.10.01.01, once per nexus, is not what refuses).
    pos = _nexus(ruleset).evolve(alliances=(("atreides", "fremen"), ("emperor", "guild")))
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "fremen", "guild")
    assert info.value.rule == rule
    if joins:
        assert ("atreides", "fremen", "harkonnen") in _ally(pos, "fremen", "harkonnen").alliances
    else:
        with pytest.raises(IllegalAction):
            _ally(pos, "fremen", "harkonnen")


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_10_01_05_breaking_an_alliance(ruleset: str) -> None:
    """LoLV 1.10.01.05 / AH XII.D.1: any player may break an alliance in a nexus."""
    pos = _ally(_nexus(ruleset), "atreides", "fremen")
    broken = apply(pos, {"type": "alliance_broken", "faction": "fremen"})
    assert broken.alliances == ()
    with pytest.raises(IllegalAction):
        apply(broken, {"type": "alliance_broken", "faction": "fremen"})
