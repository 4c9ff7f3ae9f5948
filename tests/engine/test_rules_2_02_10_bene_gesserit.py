"""The Bene Gesserit's two kinds of presence: LoLV advisors (2.02.10 flips; advisors sent with
another faction's shipment, 2.02.05 / 2.02.11, are not a turn of the BG's own) and AH/WBC
coexistence (no obstacle to an ally, AH XII.E.5.a; it lapses where the BG stands alone at the
next turn, AH XV.B.1; it belongs to the territory, WBC XV.5; coexisting tokens give no
ornithopters, WBC III.5). A rule in several texts runs under each of their rulesets; the LoLV
token flips and the WBC reading of coexistence as a territory's are single-ruleset."""

from __future__ import annotations

import pytest

from dune.engine.codec.position import load_position
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply, replay
from dune.engine.moves import has_ornithopters

from .helpers import AH_WBC, ALL_RULESETS, CLASSIC, at, position, setup_event, snap, started, to_phase

BG = "bene_gesserit"


@pytest.mark.parametrize(
    ("ruleset", "with_harkonnen", "alone"),
    # The BG's starting token: a token like any other under AH III.E.4.b (not required to
    # coexist, WBC III.5); LoLV 2.02.08 places an advisor that becomes a fighter only if
    # the BG is alone in the territory.
    [
        ("ah1979", (1, 0, 0), (1, 0, 0)),
        ("wbc2018", (1, 0, 0), (1, 0, 0)),
        ("lolv-2.8.4", (0, 0, 1), (1, 0, 0)),
    ],
)
def test_2_02_08_the_bg_places_one_starting_force_where_it_likes(
    ruleset: str, with_harkonnen: tuple[int, int, int], alone: tuple[int, int, int]
) -> None:
    """LoLV 2.02.08 / AH III.E.4.b: one BG token in any territory, after the Fremen's."""

    def placed(territory: str, count: int = 1) -> object:
        fremen = at("fremen", "sietch_tabr", 10)
        return replay([setup_event(ruleset, placements=[fremen, at(BG, territory, count)])])

    assert placed("carthag").forces[(BG, "carthag", 10)] == with_harkonnen  # the Harkonnen are there
    assert placed("the_great_flat").forces[(BG, "the_great_flat", 14)] == alone
    with pytest.raises(IllegalAction):
        placed("carthag", 2)


def test_2_02_10_advisors_and_fighters_are_two_sides_of_a_token() -> None:
    """LoLV only: the AH and WBC BG declares coexistence instead (AH XV.B)."""
    pos = position(ruleset="lolv-2.8.4", storm=0, forces=[at(BG, "the_great_flat", 2, sector=14)])
    flip = {"type": "forces_flipped", "territory": "the_great_flat", "sector": 14, "count": 2}
    advisors = apply(pos, {**flip, "side": "advisors"})
    assert advisors.forces[(BG, "the_great_flat", 14)] == (0, 0, 2)
    assert apply(advisors, {**flip, "side": "fighters"}).forces[(BG, "the_great_flat", 14)] == (2, 0, 0)
    with pytest.raises(IllegalAction):
        apply(pos, {**flip, "side": "fighters"})


def test_2_02_05_spiritual_advisors_do_not_end_the_shippers_action() -> None:
    """LoLV only: the action's end matters only where allies' forces go to the tanks then
    (1.06.06); the WBC counterpart (IX.3) has no advisors sent along (WBC XV.13-18 make them
    shipments of the BG's own)."""
    pos = to_phase(started("lolv-2.8.4", CLASSIC, storm=0, automatic_losses=True), "shipment_movement")
    pos = pos.evolve(alliances=(("atreides", "emperor"),))
    pos = apply(
        pos,
        {"type": "forces_placed", "faction": "emperor", "territory": "arrakeen", "sector": 9, "normal": 2},
    )
    fighter = apply(
        pos, {"type": "forces_placed", "faction": BG, "territory": "polar_sink", "sector": None, "normal": 1}
    )
    assert fighter.acting == "emperor" and fighter.forces[("emperor", "arrakeen", 9)] == (2, 0, 0)
    advisor = apply(
        pos, {"type": "forces_placed", "faction": BG, "territory": "arrakeen", "sector": 9, "advisors": 1}
    )
    assert advisor.acting == "emperor"  # 2.02.11: an advisor with the shipment
    # One token a shipment: the advisor goes in place of the fighter (2.02.11).
    with pytest.raises(IllegalAction) as info:
        apply(fighter, {"type": "forces_placed", "faction": BG, "territory": "arrakeen", "sector": 9, "advisors": 1})
    assert info.value.rule == "2.02.11"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
@pytest.mark.parametrize("coexisting", [True, False])
def test_ah_xii_e_5_a_coexisting_bg_is_no_obstacle_to_its_ally(ruleset: str, coexisting: bool) -> None:
    """AH XII.E.5.a, WBC XV.11: the ally enters where the BG coexists, not where BG tokens
    fight; LoLV 2.02.12, 4.01.16: advisors are no obstacle, and nothing is refused for an
    ally there anyway (1.06.06). The LoLV BG coexists as advisors."""
    lolv = ruleset == "lolv-2.8.4"
    bg = at(BG, "old_gap", 0, advisors=1, sector=8) if lolv and coexisting else at(BG, "old_gap", 1, sector=8)
    pos = position(
        ruleset=ruleset,
        storm=0,
        phase="shipment_movement",
        forces=[bg, at("atreides", "arrakeen", 2)],
        alliances=[["atreides", BG]],
        coexisting=["old_gap"] if coexisting and not lolv else [],
    )
    move = {
        "type": "forces_moved",
        "faction": "atreides",
        "from_territory": "arrakeen",
        "from_sector": 9,
        "to_territory": "old_gap",
        "to_sector": 9,
        "normal": 1,
    }
    if coexisting or lolv:
        assert ("atreides", "old_gap", 9) in apply(pos, move).forces
    else:
        with pytest.raises(IllegalAction) as info:
            apply(pos, move)
        assert info.value.rule == "AH XII.E.5"


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_xv_b_1_coexistence_lapses_where_the_bg_stands_alone(ruleset: str) -> None:
    """AH XV.B.1 (WBC adds nothing). AH/WBC only: the LoLV's advisors alone flip to fighters
    instead (2.02.21)."""
    forces = [at(BG, "old_gap", 1, sector=8), at(BG, "carthag", 1), at("harkonnen", "carthag", 2)]
    pos = position(ruleset=ruleset, phase="mentat_pause", forces=forces, coexisting=["old_gap", "carthag"])
    assert apply(pos, {"type": "turn_advanced"}).coexisting == frozenset({"carthag"})


def test_wbc_xv_5_coexistence_belongs_to_the_territory() -> None:
    """WBC only: WBC XV.5 is a WBC clarification."""
    pos = load_position(snap(coexisting=["carthag"], forces=[at("harkonnen", "carthag", 2)]))
    assert pos.coexisting == frozenset({"carthag"})


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_iii_5_coexisting_bg_has_no_ornithopters(ruleset: str) -> None:
    """WBC III.5 / IX.10, AH XV.A and XV.B.2: coexisting BG tokens in a city give no
    ornithopters; LoLV 2.02.12: nor do advisors."""
    forces = [at(BG, "arrakeen", 1)]
    assert has_ornithopters(position(ruleset=ruleset, forces=forces, phase="shipment_movement"), BG)
    if ruleset in AH_WBC:
        pos = position(ruleset=ruleset, forces=forces, phase="shipment_movement", coexisting=["arrakeen"])
    else:
        advisors = [at(BG, "arrakeen", 0, advisors=1)]
        pos = position(ruleset=ruleset, forces=advisors, phase="shipment_movement")
    assert not has_ornithopters(pos, BG)
