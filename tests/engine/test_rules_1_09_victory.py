"""Stronghold victory at the Mentat Pause: LoLV 1.09.02-03, 2.02.03, 2.11.14-15, 4.01.12;
AH IV, IV.A, XII.E.1, XX.A; WBC house rules (3/4/5 strongholds, simultaneous solo
victories), WBC IV.1-2."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.engine.errors import IllegalAction
from gameplay.engine.evaluation import evaluate
from gameplay.engine.game_log import apply
from gameplay.engine.position import Position

from .helpers import at, in_turn, position, to_phase

LOLV = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ecaz")


def _victory(**kw: Any) -> Any:
    return evaluate(position(**kw)).victory


def test_1_09_02_01_unallied_player_with_three_strongholds_wins() -> None:
    """LoLV 1.09.02.01: an unallied player controlling three strongholds wins."""
    forces = [at("harkonnen", s, 2) for s in ("carthag", "arrakeen", "tueks_sietch")]
    v = _victory(ruleset="lolv-2.8.4", factions=LOLV, forces=forces)
    assert v.winners == ("harkonnen",)
    assert v.kind == "solo_stronghold"
    assert v.rule == "1.09.02.01"


def test_1_09_02_02_allied_victory_example() -> None:
    """LoLV 1.09.02.02 example: Atreides allied with the Fremen; the Fremen control Sietch
    Tabr and Carthag, the Atreides Tuek's Sietch and Arrakeen: they win together."""
    forces = [
        at("fremen", "sietch_tabr", 3),
        at("fremen", "carthag", 2),
        at("atreides", "tueks_sietch", 1),
        at("atreides", "arrakeen", 4),
    ]
    pos = position(ruleset="lolv-2.8.4", factions=LOLV, forces=forces, alliances=[["atreides", "fremen"]])
    v = evaluate(pos).victory
    assert sorted(v.winners) == ["atreides", "fremen"]
    assert v.kind == "allied_stronghold"
    assert v.rule == "1.09.02.02"


def test_1_10_02_01_three_strongholds_do_not_win_for_an_alliance() -> None:
    forces = [at("fremen", "sietch_tabr"), at("fremen", "carthag"), at("atreides", "arrakeen")]
    pos = position(ruleset="lolv-2.8.4", factions=LOLV, forces=forces, alliances=[["atreides", "fremen"]])
    assert evaluate(pos).victory is None


def test_wbc_iv_2_no_solo_victory_while_allied() -> None:
    """WBC IV.2 (AH XII.E.1.b): a faction may not claim a solo victory while allied."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    assert _victory(forces=forces, alliances=[["harkonnen", "guild"]]) is None
    assert _victory(forces=forces).kind == "solo_stronghold"


def test_wbc_house_rule_three_faction_alliance_needs_five() -> None:
    """WBC house rules: three-faction alliances must control 5 strongholds."""
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
    """AH IV / XII.E.1: allied players together holding three strongholds win."""
    forces = [at("harkonnen", "carthag"), at("guild", "tueks_sietch"), at("emperor", "arrakeen")]
    alliance = [["emperor", "guild", "harkonnen"]]
    v = _victory(ruleset="ah1979", forces=forces, alliances=alliance)
    assert v.kind == "three_alliance" and v.rule == "AH XII.E.1"


def test_ah_xx_a_optional_extra_strongholds_for_alliances() -> None:
    """AH XX.A (optional): an alliance holds two more strongholds than it has members."""
    forces = [at("harkonnen", "carthag"), at("guild", "tueks_sietch"), at("guild", "arrakeen")]
    alliance = [["guild", "harkonnen"]]
    assert _victory(ruleset="ah1979", forces=forces, alliances=alliance).kind == "allied_stronghold"
    assert (
        _victory(ruleset="ah1979", forces=forces, alliances=alliance, options=["xx_a_alliance_strongholds"])
        is None
    )


def test_4_01_12_several_qualifiers_first_in_storm_order_wins() -> None:
    """LoLV 4.01.12 (and 1.09.03): with the Shield Wall counting, two players may qualify;
    the one first in storm order wins."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    forces += [at("guild", s) for s in ("sietch_tabr", "habbanya_sietch")] + [
        at("guild", "shield_wall", sector=8)
    ]
    # Seats: atreides 1, bene_gesserit 4, fremen 7, harkonnen 10, guild 13, ecaz 16.
    v = _victory(ruleset="lolv-2.8.4", factions=LOLV, forces=forces, worms=4, storm=11)
    assert v.winners == ("guild",) and v.rule == "4.01.12"
    v = _victory(ruleset="lolv-2.8.4", factions=LOLV, forces=forces, worms=4, storm=8)
    assert v.winners == ("harkonnen",)


def test_wbc_simultaneous_solo_victories_both_count() -> None:
    """WBC QP rules: two unallied players winning at once (possible after the Shield Wall
    becomes the 6th stronghold) each get full solo credit."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    forces += [at("fremen", s) for s in ("sietch_tabr", "habbanya_sietch")] + [
        at("fremen", "shield_wall", sector=7)
    ]
    v = _victory(forces=forces, worms=4)
    assert sorted(v.winners) == ["fremen", "harkonnen"]
    assert v.kind == "solo_stronghold"
    assert [k for _side, k in v.sides] == ["solo_stronghold", "solo_stronghold"]


def test_wbc_iv_1_coexisting_bg_never_controls() -> None:
    """WBC IV.1: BG tokens declared coexisting do not occupy a stronghold for victory, even
    as its sole occupants."""
    forces = [at("bene_gesserit", s, 2) for s in ("carthag", "arrakeen", "tueks_sietch")]
    ev = evaluate(position(forces=forces, coexisting=["carthag"]))
    assert ev.control["carthag"] is None
    assert ev.victory is None


def test_control_needs_a_sole_occupant() -> None:
    """LoLV glossary (Control): at least one force and no other faction's forces."""
    ev = evaluate(position(forces=[at("harkonnen", "carthag"), at("atreides", "carthag")]))
    assert ev.control["carthag"] is None
    ev = evaluate(
        position(forces=[at("harkonnen", "carthag"), at("bene_gesserit", "carthag", 0, advisors=1)])
    )
    assert ev.control["carthag"] == "harkonnen"


def test_2_02_03_bg_prediction_wins_alone() -> None:
    """LoLV 2.02.03 / AH IV.A: if the predicted faction wins (alone or allied, even with the
    BG) on the predicted turn, the BG alone wins."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    pred = {"faction": "harkonnen", "turn": 3}
    v = _victory(forces=forces, bg_prediction=pred, turn=3)
    assert v.winners == ("bene_gesserit",) and v.kind == "bg_prediction" and v.rule == "AH IV.A"
    assert _victory(forces=forces, bg_prediction=pred, turn=4).winners == ("harkonnen",)
    # Even when the predicted faction wins allied with the BG itself.
    allied = [
        at("harkonnen", "carthag"),
        at("harkonnen", "arrakeen"),
        at("bene_gesserit", "tueks_sietch"),
        at("bene_gesserit", "sietch_tabr"),
    ]
    v = _victory(forces=allied, bg_prediction=pred, turn=3, alliances=[["bene_gesserit", "harkonnen"]])
    assert v.winners == ("bene_gesserit",)


def test_2_02_03_lolv_prediction_holds_for_a_qualifier_later_in_storm_order() -> None:
    """LoLV 2.02.03 overrides 1.09.03: the predicted faction met the requirements."""
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    forces += [at("guild", s) for s in ("sietch_tabr", "habbanya_sietch")] + [
        at("guild", "shield_wall", sector=8)
    ]
    v = _victory(
        ruleset="lolv-2.8.4",
        factions=LOLV,
        forces=forces,
        worms=4,
        storm=11,
        bg_prediction={"faction": "harkonnen", "turn": 3},
    )
    assert v.winners == ("bene_gesserit",) and v.rule == "2.02.03"


def test_2_11_14_ecaz_and_ally_share_a_stronghold_and_control_it() -> None:
    """LoLV 2.11.14-15: Ecaz and ally co-occupying count it once and control it; three
    co-occupied strongholds win for them."""
    shared = [at(f, s) for s in ("carthag", "arrakeen", "tueks_sietch") for f in ("ecaz", "atreides")]
    ev = evaluate(
        position(ruleset="lolv-2.8.4", factions=LOLV, forces=shared, alliances=[["atreides", "ecaz"]])
    )
    assert ev.control["carthag"] == "ecaz"
    assert sorted(ev.victory.winners) == ["atreides", "ecaz"]


def _mentat(pos: Position) -> Position:
    return to_phase(pos, "mentat_pause")


def test_victory_claim_is_checked_against_the_position() -> None:
    """A claim the position does not support is refused with the rule; a true one ends the game."""
    pos = to_phase(in_turn(1), "shipment_movement")
    for s, sector in (("carthag", 10), ("tueks_sietch", 4)):
        pos = apply(
            pos,
            {"type": "forces_placed", "faction": "harkonnen", "territory": s, "sector": sector, "normal": 1},
        )
    pos = _mentat(pos)
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "victory_claimed", "winners": ["harkonnen"]})
    assert info.value.rule == "WBC house rules (3 strongholds)"
    assert "controlled" in info.value.message
    # Carthag, Tuek's (shared with the Guild!) and Arrakeen (shared with the Atreides).
    assert evaluate(pos).control["tueks_sietch"] is None


def test_victory_claim_accepted_and_game_over() -> None:
    pos = to_phase(in_turn(1), "shipment_movement")
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
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "turn_advanced"})  # a victory stands: it must be claimed
    done = apply(pos, {"type": "victory_claimed", "winners": ["harkonnen"], "kind": "solo_stronghold"})
    assert done.outcome is not None and done.outcome.winners == ("harkonnen",)
    from gameplay.engine.errors import GameOver

    with pytest.raises(GameOver):
        apply(done, {"type": "spice_set", "faction": "guild", "amount": 3})
    closed = apply(done, {"type": "game_ended", "reason": "won"})
    assert closed.ended
