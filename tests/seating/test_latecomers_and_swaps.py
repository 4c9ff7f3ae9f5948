"""Latecomers (WBC 2018 format: 15-minute grace period) and the head judge's manual swaps."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dune.engine.ids import CLASSIC_FACTIONS
from dune.seating import (
    DuplicatePlayer,
    KeepApart,
    PlannedSeat,
    PlannedTable,
    PlayerInTwoTables,
    SeatingUserError,
    UnknownPlayer,
    marker_sector,
    validate_tables,
)
from dune.seating_changes import LatecomerRefused, seat_latecomer, swap_players

from .helpers import past_round, plan, seated, shape


def test_wbc_latecomer_within_grace_joins_a_five_without_reseating() -> None:
    """WBC 2018: within 15 minutes a latecomer joins a table of fewer than six; nobody moves."""
    before = plan(11, seed=6)
    after = seat_latecomer(before, 50, late_by=timedelta(minutes=14))
    table = after.table_of(50)
    seat = table.seats[-1]
    assert (seat.player, seat.seat) == (50, 6)
    assert marker_sector(seat.seat, len(table.seats)) == 1  # the dot a 5-player table left free
    old = before.tables[table.number - 1]
    assert seat.faction == old.undrawn[0] and table.undrawn == ()
    assert sorted(s.faction for s in table.seats) == sorted(CLASSIC_FACTIONS)
    # Everybody else keeps table, seat and faction.
    assert [row for row in shape(after) if 50 not in [s[0] for s in row]] == [
        row for row in shape(before) if row != shape(before)[table.number - 1]
    ]
    assert table.seats[:-1] == old.seats
    assert "latecomer_seated" in after.flags
    assert 50 in after.request.players


def test_wbc_latecomer_after_grace_needs_override() -> None:
    """WBC 2018: after the grace period a latecomer is placed only at the head judge's discretion."""
    before = plan(11, seed=6)
    with pytest.raises(LatecomerRefused, match=r"WBC 2018 format \(15-minute grace period\).*20 minutes"):
        seat_latecomer(before, 50, late_by=timedelta(minutes=20))
    after = seat_latecomer(before, 50, late_by=timedelta(minutes=20), override=True)
    assert "latecomer_override" in after.flags


def test_latecomer_refused_when_every_table_is_full() -> None:
    with pytest.raises(LatecomerRefused, match="every table already has six players"):
        seat_latecomer(plan(12, seed=1), 50, late_by=timedelta(minutes=1))


def test_latecomer_already_seated_refused() -> None:
    with pytest.raises(DuplicatePlayer, match="already has a place"):
        seat_latecomer(plan(11, seed=1), 3, late_by=timedelta(minutes=1))


def test_latecomer_prefers_a_table_without_earlier_opponents() -> None:
    """Among open tables the latecomer goes where they meet fewest earlier opponents."""
    before = plan(10, seed=2)
    first, second = before.tables
    history = past_round(1, [[50, *first.players]])
    from dataclasses import replace

    before = replace(before, request=replace(before.request, history=history))
    assert seat_latecomer(before, 50, late_by=timedelta(0)).table_of(50).number == second.number


def test_lolv_latecomer_gets_the_undealt_cards() -> None:
    """LoLV 0.08: a latecomer at a 5-player table is dealt the classic and expansion cards left."""
    before = plan(5, seed=3, format="lolv")
    after = seat_latecomer(before, 9, late_by=timedelta(minutes=5))
    seat = after.table_of(9).seats[-1]
    assert set(seat.dealt) == set(before.tables[0].undrawn) and seat.faction is None
    assert after.tables[0].undrawn == ()


def test_manual_swap_exchanges_places_and_revalidates() -> None:
    """A swap gives each player the other's table, seat and faction, and recomputes the issues."""
    before = plan(12, seed=5, history=past_round(1, [[1, 2]]))
    assert before.repeats == 0 and before.table_of(1) != before.table_of(2)
    mate = next(s for s in before.table_of(1).seats if s.player != 1)
    after = swap_players(before, mate.player, 2)
    moved = next(s for s in after.table_of(2).seats if s.player == 2)
    assert after.table_of(2).number == before.table_of(1).number
    assert (moved.seat, moved.faction) == (mate.seat, mate.faction)
    assert after.repeats == 1
    assert [i.players for i in after.issues if i.code == "repeat_opponent_unavoidable"] == [(1, 2)]
    assert "manual_swap" in after.flags
    assert sorted(seated(after)) == sorted(seated(before))


def test_manual_swap_reports_keep_apart_violation() -> None:
    """Swapping a household together is allowed by hand but reported."""
    before = plan(12, seed=5, keep_apart=(KeepApart(frozenset({1, 2}), "household"),))
    assert before.table_of(1) != before.table_of(2) and not before.issues
    mate = next(p for p in before.table_of(1).players if p != 1)
    after = swap_players(before, mate, 2)
    assert [(i.code, i.players) for i in after.issues] == [("keep_apart_violated", (1, 2))]


def test_manual_swap_bad_input() -> None:
    before = plan(12, seed=5)
    with pytest.raises(UnknownPlayer, match="player #40 is not part of this round"):
        swap_players(before, 1, 40)
    with pytest.raises(SeatingUserError, match="cannot swap player #1 with themselves"):
        swap_players(before, 1, 1)
    mate = next(p for p in before.table_of(1).players if p != 1)
    with pytest.raises(SeatingUserError, match="already share table"):
        swap_players(before, 1, mate)


def test_player_in_two_tables_refused() -> None:
    """One seat per player per round: tables that seat someone twice are refused."""
    tables = (
        PlannedTable(
            number=1, seats=(PlannedSeat(1, 1, "fremen", ("fremen",)), PlannedSeat(2, 2, "guild", ("guild",)))
        ),
        PlannedTable(
            number=2,
            seats=(PlannedSeat(3, 1, "fremen", ("fremen",)), PlannedSeat(1, 2, "emperor", ("emperor",))),
        ),
    )
    with pytest.raises(PlayerInTwoTables, match="player #1 is seated at table 1 and table 2"):
        validate_tables(tables)


def test_faction_twice_at_a_table_refused() -> None:
    table = PlannedTable(
        number=3, seats=(PlannedSeat(1, 1, "fremen", ("fremen",)), PlannedSeat(2, 2, "fremen", ("fremen",)))
    )
    with pytest.raises(SeatingUserError, match="table 3 has a faction twice"):
        validate_tables([table])
