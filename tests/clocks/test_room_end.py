"""The room's end of a round (`dune.clock_limits.room_end`): clocks set going by one round-wide
start, a few hundred milliseconds apart, end together for the room; a table extended or started
late ends at another time and is named apart; the room's end is the one most tables share."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from dune.clock_limits import ROOM_END_TOLERANCE, room_end

END = datetime(2026, 7, 29, 18, 0, tzinfo=UTC)
MS = timedelta(milliseconds=1)


def test_clocks_started_by_one_start_all_end_together() -> None:
    ends = {table: END + table * 80 * MS for table in range(1, 9)}  # started 80 ms apart
    room = room_end(ends)
    assert room is not None
    assert room.otherwise == ()
    assert sorted(room.together) == list(range(1, 9))
    assert room.ends_at == max(ends.values())  # when the countdown reaches 0 every one is up


def test_an_extended_table_ends_otherwise_and_the_room_keeps_its_own_end() -> None:
    ends = {table: END + table * 80 * MS for table in range(1, 9)}
    ends[3] += timedelta(minutes=15)
    room = room_end(ends)
    assert room is not None
    assert room.ends_at < END + timedelta(seconds=1)
    assert room.otherwise == ((3, ends[3]),)


def test_on_a_tie_the_earlier_end_is_the_rooms() -> None:
    room = room_end({1: END, 2: END + timedelta(minutes=10)})
    assert room is not None and room.ends_at == END and room.otherwise == ((2, END + timedelta(minutes=10)),)


def test_nothing_to_end() -> None:
    assert room_end({}) is None


@given(st.dictionaries(st.integers(1, 40), st.integers(0, 4 * 3600 * 1000), min_size=1))
def test_every_table_is_either_with_the_room_or_named_apart(offsets: dict[int, int]) -> None:
    ends = {table: END + ms * MS for table, ms in offsets.items()}
    room = room_end(ends)
    assert room is not None
    apart = dict(room.otherwise)
    assert set(room.together) | set(apart) == set(ends) and not set(room.together) & set(apart)
    together = [ends[t] for t in room.together]
    assert max(together) - min(together) <= ROOM_END_TOLERANCE and room.ends_at == max(together)
    assert all(apart[t] == ends[t] for t in apart)
