"""Small builders for Django-layer tests: a tournament with players and a seated round.

They write rows directly (no planner), so a test of one layer does not depend on another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dune.engine.ids import CLASSIC_FACTIONS


def make_tournament(*, format: str = "wbc", name: str | None = None, head_judge: Any = None) -> Any:
    from tournament.models import Tournament

    tournament = Tournament.objects.create(name=name or f"Test {format.upper()} open", format=format)
    if head_judge is not None:
        tournament.head_judges.add(head_judge)
    return tournament


def make_players(tournament: Any, count: int, *, prefix: str = "Player") -> list[Any]:
    from tournament.models import Player

    # One email is one person, who registers once: each prefix has addresses of its own.
    box = "p" if prefix == "Player" else "".join(c for c in prefix.lower() if c.isalnum()) + "."
    return list(
        Player.objects.bulk_create(
            Player(tournament=tournament, name=f"{prefix} {i:03d}", email=f"{box}{i}@example.org")
            for i in range(1, count + 1)
        )
    )


def make_round(tournament: Any, *, number: int = 1, kind: str = "heat", state: str = "published") -> Any:
    from tournament.models import Round

    return Round.objects.create(tournament=tournament, number=number, kind=kind, state=state, seed=1)


def seat_table(
    round_: Any,
    players: Sequence[Any],
    *,
    number: int = 1,
    factions: Sequence[str] | None = None,
    judge: Any = None,
) -> Any:
    """One table with the players in seat order 1..n and the given factions (default: classic order)."""
    from tournament.models import Seat, Table

    chosen = list(factions) if factions is not None else list(CLASSIC_FACTIONS[: len(players)])
    table = Table.objects.create(round=round_, number=number, judge=judge)
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, player=player, seat=i, faction=faction)
        for i, (player, faction) in enumerate(zip(players, chosen, strict=True), start=1)
    )
    return table


def make_seated_table(*, format: str = "wbc", size: int = 6, judge: Any = None, factions: Sequence[str] | None = None) -> Any:
    """A tournament, one published heat and one table of `size` players; returns the table."""
    tournament = make_tournament(format=format)
    players = make_players(tournament, size)
    round_ = make_round(tournament)
    return seat_table(round_, players, factions=factions, judge=judge)
