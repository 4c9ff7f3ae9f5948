"""Setup: LoLV 0.07-0.16 and the faction sheets 2.xx.01-02 (AH III.E and the shields):
player markers, starting spice, cards and forces, the factions that choose where to start,
the BG prediction (WBC III.2, LoLV 2.02.03). Each rule runs under every ruleset; the
expansion factions' starts are LoLV-only."""

from __future__ import annotations

import pytest

from dune.engine.editions import ACCOUNTED
from dune.engine.errors import IllegalAction, InvalidPosition, RuleViolation, UnknownIdentifier
from dune.engine.evaluation import evaluate
from dune.engine.factions import FACTION_SHEETS
from dune.engine.game_log import apply, replay

from .helpers import ALL_RULESETS, CLASSIC, at, setup_event

LOLV = ("atreides", "bene_gesserit", "ixians", "moritani", "ecaz", "guild")
#: The setup refusals: AH III.E (WBC adds nothing), LoLV 0.13.
SETUP_RULE = {"ah1979": "AH III.E", "wbc2018": "AH III.E", "lolv-2.8.4": "0.13"}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_0_12_0_13_starting_spice_forces_and_cards(ruleset: str) -> None:
    """LoLV 0.12-0.14 / AH III.E.3-5: spice, forces and one card each (Harkonnen two:
    LoLV 2.05.04, AH III.E.5.a). The classic shields and sheets agree."""
    pos = replay([setup_event(ruleset)])
    st = pos.states
    assert (st["atreides"].spice, st["bene_gesserit"].spice, st["fremen"].spice, st["guild"].spice) == (
        10,
        5,
        3,
        5,
    )
    assert pos.forces[("atreides", "arrakeen", 9)] == (10, 0, 0)  # 2.01.02
    assert pos.forces[("harkonnen", "carthag", 10)] == (10, 0, 0)  # 2.05.02
    assert pos.forces[("guild", "tueks_sietch", 4)] == (5, 0, 0)  # 2.06.02
    assert st["emperor"].reserves == (15, 5)  # 2.03.02: all 20 in reserve, 5 Sardaukar
    assert st["harkonnen"].cards == 2 and st["atreides"].cards == 1  # 2.05.04
    assert evaluate(pos).stats["atreides"].leaders == 5


def test_lolv_expansion_factions_start_as_their_sheets_say() -> None:
    """LoLV only (the expansion factions are in no other text): LoLV 2.07.02 (Ixians on the HMS: 3 Suboids + 3 Cyborgs), 2.11.02 (Ecaz 6 in the
    Imperial Basin), 2.12.02 (Moritani 6 in an unoccupied territory)."""
    pos = replay([setup_event("lolv-2.8.4", LOLV)])
    assert pos.forces[("ixians", "hidden_mobile_stronghold", None)] == (3, 3, 0)
    assert pos.states["ixians"].reserves == (10, 4)
    assert pos.forces[("ecaz", "imperial_basin", 9)] == (6, 0, 0)
    assert pos.forces[("moritani", "the_great_flat", 14)] == (6, 0, 0)
    assert "hidden_mobile_stronghold" in evaluate(pos).control
    assert evaluate(pos).control["hidden_mobile_stronghold"] == "ixians"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_04_02_fremen_start_only_in_their_three_territories(ruleset: str) -> None:
    """LoLV 2.04.02 / AH Fremen shield: 10 forces on Sietch Tabr, False Wall South and West;
    Fedaykin among them (AH III.E.4.a, WBC III.3; LoLV 2.04.02 "as you like")."""
    bad = setup_event(ruleset)
    bad["placements"][0] = at("fremen", "arrakeen", 10)
    with pytest.raises(IllegalAction) as info:
        replay([bad])
    assert info.value.rule == SETUP_RULE[ruleset]
    split = setup_event(ruleset)
    split["placements"][0] = at("fremen", "false_wall_south", 6, sector=4)
    split["placements"].append(
        at("fremen", "false_wall_west", 1, 3, sector=17)
    )  # WBC III.3: Fedaykin allowed
    pos = replay([split])
    assert pos.states["fremen"].reserves == (10, 0)  # 17 normal + 3 Fedaykin; 7 + 3 placed
    with pytest.raises(IllegalAction):  # only 10 at start
        apply(
            pos,
            {
                "type": "forces_placed",
                "faction": "fremen",
                "territory": "sietch_tabr",
                "sector": 13,
                "normal": 1,
            },
        )


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_0_13_setup_must_be_complete_before_turn_1(ruleset: str) -> None:
    """LoLV 0.13 / AH III.E.4: every faction places its starting forces before play."""
    incomplete = setup_event(ruleset)
    incomplete["placements"] = incomplete["placements"][1:]  # no Fremen placement
    pos = replay([incomplete])
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "phase_advanced", "phase": "storm"})
    assert "Fremen must place" in info.value.message and info.value.rule == SETUP_RULE[ruleset]
    pos = apply(
        pos,
        {
            "type": "forces_placed",
            "faction": "fremen",
            "territory": "sietch_tabr",
            "sector": 13,
            "normal": 10,
        },
    )
    assert apply(pos, {"type": "phase_advanced", "phase": "storm"}).turn == 1


def test_2_12_02_moritani_start_in_an_unoccupied_territory() -> None:
    """LoLV only (the Moritani are an expansion faction)."""
    bad = setup_event("lolv-2.8.4", LOLV)
    bad["placements"][-1] = at("moritani", "imperial_basin", 6, sector=9)  # Ecaz is there
    with pytest.raises(IllegalAction):
        replay([bad])


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Each faction at its own player dot: AH III.E.1 (WBC adds nothing), LoLV 0.10.
    [("ah1979", "AH III.E.1"), ("wbc2018", "AH III.E.1"), ("lolv-2.8.4", "0.10")],
)
def test_0_10_player_markers_on_distinct_dots(ruleset: str, rule: str) -> None:
    """LoLV 0.10 / AH III.E.1: each player's marker on its own dot."""
    bad = setup_event(ruleset)
    bad["markers"]["guild"] = 1
    with pytest.raises(InvalidPosition) as info:
        replay([bad])
    assert info.value.rule == rule
    bad["markers"]["guild"] = 2
    with pytest.raises(InvalidPosition):
        replay([bad])


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ruleset_factions_and_sizes(ruleset: str) -> None:
    """The six character sets of AH II.B (WBC: no non-standard factions); the LoLV adds
    the expansion factions (0.08). Two to six factions in every ruleset."""
    expansion = setup_event(ruleset, ("atreides", "ecaz"))
    if ruleset == "lolv-2.8.4":
        assert replay([expansion]).factions == ("atreides", "ecaz")
    else:
        with pytest.raises(InvalidPosition) as info:
            replay([expansion])
        assert info.value.rule == SETUP_RULE[ruleset]
    with pytest.raises(UnknownIdentifier):
        replay([{**setup_event(ruleset), "ruleset": "dune2099"}])
    with pytest.raises(RuleViolation):
        replay([setup_event(ruleset, factions=("atreides",))])


@pytest.mark.parametrize(
    ("ruleset", "rule", "when", "last_turn"),
    # The prediction: AH IV.A (WBC adds nothing), LoLV 2.02.03; made at setup: AH III.E.1.a
    # ("before traitors are chosen"), WBC III.2, LoLV 2.02.03 ("after player positions"); a
    # turn of the game: 15 in the AH text (AH V), 10 in a WBC heat and at the LoLV (0.02).
    [
        ("ah1979", "AH IV.A", "AH III.E.1.a", 15),
        ("wbc2018", "AH IV.A", "WBC III.2", 10),
        ("lolv-2.8.4", "2.02.03", "2.02.03", 10),
    ],
)
def test_wbc_iii_2_bg_prediction_at_setup_names_another_faction(
    ruleset: str, rule: str, when: str, last_turn: int
) -> None:
    """WBC III.2 / LoLV 2.02.03 / AH III.E.1.a: the BG predicts another faction and a turn
    of the game, at setup."""
    pos = replay([setup_event(ruleset, bg_prediction={"faction": "harkonnen", "turn": last_turn})])
    assert pos.prediction is not None and pos.prediction.turn == last_turn
    for bad in ({"faction": "bene_gesserit", "turn": 4}, {"faction": "harkonnen", "turn": last_turn + 1}):
        with pytest.raises(IllegalAction) as info:
            replay([setup_event(ruleset, bg_prediction=bad)])
        assert info.value.rule == rule
    pos = replay([setup_event(ruleset)])
    pos = apply(pos, {"type": "bg_prediction_made", "faction": "emperor", "turn": 3})
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "bg_prediction_made", "faction": "guild", "turn": 3})
    with pytest.raises(IllegalAction):
        replay([setup_event(ruleset, CLASSIC[2:], bg_prediction={"faction": "guild", "turn": 3})])
    late = apply(replay([setup_event(ruleset)]), {"type": "phase_advanced", "phase": "storm"})
    with pytest.raises(IllegalAction) as info:
        apply(late, {"type": "bg_prediction_made", "faction": "emperor", "turn": 3})
    assert info.value.rule == when


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Hand size: AH VIII.G (WBC VIII.14 keeps it), LoLV 1.04.02.
    [("ah1979", "AH VIII.G"), ("wbc2018", "AH VIII.G"), ("lolv-2.8.4", "1.04.02")],
)
def test_2_xx_hand_limits(ruleset: str, rule: str) -> None:
    """Hand size 4 (LoLV 1.04.02, AH VIII.G); Harkonnen 8 (LoLV 2.05.07, AH VIII.G); CHOAM 5
    (LoLV 2.09.05, an expansion faction)."""
    assert FACTION_SHEETS["harkonnen"].hand_limit == 8
    assert FACTION_SHEETS["choam"].hand_limit == 5
    pos = replay([setup_event(ruleset)])
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "cards_set", "faction": "atreides", "count": 5})
    assert info.value.rule == rule
    assert (
        apply(pos, {"type": "cards_set", "faction": "harkonnen", "count": 8}).states["harkonnen"].cards == 8
    )


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_leaders_change_state_and_count_as_active(ruleset: str) -> None:
    """Active leaders: in the pool, own or captured (LoLV glossary, 2.05.10; AH X.B.2.a.ii);
    tanks leaders are not. (A capture outside a battle, as the judge recorded it before the
    fifth edition, is refused from then on: `test_rules_2_05_10_captures.py`.)"""
    pos = replay([setup_event(ruleset, edition=ACCOUNTED)])
    pos = apply(
        pos,
        {
            "type": "leader_changed",
            "faction": "atreides",
            "leader": "thufir_hawat",
            "status": "tanks_face_up",
        },
    )
    pos = apply(
        pos,
        {
            "type": "leader_changed",
            "faction": "emperor",
            "leader": "Bashar",
            "status": "captured",
            "captor": "harkonnen",
        },
    )
    stats = evaluate(pos).stats
    assert stats["atreides"].leaders == 4
    assert stats["emperor"].leaders == 4 and stats["harkonnen"].leaders == 6
    with pytest.raises(UnknownIdentifier):
        apply(pos, {"type": "leader_changed", "faction": "atreides", "leader": "Paul", "status": "active"})
    with pytest.raises(IllegalAction):
        apply(
            pos,
            {"type": "leader_changed", "faction": "atreides", "leader": "Duncan Idaho", "status": "captured"},
        )
