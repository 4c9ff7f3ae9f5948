"""Fixtures for scoring's database tests: a clean cache and report builders."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table


@pytest.fixture(autouse=True)
def clean_cache(db: Any) -> Iterator[None]:
    # Test databases restart their id sequences; cached standings of an earlier run must not leak.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def report_for(
    table: Any, winners: dict[int, str], *, ended_by: str = "victory", **stats: Any
) -> dict[str, Any]:
    """A report for `table` where the seats listed in `winners` (seat index -> kind) won."""
    seats = list(table.seats.order_by("seat"))
    rows = []
    for i, seat in enumerate(seats):
        row = {"player": seat.player_id, "result": winners.get(i, "loss")}
        row.update(stats.get(str(i), {}))
        rows.append(row)
    return {"turns": 7, "ended_by": ended_by, "results": rows}


@pytest.fixture
def wbc_heat(head_judge: Any) -> Any:
    """A WBC tournament of 12 players, heat 1 with two 6-player tables."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 12)
    heat = make_round(tournament, number=1)
    tables = [seat_table(heat, players[:6], number=1), seat_table(heat, players[6:], number=2)]
    return tournament, players, heat, tables
