"""Database fixtures of the event report's tests: a WBC event filed through scoring's services."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table

NO_GUILD = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen")
START = datetime(2026, 7, 28, 9, 0, tzinfo=UTC)


@pytest.fixture
def clean_cache(db: Any) -> Iterator[None]:
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def report(
    table: Any, won: dict[int, str], *, turns: int = 7, ended_by: str = "victory", **extra: Any
) -> dict[str, Any]:
    """A report where the seats numbered in `won` (1..n) have those kinds; the rest lost."""
    rows = [{"player": s.player_id, "result": won.get(s.seat, "loss")} for s in table.seats.order_by("seat")]
    return {"turns": turns, "ended_by": ended_by, "results": rows, **extra}


def timed(table: Any, *, hours: float, pause_minutes: int = 0) -> Any:
    """A finished clock that ran `hours` of play, with one pause an hour in."""
    from clocks.models import ClockPause, TableClock

    end = START + timedelta(hours=hours, minutes=pause_minutes)
    clock = TableClock.objects.create(
        table=table,
        limit_key="wbc_heat",
        players=table.seats.count(),
        state="finished",
        started_at=START,
        finished_at=end,
    )
    if pause_minutes:
        at = START + timedelta(hours=1)
        ClockPause.objects.create(clock=clock, started_at=at, ended_at=at + timedelta(minutes=pause_minutes))
    return clock


@pytest.fixture
def event(head_judge: Any, clean_cache: None) -> dict[str, Any]:
    """Heat 1: a solo win at six (3 h of play, a 30-minute break) and an adjudication at five
    (no clock record); heat 2 seated with one table; the final planned."""
    from scoring import services as scoring

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 11)
    heat1 = make_round(tournament, number=1)
    six = seat_table(heat1, players[:6], number=1)
    five = seat_table(heat1, players[6:], number=2, factions=NO_GUILD)
    heat2 = make_round(tournament, number=2)
    later = seat_table(heat2, players[:6], number=1)
    final = make_round(tournament, number=3, kind="final", state="planned")
    scoring.file_report(six, report(six, {5: "solo_stronghold"}, turns=6), user=head_judge)
    scoring.file_report(
        five, report(five, {4: "adjudicated"}, turns=8, ended_by="time_limit"), user=head_judge
    )
    timed(six, hours=3, pause_minutes=30)
    return {
        "tournament": tournament,
        "players": players,
        "heat1": heat1,
        "heat2": heat2,
        "final": final,
        "six": six,
        "five": five,
        "later": later,
        "judge": head_judge,
    }
