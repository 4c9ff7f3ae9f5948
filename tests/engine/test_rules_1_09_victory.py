"""Stronghold victory at the Mentat Pause: LoLV 1.09.02-03, 2.02.03, 2.11.14-15, 4.01.12;
AH IV, IV.A, XII.E.1, XX.A; WBC house rules (3/4/5 strongholds, simultaneous solo
victories), WBC IV.1-2. Each rule runs under every ruleset whose text has it, with the
winners and the rule cited per ruleset; the three-faction alliances of WBC and AH, the AH
XX options and the Ecaz are single-ruleset."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import LIMITED
from dune.engine.errors import IllegalAction
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import ALL_RULESETS, at, position, started, to_phase

LOLV = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ecaz")
#: A classic table seated as LOLV (the Emperor in the Ecaz's seat), for every ruleset.
SEATS = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "emperor")
#: A solo stronghold victory: AH IV (three strongholds), WBC house rules (3 strongholds),
#: LoLV 1.09.02.01.
SOLO = {"ah1979": "AH IV", "wbc2018": "WBC house rules (3 strongholds)", "lolv-2.8.4": "1.09.02.01"}
#: An allied stronghold victory: AH XII.E.1 (three, allied or not), WBC house rules (4/5
#: strongholds), LoLV 1.09.02.02 (four).
ALLIED = {"ah1979": "AH XII.E.1", "wbc2018": "WBC house rules (4/5 strongholds)", "lolv-2.8.4": "1.09.02.02"}
#: The BG prediction: AH IV.A (WBC adds nothing), LoLV 2.02.03.
PREDICTION = {"ah1979": "AH IV.A", "wbc2018": "AH IV.A", "lolv-2.8.4": "2.02.03"}


def _victory(**kw: Any) -> Any:
    return evaluate(position(**kw)).victory


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_09_02_01_unallied_player_with_three_strongholds_wins(ruleset: str) -> None:
    """LoLV 1.09.02.01 / AH IV / WBC house rules: an unallied player controlling three
    strongholds wins."""
    forces = [at("harkonnen", s, 2) for s in ("carthag", "arrakeen", "tueks_sietch")]
    v = _victory(ruleset=ruleset, forces=forces)
    assert v.winners == ("harkonnen",)
    assert v.kind == "solo_stronghold"
    assert v.rule == SOLO[ruleset]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_09_02_02_allied_victory_example(ruleset: str) -> None:
    """LoLV 1.09.02.02 example: Atreides allied with the Fremen; the Fremen control Sietch
    Tabr and Carthag, the Atreides Tuek's Sietch and Arrakeen: they win together (four
    strongholds are enough in every text: AH XII.E.1 asks three)."""
    forces = [
        at("fremen", "sietch_tabr", 3),
        at("fremen", "carthag", 2),
        at("atreides", "tueks_sietch", 1),
        at("atreides", "arrakeen", 4),
    ]
    pos = position(ruleset=ruleset, forces=forces, alliances=[["atreides", "fremen"]])
    v = evaluate(pos).victory
    assert sorted(v.winners) == ["atreides", "fremen"]
    assert v.kind == "allied_stronghold"
    assert v.rule == ALLIED[ruleset]


@pytest.mark.parametrize(
    ("ruleset", "wins"),
    # An alliance with three strongholds: AH XII.E.1 lets it win; WBC house rules and LoLV
    # 1.10.02.01 ask four.
    [("ah1979", True), ("wbc2018", False), ("lolv-2.8.4", False)],
)
def test_1_10_02_01_three_strongholds_do_not_win_for_an_alliance(ruleset: str, wins: bool) -> None:
    forces = [at("fremen", "sietch_tabr"), at("fremen", "carthag"), at("atreides", "arrakeen")]
    pos = position(ruleset=ruleset, forces=forces, alliances=[["atreides", "fremen"]])
    v = evaluate(pos).victory
    if wins:
        assert sorted(v.winners) == ["atreides", "fremen"] and v.rule == ALLIED[ruleset]
    else:
        assert v is None


@pytest.mark.parametrize(
    ("ruleset", "allied_win"),
    # Three strongholds held by one member of an alliance: no solo victory in any text (AH
    # XII.E.1.b, WBC IV.2, LoLV 1.10.02.01); under AH the alliance wins with them (XII.E.1).
    [("ah1979", True), ("wbc2018", False), ("lolv-2.8.4", False)],
)
def test_wbc_iv_2_no_solo_victory_while_allied(ruleset: str, allied_win: bool) -> None:
    """WBC IV.2 (AH XII.E.1.b, LoLV 1.10.02.01): a faction may not claim a solo victory
    while allied."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    v = _victory(ruleset=ruleset, forces=forces, alliances=[["harkonnen", "guild"]])
    if allied_win:
        assert v.kind == "allied_stronghold" and sorted(v.winners) == ["guild", "harkonnen"]
    else:
        assert v is None
    assert _victory(ruleset=ruleset, forces=forces).kind == "solo_stronghold"


def test_wbc_house_rule_three_faction_alliance_needs_five() -> None:
    """WBC house rules: three-faction alliances must control 5 strongholds. WBC only: the
    LoLV has no such alliance (1.10.01.03); the AH threshold is in the next tests."""
    four = [
        at("harkonnen", "carthag"),
        at("harkonnen", "arrakeen"),
        at("guild", "tueks_sietch"),
        at("emperor", "sietch_tabr"),
    ]
    pos = position(forces=four, alliances=[["emperor", "guild", "harkonnen"]], three_alliances=True)
    assert evaluate(pos).victory is None
    five = four + [at("emperor", "habbanya_sietch")]
    pos = position(forces=five, alliances=[["emperor", "guild", "harkonnen"]], three_alliances=True)
    v = evaluate(pos).victory
    assert v.kind == "three_alliance" and sorted(v.winners) == ["emperor", "guild", "harkonnen"]


def test_ah_iv_xii_e_1_alliances_win_with_three() -> None:
    """AH IV / XII.E.1: allied players together holding three strongholds win. AH only: a
    three-faction alliance with three strongholds wins in no other text (WBC house rules:
    five; LoLV 1.10.01.03: no such alliance)."""
    forces = [at("harkonnen", "carthag"), at("guild", "tueks_sietch"), at("emperor", "arrakeen")]
    alliance = [["emperor", "guild", "harkonnen"]]
    v = _victory(ruleset="ah1979", forces=forces, alliances=alliance)
    assert v.kind == "three_alliance" and v.rule == "AH XII.E.1"


def test_ah_xx_a_optional_extra_strongholds_for_alliances() -> None:
    """AH XX.A (optional): an alliance holds two more strongholds than it has members. AH
    only: the section XX house rules are options of the AH text."""
    forces = [at("harkonnen", "carthag"), at("guild", "tueks_sietch"), at("guild", "arrakeen")]
    alliance = [["guild", "harkonnen"]]
    assert _victory(ruleset="ah1979", forces=forces, alliances=alliance).kind == "allied_stronghold"
    assert (
        _victory(ruleset="ah1979", forces=forces, alliances=alliance, options=["xx_a_alliance_strongholds"])
        is None
    )


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Two sides qualify (the Shield Wall counting as a sixth stronghold): only the first in
    # storm order wins under LoLV 4.01.12; both win under WBC (Qualification Points:
    # simultaneous solo victories). The AH text has five strongholds: two cannot qualify.
    [("wbc2018", "WBC Qualification Points (simultaneous solo victories)"), ("lolv-2.8.4", "4.01.12")],
)
def test_4_01_12_several_qualifiers_first_in_storm_order_wins(ruleset: str, rule: str) -> None:
    """LoLV 4.01.12 (and 1.09.03): with the Shield Wall counting, two players may qualify;
    the one first in storm order wins; under WBC both win."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    forces += [at("guild", s) for s in ("sietch_tabr", "habbanya_sietch")] + [
        at("guild", "shield_wall", sector=8)
    ]
    # Seats: atreides 1, bene_gesserit 4, fremen 7, harkonnen 10, guild 13, emperor 16.
    for storm, first in ((11, "guild"), (8, "harkonnen")):
        v = _victory(ruleset=ruleset, factions=SEATS, forces=forces, worms=4, storm=storm)
        assert v.rule == rule
        assert sorted(v.winners) == ([first] if ruleset == "lolv-2.8.4" else ["guild", "harkonnen"])


def test_wbc_simultaneous_solo_victories_both_count() -> None:
    """WBC QP rules: two unallied players winning at once (possible after the Shield Wall
    becomes the 6th stronghold) each get full solo credit. WBC only: the LoLV awards the
    first in storm order (test_4_01_12 above)."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    forces += [at("fremen", s) for s in ("sietch_tabr", "habbanya_sietch")] + [
        at("fremen", "shield_wall", sector=7)
    ]
    v = _victory(forces=forces, worms=4)
    assert sorted(v.winners) == ["fremen", "harkonnen"]
    assert v.kind == "solo_stronghold"
    assert [k for _side, k in v.sides] == ["solo_stronghold", "solo_stronghold"]


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_wbc_iv_1_coexisting_bg_never_controls(ruleset: str) -> None:
    """WBC IV.1 / AH XV.A: BG tokens declared coexisting do not occupy a stronghold for
    victory, even as its sole occupants. AH/WBC only: the LoLV BG has advisors, not declared
    coexistence (advisors: test_control_needs_a_sole_occupant)."""
    forces = [at("bene_gesserit", s, 2) for s in ("carthag", "arrakeen", "tueks_sietch")]
    ev = evaluate(position(ruleset=ruleset, forces=forces, coexisting=["carthag"]))
    assert ev.control["carthag"] is None
    assert ev.victory is None


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_control_needs_a_sole_occupant(ruleset: str) -> None:
    """LoLV glossary (Control): at least one force and no other faction's forces; AH XV.A /
    LoLV 2.02.12: coexisting BG tokens and advisors do not prevent control."""
    ev = evaluate(position(ruleset=ruleset, forces=[at("harkonnen", "carthag"), at("atreides", "carthag")]))
    assert ev.control["carthag"] is None
    # AH and WBC tokens have no advisor side: they coexist by declaration (AH XV.A, WBC XV.5).
    lolv = ruleset == "lolv-2.8.4"
    bg = at("bene_gesserit", "carthag", 0, advisors=1) if lolv else at("bene_gesserit", "carthag", 1)
    ev = evaluate(
        position(
            ruleset=ruleset,
            forces=[at("harkonnen", "carthag"), bg],
            coexisting=[] if lolv else ["carthag"],
        )
    )
    assert ev.control["carthag"] == "harkonnen"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_02_03_bg_prediction_wins_alone(ruleset: str) -> None:
    """LoLV 2.02.03 / AH IV.A: if the predicted faction wins (alone or allied, even with the
    BG) on the predicted turn, the BG alone wins."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    pred = {"faction": "harkonnen", "turn": 3}
    v = _victory(ruleset=ruleset, forces=forces, bg_prediction=pred, turn=3)
    assert v.winners == ("bene_gesserit",) and v.kind == "bg_prediction" and v.rule == PREDICTION[ruleset]
    assert _victory(ruleset=ruleset, forces=forces, bg_prediction=pred, turn=4).winners == ("harkonnen",)
    # Even when the predicted faction wins allied with the BG itself.
    allied = [
        at("harkonnen", "carthag"),
        at("harkonnen", "arrakeen"),
        at("bene_gesserit", "tueks_sietch"),
        at("bene_gesserit", "sietch_tabr"),
    ]
    v = _victory(
        ruleset=ruleset, forces=allied, bg_prediction=pred, turn=3, alliances=[["bene_gesserit", "harkonnen"]]
    )
    assert v.winners == ("bene_gesserit",)


@pytest.mark.parametrize("ruleset", ["wbc2018", "lolv-2.8.4"])
def test_2_02_03_lolv_prediction_holds_for_a_qualifier_later_in_storm_order(ruleset: str) -> None:
    """LoLV 2.02.03 overrides 1.09.03: the predicted faction met the requirements, though a
    side earlier in storm order wins; under WBC both sides win (Qualification Points), so
    the prediction holds by AH IV.A. The AH text has no sixth stronghold to make two
    qualifiers."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    forces += [at("guild", s) for s in ("sietch_tabr", "habbanya_sietch")] + [
        at("guild", "shield_wall", sector=8)
    ]
    v = _victory(
        ruleset=ruleset,
        factions=SEATS,
        forces=forces,
        worms=4,
        storm=11,
        bg_prediction={"faction": "harkonnen", "turn": 3},
    )
    assert v.winners == ("bene_gesserit",) and v.rule == PREDICTION[ruleset]


def test_2_11_14_ecaz_and_ally_share_a_stronghold_and_control_it() -> None:
    """LoLV 2.11.14-15: Ecaz and ally co-occupying count it once and control it; three
    co-occupied strongholds win for them. LoLV only: the Ecaz is an expansion faction."""
    shared = [at(f, s) for s in ("carthag", "arrakeen", "tueks_sietch") for f in ("ecaz", "atreides")]
    ev = evaluate(
        position(ruleset="lolv-2.8.4", factions=LOLV, forces=shared, alliances=[["atreides", "ecaz"]])
    )
    assert ev.control["carthag"] == "ecaz"
    assert sorted(ev.victory.winners) == ["atreides", "ecaz"]


def _mentat(pos: Position) -> Position:
    return to_phase(pos, "mentat_pause")


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_victory_claim_is_checked_against_the_position(ruleset: str) -> None:
    """A claim the position does not support is refused with the rule; a true one ends the game.
    (The Harkonnen's two shipments in one turn are the fifth edition's, before the one shipment
    a turn was checked: AH IX.C.1.a, LoLV 1.06.02.)"""
    pos = to_phase(started(ruleset, edition=LIMITED), "shipment_movement")
    for s, sector in (("carthag", 10), ("tueks_sietch", 4)):
        pos = apply(
            pos,
            {"type": "forces_placed", "faction": "harkonnen", "territory": s, "sector": sector, "normal": 1},
        )
    pos = _mentat(pos)
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "victory_claimed", "winners": ["harkonnen"]})
    assert info.value.rule == SOLO[ruleset]
    assert "controlled" in info.value.message
    # Carthag, Tuek's (shared with the Guild!) and Arrakeen (shared with the Atreides).
    assert evaluate(pos).control["tueks_sietch"] is None


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_victory_claim_accepted_and_game_over(ruleset: str) -> None:
    """(Two Harkonnen shipments in a turn: the fifth edition's rulings, as above.)"""
    pos = to_phase(started(ruleset, edition=LIMITED), "shipment_movement")
    pos = apply(
        pos,
        {"type": "forces_removed", "faction": "guild", "territory": "tueks_sietch", "sector": 4, "normal": 5},
    )
    for s, sector in (("tueks_sietch", 4), ("sietch_tabr", 13)):
        pos = apply(
            pos,
            {"type": "forces_placed", "faction": "harkonnen", "territory": s, "sector": sector, "normal": 1},
        )
    pos = apply(
        pos,
        {
            "type": "forces_removed",
            "faction": "fremen",
            "territory": "sietch_tabr",
            "sector": 13,
            "normal": 10,
        },
    )
    pos = _mentat(pos)
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "victory_claimed", "winners": ["atreides"]})
    assert info.value.message == "the position's winners are Harkonnen, not Atreides"
    assert info.value.offending == ("atreides",)
    with pytest.raises(IllegalAction) as standing:
        apply(pos, {"type": "turn_advanced"})  # a victory stands: it must be claimed
    # The refusal says who wins and what to do, in words (no event names).
    assert standing.value.message.startswith("Harkonnen wins at this Mentat Pause (rule ")
    assert standing.value.message.endswith(
        "confirm the victory with the table (Confirm victory) instead of starting another turn")
    assert "victory_claimed" not in standing.value.message
    done = apply(pos, {"type": "victory_claimed", "winners": ["harkonnen"], "kind": "solo_stronghold"})
    assert done.outcome is not None and done.outcome.winners == ("harkonnen",)
    from dune.engine.errors import GameOver

    with pytest.raises(GameOver):
        apply(done, {"type": "spice_set", "faction": "guild", "amount": 3})
    closed = apply(done, {"type": "game_ended", "reason": "won"})
    assert closed.ended


def test_ah_xii_e_1_an_alliance_of_four_wins_an_allied_victory() -> None:
    """AH only: XII.C.2 sets no alliance size, so four allies holding three strongholds win
    (XII.E.1) as an allied victory; the engine once had no result kind for them."""
    pos = position(
        ruleset="ah1979",
        forces=[at("atreides", "arrakeen"), at("fremen", "sietch_tabr"), at("guild", "tueks_sietch")],
        alliances=[["atreides", "fremen", "guild", "emperor"]],
    )
    victory = evaluate(pos).victory
    assert victory is not None and victory.kind == "allied_stronghold"
    assert set(victory.winners) == {"atreides", "fremen", "guild", "emperor"}
