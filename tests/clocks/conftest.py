"""Builders for clock tests: seated tables of either format, and clocks set to a deadline."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table


def seated(
    *, format: str = "wbc", size: int = 6, kind: str = "heat", tables: int = 1, judge: Any = None
) -> Any:
    """A round of `tables` tables of `size` players; returns the round."""
    tournament = make_tournament(format=format)
    players = make_players(tournament, size * tables)
    round_ = make_round(tournament, kind=kind)
    for n in range(tables):
        seat_table(round_, players[n * size : (n + 1) * size], number=n + 1, judge=judge)
    return round_


def started_clock_due_in(table: Any, *, seconds: float, stage: str = "last_30") -> Any:
    """Start the table's clock, then move its start back so that `stage` is `seconds` away
    by the database's clock (deadlines recomputed the normal way; the state stays `running`)."""
    from clocks import services
    from clocks.models import TableClock
    clock = services.start(table, user=None)
    limit = clock.limit
    offset = next(s.at for s in limit.stages(players=clock.players) if s.state == stage)
    started = services.db_now() + timedelta(seconds=seconds) - offset
    TableClock.objects.filter(pk=clock.pk).update(started_at=started, armed_for=None)
    clock.refresh_from_db()
    services._reschedule(clock)  # noqa: SLF001 - the same arithmetic the services use
    clock.save()  # still `running`: moving it is the job of the transitions under test
    return clock


@pytest.fixture
def wbc_round(db: Any) -> Any:
    return seated(format="wbc", size=6, tables=3)


@pytest.fixture
def wbc_table(wbc_round: Any) -> Any:
    return wbc_round.tables.order_by("number").first()


@pytest.fixture
def record_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """Replace the game-log call with a recorder (the game log has its own tests)."""
    from clocks import game_log, transitions

    calls: list[tuple[Any, dict[str, Any]]] = []

    def fake(table: Any, event: dict[str, Any], *, reason: str, user: Any = None) -> game_log.LogResult:
        calls.append((table.pk, dict(event)))
        return game_log.LogResult(True, seq=len(calls))

    monkeypatch.setattr(transitions, "record_in_game", fake)
    return calls


def at(moment: datetime | None) -> datetime:
    assert moment is not None
    return moment
