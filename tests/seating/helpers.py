"""Small builders shared by the seating tests (pure: no database)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dune.seating import PastSeat, PastTable, SeatingPlan, SeatingRequest, plan_seating


def request(count: int, *, format: str = "wbc", seed: int = 1, **options: object) -> SeatingRequest:
    """A request seating players 1..count."""
    return SeatingRequest(players=tuple(range(1, count + 1)), format=format, seed=seed, **options)  # type: ignore[arg-type]


def past_round(
    number: int, tables: Iterable[Sequence[int]], factions: dict[int, str] | None = None
) -> tuple[PastTable, ...]:
    """An earlier round as PastTables, optionally with the faction each player played."""
    factions = factions or {}
    return tuple(
        PastTable(round=number, seats=tuple(PastSeat(player=p, faction=factions.get(p)) for p in table))
        for table in tables
    )


def as_history(plan: SeatingPlan, number: int) -> tuple[PastTable, ...]:
    """A planned round turned into history, with the factions the plan gave (WBC)."""
    return tuple(
        PastTable(round=number, seats=tuple(PastSeat(player=s.player, faction=s.faction) for s in t.seats))
        for t in plan.tables
    )


def seated(plan: SeatingPlan) -> list[int]:
    return [s.player for t in plan.tables for s in t.seats]


def shape(plan: SeatingPlan) -> list[list[tuple[int, int, str | None, tuple[str, ...]]]]:
    """Everything a player sees of a plan, for comparing two plans."""
    return [[(s.player, s.seat, s.faction, s.dealt) for s in t.seats] for t in plan.tables]


def plan(count: int, **kwargs: object) -> SeatingPlan:
    return plan_seating(request(count, **kwargs))  # type: ignore[arg-type]
