"""Builders for people and ratings tests: tournaments whose players register through the
real services (so people are linked the way production links them), and filed reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring import services as scoring
from tests.factories import make_round, seat_table
from tournament import services
from tournament.models import Player, Tournament


def register(tournament: Tournament, rows: Sequence[tuple[str, str]]) -> list[Player]:
    """Register (name, email) rows one by one through the registration service."""
    return [services.add_player(tournament, name=name, email=email) for name, email in rows]


def report(
    players: Sequence[Player], winners: dict[int, str], *, ended_by: str = "victory"
) -> dict[str, Any]:
    """A report where the seats listed in `winners` (index -> result kind) won; the rest lost."""
    return {
        "turns": 7,
        "ended_by": ended_by,
        "results": [{"player": p.pk, "result": winners.get(i, "loss")} for i, p in enumerate(players)],
    }


def play(
    tournament: Tournament,
    number: int,
    tables: Sequence[tuple[Sequence[Player], dict[int, str]]],
    *,
    user: Any,
    kind: str = "heat",
) -> list[Any]:
    """A published round with one table per entry, each report filed through scoring."""
    round_ = make_round(tournament, number=number, kind=kind)
    filed = []
    for i, (players, winners) in enumerate(tables, start=1):
        table = seat_table(round_, list(players), number=i)
        filed.append(scoring.file_report(table, report(players, winners), user=user))
    return filed
