"""LoLV 1.01 (storm phase), AH VI and IX.A: storm order, first player, storm movement;
WBC VI.9-10: separation by storm."""

from __future__ import annotations

import pytest

from gameplay.engine.errors import IllegalAction, WrongPhase
from gameplay.engine.evaluation import evaluate
from gameplay.engine.game_log import apply
from gameplay.engine.storm import in_storm, separated, storm_destroys

from .helpers import CLASSIC, in_turn, next_turn, position, started, to_phase


def test_1_01_01_first_player_is_next_dot_counterclockwise() -> None:
    """LoLV 1.01.01: the faction whose player marker the storm next approaches is first."""
    ev = evaluate(position(storm=2))  # dots 1,4,7,... seat order atreides..guild
    assert ev.first_player == "bene_gesserit"  # dot 4
    assert ev.storm_order == (
        "bene_gesserit",
        "emperor",
        "fremen",
        "harkonnen",
        "guild",
        "atreides",
    )


def test_ah_ix_a_storm_on_a_dot_has_passed_it() -> None:
    """AH IX.A: a storm on a player dot has passed that player, who goes last."""
    ev = evaluate(position(storm=4))
    assert ev.first_player == "emperor"
    assert ev.storm_order[-1] == "bene_gesserit"


def test_storm_order_wraps_past_sector_17() -> None:
    ev = evaluate(position(storm=17))
    assert ev.storm_order[0] == "atreides"  # dot 1 comes right after sector 17 and 0


def test_storm_order_with_five_players_skips_the_empty_dot() -> None:
    ev = evaluate(position(factions=CLASSIC[:5], storm=14))
    assert ev.storm_order == (
        "atreides",
        "bene_gesserit",
        "emperor",
        "fremen",
        "harkonnen",
    )


def test_no_storm_yet_means_no_storm_order() -> None:
    ev = evaluate(position(storm=None))
    assert ev.storm_order is None and ev.first_player is None


def test_0_16_first_storm_is_placed_then_moves_from_turn_2() -> None:
    """LoLV 0.16 / AH VI.A: turn 1 places the storm; from turn 2 it moves (1.01.02)."""
    pos = started(storm=16)
    assert pos.storm == 16
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "storm_moved", "sectors": 3})  # WBC VI.11: not moved in turn 1
    pos = in_turn(2)
    pos = apply(pos, {"type": "storm_moved", "sectors": 5})
    assert pos.storm == 5  # from 0, counterclockwise


def test_1_01_02_storm_moves_counterclockwise_and_wraps() -> None:
    pos = in_turn(2)
    for _ in range(4):
        pos = apply(pos, {"type": "storm_moved", "sectors": 6})
        pos = next_turn(pos)
    assert pos.storm == 6  # 0 + 24 mod 18


def test_storm_moves_only_in_the_storm_phase() -> None:
    pos = to_phase(in_turn(2), "bidding")
    with pytest.raises(WrongPhase) as info:
        apply(pos, {"type": "storm_moved", "sectors": 2})
    assert info.value.rule == "AH VI.C"


def test_1_06_05_polar_sink_never_in_storm() -> None:
    """LoLV 1.06.05: the Polar Sink is never in storm."""
    assert not in_storm("polar_sink", None, 0, False)


def test_wbc_vi_7_shield_wall_shelters_from_destruction_until_family_atomics() -> None:
    """WBC VI.7, LoLV 1.01.03 / 3.01.07, AH VI.D: the storm destroys nothing in Arrakeen,
    Carthag or the Imperial Basin until Family Atomics; a sector of them under the storm is
    still in storm (AH questions C.3)."""
    assert in_storm("arrakeen", 9, 9, False) and in_storm("imperial_basin", 9, 9, False)
    assert not storm_destroys("imperial_basin", False) and storm_destroys("imperial_basin", True)
    assert not storm_destroys("arrakeen", False) and storm_destroys("carthag", True)
    assert storm_destroys("the_great_flat", False)
    assert in_storm("false_wall_east", 6, 6, False)  # rock: tokens survive, but moves stop
    assert not storm_destroys("false_wall_east", True)


def test_wbc_vi_9_storm_between_two_groups_separates_them() -> None:
    """WBC VI.9: groups in different sectors are separated if the storm is between them
    or covers one of them."""
    # Wind Pass spans 13-16.
    assert separated("wind_pass", 13, 16, 14, False)
    assert separated("wind_pass", 13, 16, 16, False)
    assert not separated("wind_pass", 13, 14, 16, False)
    assert not separated("wind_pass", 13, 16, 2, False)


def test_wbc_vi_10_storm_splits_a_territory_across_sector_0() -> None:
    """WBC VI.10: a territory split by the storm; Cielago West spans 17 and 0."""
    assert separated("cielago_west", 17, 0, 0, False)
    assert not separated("cielago_west", 17, 0, 5, False)


def test_1_07_01_01_one_sector_under_storm_is_not_separated() -> None:
    assert not separated("wind_pass", 14, 14, 14, False)
