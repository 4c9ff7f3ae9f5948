"""Table sizes: LoLV 4.01.01 and the WBC 2018 heat grouping rule."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dune.seating import NoPlayers, UnsplittableCount, plan_seating, table_sizes
from dune.seating_draw import regular_sizes, small_table_options

from .helpers import request, seated

UNSPLITTABLE = (1, 2, 3, 4, 7, 8, 9, 13, 14, 19)


def test_4_01_01_wbc_example_45_players_five_sixes_three_fives() -> None:
    """WBC 2018: 45 players are grouped into five 6-player games and three 5-player games."""
    assert table_sizes(45) == ((6, 6, 6, 6, 6, 5, 5, 5), 0)


@given(st.integers(min_value=5, max_value=500).filter(lambda n: n not in UNSPLITTABLE))
def test_4_01_01_sizes_optimal_and_sum_to_count(count: int) -> None:
    """LoLV 4.01.01: tables of five or six, the most six-player games possible."""
    sizes, waiting = table_sizes(count, format="lolv")
    assert waiting == 0
    assert sum(sizes) == count
    assert set(sizes) <= {5, 6}
    # The most sixes means the fewest tables: ceil(count / 6), and no split has fewer.
    assert len(sizes) == math.ceil(count / 6)
    assert list(sizes) == sorted(sizes, reverse=True)


def test_4_01_01_exactly_the_listed_counts_do_not_split() -> None:
    """Only 1-4, 7-9, 13, 14 and 19 players cannot be seated at tables of five or six."""
    assert tuple(n for n in range(1, 501) if regular_sizes(n) is None) == UNSPLITTABLE


@pytest.mark.parametrize("count", UNSPLITTABLE)
def test_4_01_01_unsplittable_count_offers_options_never_silent(count: int) -> None:
    """A count that does not split raises with the options the head judge chooses from."""
    with pytest.raises(UnsplittableCount) as caught:
        plan_seating(request(count))
    error = caught.value
    assert error.count == count
    assert error.options == small_table_options(count)
    assert any(o.key.startswith("wait:") for o in error.options)
    assert "4.01.01" not in str(error)  # WBC request: the WBC rule is cited
    assert "WBC 2018" in str(error) and str(count) in str(error)


@pytest.mark.parametrize("count", UNSPLITTABLE)
def test_4_01_01_every_option_key_is_accepted_back(count: int) -> None:
    """Each option's key, passed back as small_tables, seats everyone or lets the stated number wait."""
    for option in small_table_options(count):
        assert sum(option.sizes) + option.waiting == count
        assert all(size >= 4 for size in option.sizes)
        if not option.sizes:
            continue
        plan = plan_seating(request(count, small_tables=option.key))
        assert [len(t.seats) for t in plan.tables] == list(option.sizes)
        assert len(plan.waiting) == option.waiting
        assert sorted(seated(plan) + list(plan.waiting)) == list(range(1, count + 1))


def test_4_01_01_options_for_the_listed_counts() -> None:
    """The offered choices: 4-player tables that complete a split, or the fewest players waiting."""
    keys = {n: [o.key for o in small_table_options(n)] for n in UNSPLITTABLE}
    assert keys == {
        1: ["wait:1"],
        2: ["wait:2"],
        3: ["wait:3"],
        4: ["fours:1", "wait:4"],
        7: ["wait:1"],
        8: ["fours:2", "wait:2"],
        9: ["fours:1", "wait:3"],
        13: ["fours:2", "wait:1"],
        14: ["fours:1", "fours:2", "wait:2"],
        19: ["fours:1", "fours:2", "wait:1"],
    }
    nine = small_table_options(9)[0]
    assert nine.sizes == (5, 4) and nine.label == "1 table of 4 players"


def test_small_tables_option_foreign_to_the_count_is_an_unknown_option() -> None:
    """A small_tables key that is not on offer for this count is refused (ValueError), naming the options."""
    with pytest.raises(ValueError, match=r"unknown small_tables option 'fours:1' for 7 players"):
        plan_seating(request(7, small_tables="fours:1"))
    with pytest.raises(ValueError, match="options are"):
        plan_seating(request(12, small_tables="wait:1"))


def test_zero_players_refused() -> None:
    with pytest.raises(NoPlayers):
        table_sizes(0)


def test_4_01_01_every_count_5_to_500_seats_everyone_once_at_optimal_tables() -> None:
    """Exhaustively, not sampled: each count 5..500 is seated once each, at the optimal table sizes."""
    for count in range(5, 501):
        if count in UNSPLITTABLE:
            continue
        result = plan_seating(request(count, seed=count))
        sizes = [len(t.seats) for t in result.tables]
        assert sizes == list(table_sizes(count)[0]), count
        assert sorted(seated(result)) == list(range(1, count + 1)), count
