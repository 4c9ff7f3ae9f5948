"""The seating planner seats the table sizes of the tournament's document (`tables.sizes`),
never fixed 5s and 6s: 4-6, just 5-6, just 6; as many tables of the largest size as
possible, every table at least the smallest (LoLV 4.01.01 and WBC 2018 heats for 5-6)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dune.formats import Format, format_from_document, get_format, preset_document
from dune.formats.document import FormatDocumentError, apply_changes, load_document
from dune.seating import SeatingRequest, UnsplittableCount, plan_seating, table_sizes
from dune.seating_changes import LatecomerRefused, seat_latecomer
from dune.seating_draw import regular_sizes, small_table_options


def _format(key: str, sizes: list[int]) -> Format:
    return format_from_document(apply_changes(preset_document(key), {"tables.sizes": sizes, "rules.tables.sizes": "club rules (table sizes)"}))


SIZE_RANGES = st.tuples(st.integers(2, 6), st.integers(2, 6)).map(lambda lh: list(range(min(lh), max(lh) + 1)))


@settings(max_examples=200, deadline=None)
@given(sizes=SIZE_RANGES, count=st.integers(1, 400))
def test_regular_sizes_fill_the_largest_tables_first_and_stay_within_the_sizes(sizes: list[int], count: int) -> None:
    largest, smallest = max(sizes), min(sizes)
    tables = -(-count // largest)
    answer = regular_sizes(count, sizes)
    if smallest * tables > count:
        assert answer is None
        return
    assert answer is not None
    assert sum(answer) == count and len(answer) == tables
    assert all(smallest <= n <= largest for n in answer)
    assert list(answer) == sorted(answer, reverse=True)
    # As many of the largest tables as the fewest tables allow: one more would leave another
    # table short of the smallest size.
    full = answer.count(largest)
    if full < tables and largest > smallest:
        assert count - largest * (full + 1) < smallest * (tables - full - 1)


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.sampled_from([[4, 5, 6], [5, 6], [6], [4, 5], [3, 4, 5, 6]]),
    count=st.integers(3, 120),
    seed=st.integers(0, 2**32),
    key=st.sampled_from(["wbc", "ah1979"]),
)
def test_a_changed_table_size_seats_everyone_once_at_tables_of_those_sizes(sizes: list[int], count: int, seed: int, key: str) -> None:
    rules = _format(key, sizes)
    request = SeatingRequest(players=tuple(range(1, count + 1)), format=rules, seed=seed)
    options = small_table_options(count, sizes)
    if regular_sizes(count, sizes) is None:
        with pytest.raises(UnsplittableCount) as refused:
            plan_seating(request)
        assert refused.value.options == options and refused.value.rule == "club rules (table sizes)"
        request = SeatingRequest(players=request.players, format=rules, seed=seed, small_tables=options[-1].key)
    else:
        assert options == ()
    plan = plan_seating(request)
    seated = sorted([s.player for t in plan.tables for s in t.seats] + list(plan.waiting))
    assert seated == list(range(1, count + 1))
    smallest = min(sizes)
    for table in plan.tables:
        assert len(table.seats) <= max(sizes)
        assert len(table.seats) >= smallest or any(o.waiting == 0 for o in options)
        factions = [s.faction for s in table.seats]
        assert len(set(factions)) == len(factions)


def test_four_to_six_allows_what_five_to_six_refuses() -> None:
    """Nine players: 5-6 needs the head judge's choice (a table of four, or players waiting);
    4-6 seats a 5 and a 4 on its own; just 6 seats no one at a table of five."""
    with pytest.raises(UnsplittableCount) as five_six:
        table_sizes(9, format="wbc")
    assert "tables of 5 or 6" in str(five_six.value)
    assert table_sizes(9, format=_format("wbc", [4, 5, 6])) == ((5, 4), 0)
    assert table_sizes(16, format=_format("wbc", [4, 5, 6])) == ((6, 6, 4), 0)
    assert table_sizes(45, format="wbc") == ((6, 6, 6, 6, 6, 5, 5, 5), 0)
    only_six = _format("wbc", [6])
    assert table_sizes(18, format=only_six) == ((6, 6, 6), 0)
    with pytest.raises(UnsplittableCount) as sixes:
        table_sizes(17, format=only_six)
    assert "tables of 6" in str(sixes.value)
    assert [o.key for o in sixes.value.options] == ["fives:1", "wait:5"]
    assert table_sizes(17, format=only_six, small_tables="fives:1") == ((6, 6, 5), 0)


def test_a_latecomer_joins_only_a_table_short_of_the_largest_size() -> None:
    five_only = _format("wbc", [4, 5])
    plan = plan_seating(SeatingRequest(players=tuple(range(1, 11)), format=five_only, seed=3))
    assert [len(t.seats) for t in plan.tables] == [5, 5]
    with pytest.raises(LatecomerRefused) as full:
        seat_latecomer(plan, 11, late_by=timedelta(minutes=5))
    assert "every table already has five players" in str(full.value)
    wbc = plan_seating(SeatingRequest(players=tuple(range(1, 11)), format=get_format("wbc"), seed=3))
    assert len(seat_latecomer(wbc, 11, late_by=timedelta(minutes=5)).tables[0].seats) == 6


def test_table_sizes_must_be_consecutive_numbers_of_players_a_board_seats() -> None:
    for bad, why in (([4, 6], "consecutive"), ([5, 7], "2 to 6"), ([], "list"), (["5"], "whole numbers"), ([5, 5, 6], "each once")):
        with pytest.raises(FormatDocumentError) as refused:
            load_document(apply_changes(preset_document("wbc"), {"tables.sizes": bad}))
        assert list(refused.value.problems) == ["tables.sizes"] and why in refused.value.problems["tables.sizes"], bad
    assert load_document(apply_changes(preset_document("wbc"), {"tables.sizes": [6, 5, 4]}))["tables"]["sizes"] == [4, 5, 6]
    # A draw of factions needs one per seat of the largest table: the WBC pool of six is enough
    # for 4-6 but the document says so when a pool is too small.
    with pytest.raises(FormatDocumentError) as pool:
        load_document(apply_changes(preset_document("wbc"), {"tables.sizes": [4, 5], "factions.pool": ["atreides", "emperor", "fremen", "guild"]}))
    assert "a table of 5 draws 5 factions" in pool.value.problems["factions.pool"]
