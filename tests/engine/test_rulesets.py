"""Rulesets are definition objects in one registry; errors carry rule, phase and input."""

from __future__ import annotations

import json

import pytest

from dune.engine import ids
from dune.engine.errors import IllegalAction, RuleViolation, UnknownIdentifier
from dune.engine.rulesets import RULESETS, get_ruleset
from dune.refusals import Refusal


def test_registry_matches_the_shared_ids() -> None:
    assert tuple(RULESETS) == ids.RULESETS
    for key, rs in RULESETS.items():
        assert rs.key == key
        assert set(rs.factions) <= set(ids.FACTIONS)
        assert rs.phases[-1] == "mentat_pause"


def test_unknown_ruleset_raises() -> None:
    with pytest.raises(UnknownIdentifier) as info:
        get_ruleset("dune-2099")
    assert "dune-2099" in info.value.message


@pytest.mark.parametrize(
    ("key", "size", "need"),
    [
        ("ah1979", 1, 3),
        ("ah1979", 2, 3),
        ("ah1979", 4, 3),
        ("wbc2018", 1, 3),
        ("wbc2018", 2, 4),
        ("wbc2018", 3, 5),
        ("lolv-2.8.4", 1, 3),
        ("lolv-2.8.4", 2, 4),
    ],
)
def test_victory_thresholds(key: str, size: int, need: int) -> None:
    """AH IV / XII.E.1; WBC house rules 3/4/5; LoLV 1.09.02.01-02."""
    assert get_ruleset(key).threshold(size, frozenset()) == need


def test_turn_limits() -> None:
    """AH V: 15 turns; WBC heats 10 (finals 15); LoLV 0.02: at most 10."""
    assert (
        RULESETS["ah1979"].turn_limit,
        RULESETS["wbc2018"].turn_limit,
        RULESETS["lolv-2.8.4"].turn_limit,
    ) == (15, 10, 10)
    assert RULESETS["wbc2018"].max_turns == 15 and RULESETS["lolv-2.8.4"].max_turns == 10


def test_every_ruleset_cites_every_rule_key() -> None:
    keys = set(RULESETS["lolv-2.8.4"].cite)
    for rs in RULESETS.values():
        # The expansion factions' rules and the LoLV Shield Wall rule exist only in LoLV.
        lolv_only = {"ecaz", "shield_wall", "ambassador", "ally_abilities", "moritani_alliance"}
        lolv_only |= {
            "ambassador_alliance",
            "stormed_in",
            "hms",
            "hms_ship",
            "hms_move",
            "no_field",
            "no_field_hit",
        }
        lolv_only |= {"terror", "aftermath", "ambassadors", "vidal", "bribe"}
        wbc_only = {"coexist_timing", "coexist_withdraw", "coexist_again", "bribe_timing"}
        wbc_only |= {"family_atomics_reach", "family_atomics_bg"}
        lolv_only |= {"ally_tanks"}  # LoLV 1.06.06 and WBC IX.3; AH forbids entry only
        lolv_only |= {"no_field_occupancy", "terror_timing", "enemy_of_my_enemy", "ambassador_symbols"}
        lolv_only |= {"vidal_pause", "bribe_allies", "bribe_late", "bg_mixed", "bg_advisors"}
        lolv_only |= {"terror_trigger", "ambassador_trigger"}
        lolv_only |= {"battle_cyborgs", "battle_suboids"}  # the Ixians' forces in battle (2.07.09, 2.07.23)
        lolv_only |= {"revival_ally", "revival_raised", "revival_unlimited"}  # 2.03.07, 2.08.11, 2.08.08
        lolv_only |= {"bg_adapt", "spiritual_advisor", "bg_basic_start"}  # 2.02.20, 2.02.11, 2.02.02
        lolv_only |= {"inflation"}  # the CHOAM's Inflation token (2.09.09), an expansion faction's
        # The Ambassador supply and the No-Field tokens at hand (2.11.03-2.11.10, 2.10.10-19);
        # the once-a-game Karama power (1.14.00; WBC Player Aid 8: once per card).
        lolv_only |= {"ambassador_supply", "ambassador_redraw", "ambassador_bg"}
        lolv_only |= {"no_field_supply", "no_field_face_up", "no_field_ally", "karama_once"}
        # WBC XIII.1 and VI.4-5 as well; the AH text has neither (AH XIII.C, questions A.2).
        lolv_only |= {"bribe_timing", "family_atomics_reach", "family_atomics_bg"}
        lolv_only |= {"ambassador_stormed"}  # 2.11.09
        # Juice of Sappho (3.02.02; the AH and WBC decks have none, `juice_of_sappho` says so) and
        # the CHOAM's revival (2.09.08).
        lolv_only |= {"sappho_aggressor", "sappho_first", "sappho_last", "revival_choam"}
        # What a LoLV traitor call gives back (1.07.06.06.00), the second expansion's battle cards
        # (3.02.04, 3.02.07, 3.02.10; without the key a ruleset's deck has no such card), the
        # Cheap Hero's "Discard after use" (3.01.04) and the allies' Voice and Prescience
        # (2.02.07, 2.01.09; the WBC cites X.5 as `ally_powers`).
        lolv_only |= {"traitor_restores", "mirror_weapon", "portable_snooper", "stone_burner", "one_time_cards"}
        lolv_only |= {"voice_ally", "prescience_ally", "choam_dialing", "blind_prescience"}
        assert keys - lolv_only <= set(rs.cite), rs.key
        assert wbc_only <= set(RULESETS["wbc2018"].cite)


def test_rule_violation_to_dict() -> None:
    err = IllegalAction(
        rule="1.06.04.06", msg="no move into storm", phase="shipment_movement", input=("meridian", 0)
    )
    assert isinstance(err, RuleViolation) and isinstance(err, Refusal) and isinstance(err, ValueError)
    assert (err.rule, err.message, err.offending, err.status) == (
        "1.06.04.06",
        "no move into storm",
        ("meridian", 0),
        400,
    )
    d = err.to_dict()
    assert d == {
        "rule": "1.06.04.06",
        "message": "no move into storm",
        "phase": "shipment_movement",
        "input": "('meridian', 0)",
        "detail": "1.06.04.06: no move into storm",
    }
    json.dumps(d)
    assert "1.06.04.06" in str(err)
