"""Seating order within a table (LoLV 0.07) and the player markers' sectors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from dune.seating import PLAYER_DOT_SECTORS, TUEKS_SIETCH_SECTOR, marker_sector

from .helpers import plan

BOARD = Path(__file__).resolve().parents[2] / "dune" / "engine" / "data" / "board.json"


def test_0_07_dots_and_tueks_sietch_match_the_board_data() -> None:
    """The six player dots and Tuek's Sietch's sector agree with the engine's board file."""
    board = json.loads(BOARD.read_text())
    assert tuple(board["player_dots"]) == PLAYER_DOT_SECTORS
    assert board["territories"]["tueks_sietch"]["sectors"] == [TUEKS_SIETCH_SECTOR]


def test_0_07_seat_1_sits_nearest_tueks_sietch_then_to_the_right() -> None:
    """LoLV 0.07: number 1 sits nearest Tuek's Sietch; each next number to the right (counterclockwise)."""
    assert [marker_sector(seat, 6) for seat in range(1, 7)] == [4, 7, 10, 13, 16, 1]


def test_0_07_five_player_table_leaves_the_sector_1_dot_empty() -> None:
    """At five players the seats keep the printed dots from sector 4; the dot in sector 1 stays free."""
    sectors = [marker_sector(seat, 5) for seat in range(1, 6)]
    assert sectors == [4, 7, 10, 13, 16]
    assert set(PLAYER_DOT_SECTORS) - set(sectors) == {1}
    # A latecomer's seat 6 lands on that free dot without moving anyone (see test_latecomers).
    assert marker_sector(6, 6) == 1


@pytest.mark.parametrize(("seat", "size"), [(0, 6), (7, 6), (6, 5), (1, 1), (1, 7)])
def test_marker_sector_refuses_impossible_seats(seat: int, size: int) -> None:
    with pytest.raises(ValueError, match="not between"):
        marker_sector(seat, size)


def test_0_07_seat_order_is_drawn_at_random() -> None:
    """LoLV 0.07 (random prediction cards): over many draws every player takes seat 1 sometimes."""
    firsts = Counter(plan(6, seed=seed).tables[0].seats[0].player for seed in range(300))
    assert set(firsts) == set(range(1, 7))
    assert min(firsts.values()) > 20
