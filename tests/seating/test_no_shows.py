"""A player who does not come to a round is taken off their table before its game begins
(`dune.seating_changes.take_off_table`): the others keep their tables and factions, the seats
close up 1..n in seating order (DESIGN: a seat number runs 1..n), and the faction or cards they
held go back among the table's undrawn ones, for a latecomer to draw."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dune.engine.ids import CLASSIC_FACTIONS
from dune.seating import UnknownPlayer, validate_tables
from dune.seating_changes import seat_latecomer, take_off_table

from .helpers import plan


def test_wbc_a_no_show_leaves_a_short_table_whose_seats_close_up() -> None:
    before = plan(10, seed=3)  # two tables of five
    table = before.tables[1]
    gone = table.seats[1]
    after = take_off_table(before, gone.player)
    short = after.tables[1]
    assert [s.seat for s in short.seats] == [1, 2, 3, 4]
    assert [s.player for s in short.seats] == [s.player for s in table.seats if s.player != gone.player]
    assert [s.faction for s in short.seats] == [s.faction for s in table.seats if s.player != gone.player]
    assert gone.faction in short.undrawn and len(short.undrawn) == 2
    assert after.tables[0] == before.tables[0]
    assert gone.player not in after.request.players
    validate_tables(after.tables)
    assert "no_show_taken_off" in after.flags


def test_wbc_a_latecomer_goes_to_the_short_table_first() -> None:
    """WBC 2018 format: latecomers are placed at tables of fewer than six; the shortest first."""
    before = plan(11, seed=3)  # a six and a five
    six = next(t for t in before.tables if len(t.seats) == 6)
    after = take_off_table(before, six.seats[0].player)
    seated = seat_latecomer(after, 99, late_by=timedelta(minutes=5))
    assert seated.table_of(99).number in {t.number for t in after.tables if len(t.seats) == 5}
    assert sorted(s.faction for s in seated.table_of(99).seats) == sorted(CLASSIC_FACTIONS)


def test_a_waiting_player_is_taken_off_the_waiting_list() -> None:
    before = plan(13, seed=1, small_tables="wait:1")
    [waiting] = before.waiting
    after = take_off_table(before, waiting)
    assert after.waiting == () and after.tables == before.tables


def test_a_player_not_in_the_round_is_named() -> None:
    with pytest.raises(UnknownPlayer, match="77"):
        take_off_table(plan(10, seed=3), 77)
