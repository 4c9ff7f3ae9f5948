"""The turn leads the judge: the next step the table page offers (pure)."""

from __future__ import annotations

from typing import Any

from dune.turn_flow import next_step

ALL = {"storm_moved", "quick_record", "worm", "phase_advanced", "turn_advanced"}


def step(**given: Any) -> Any:
    base: dict[str, Any] = {"phase": "storm", "turn": 2, "storm": 5, "this_phase": [], "nexus_open": False,
                            "proposals": 0, "victory_proposed": False, "allowed": ALL, "quick": True, "over": False}
    return next_step(**{**base, **given})


def test_an_ordinary_turn_walks_storm_spice_blow_battle_mentat_pause() -> None:
    assert step().key == "move_storm"
    moved = step(this_phase=["storm_moved"])
    # AH V / LoLV 1.00.00: phases may be skipped; a spice blow without a worm records nothing
    # in quick tracking, so the storm's step goes on to the battle phase, a worm through the spice blow.
    assert moved.advance_to == "battle" and moved.advance_label == "No worm: battle phase"
    assert moved.other_to == "spice_blow" and moved.other_label == "A worm appeared: spice blow"
    assert step(this_phase=["storm_moved"], quick=False, next_phase="spice_blow").advance_to == "spice_blow"
    blow = step(phase="spice_blow")
    assert blow.key == "spice_blow" and blow.advance_to == "battle" and blow.advance_label == "No worm: battle phase"
    assert step(phase="battle").key == "strongholds"
    attempts = step(phase="battle", this_phase=["quick_record"], proposals=1)
    assert attempts.key == "attempts" and attempts.section == "attempts" and attempts.advance_to == "mentat_pause"
    assert step(phase="battle", this_phase=["quick_record"]).advance_to == "mentat_pause"
    assert step(phase="mentat_pause").key == "next_turn"


def test_turn_1_storm_is_placed_at_setup_not_moved() -> None:
    """AH VI.A: the storm's first position is set at setup; it moves from turn 2."""
    assert step(phase="setup", storm=None).key == "place_storm"
    assert step(phase="setup").advance_to == "storm"
    assert step(turn=1).key == "storm_done"


def test_a_worm_opens_the_nexus_step() -> None:
    """AH VII.A: a worm in the spice blow opens a nexus, where alliances form and break."""
    nexus = step(phase="spice_blow", this_phase=["worm"], nexus_open=True)
    assert nexus.key == "nexus" and nexus.section == "nexus" and nexus.advance_to == "battle"


def test_a_victory_and_the_end_lead_to_the_report() -> None:
    assert step(phase="mentat_pause", victory_proposed=True).key == "victory"
    over = step(over=True)
    assert over.key == "report" and over.section == "ending"


def test_full_tracking_does_not_ask_for_the_stronghold_grid() -> None:
    assert step(phase="battle", quick=False).key == "battle_done"


def test_phases_quick_tracking_does_not_record_are_passed_over() -> None:
    assert step(phase="bidding").advance_to == "battle"
    assert step(phase="spice_collection").advance_to == "mentat_pause"


def test_full_tracking_walks_every_phase_one_at_a_time() -> None:
    """In full tracking each phase has something to record (shipment and movement, battles,
    collection), so the one-tap move never skips a phase: a skipped phase cannot be
    returned to (phases only move forward, LoLV 1.00.00)."""
    full = {"quick": False}
    blow = step(phase="spice_blow", next_phase="choam_charity", **full)
    assert blow.advance_to == "choam_charity" and blow.advance_label == "Next: CHOAM Charity"
    assert "Spice Blow form" in blow.hint and blow.section == "full"
    nexus = step(phase="spice_blow", nexus_open=True, next_phase="bidding", **full)
    assert nexus.key == "nexus" and nexus.advance_to == "bidding" and nexus.section == "nexus"
    moving = step(phase="shipment_movement", next_phase="battle", **full)
    assert moving.title.startswith("Shipment and movement") and moving.advance_to == "battle"
    assert moving.section == "full"
    battle = step(phase="battle", next_phase="spice_collection", **full)
    assert battle.key == "battle_done" and battle.advance_to == "spice_collection"
    attempts = step(phase="battle", proposals=1, next_phase="spice_collection", **full)
    assert attempts.key == "attempts" and attempts.advance_to == "spice_collection"
    collect = step(phase="spice_collection", next_phase="mentat_pause", **full)
    assert collect.title.startswith("Spice collection") and collect.advance_label == "Next: Mentat Pause"


def test_quick_tracking_keeps_passing_over_phases_it_does_not_record() -> None:
    assert step(phase="spice_blow", next_phase="choam_charity").advance_to == "battle"
    assert step(phase="bidding", next_phase="revival").advance_to == "battle"


def test_1_05_01_full_tracking_revival_points_to_the_revive_form() -> None:
    revival = step(phase="revival", quick=False, next_phase="shipment_movement")
    assert revival.title == "Revival: record the forces and leaders revived"
    assert "Revive form" in revival.hint and revival.section == "full"
    assert revival.advance_to == "shipment_movement"


def test_1_06_01_the_shipment_step_says_the_factions_go_in_storm_order() -> None:
    """LoLV 1.06.01, AH IX.C: the full-tracking step of the shipment and movement phase says
    how the engine takes the records: in storm order, the Guild alone out of turn."""
    step = next_step(phase="shipment_movement", turn=2, storm=3, this_phase=[], nexus_open=False, proposals=0,
                     victory_proposed=False, allowed={"forces_placed", "phase_advanced"}, quick=False, over=False,
                     next_phase="battle")
    assert "storm order" in step.hint and "only the Guild may go out of turn" in step.hint
