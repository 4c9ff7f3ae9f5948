"""The one adapter between the database and the pure scoring systems."""

from __future__ import annotations

from typing import Any

from dune.engine.position import Outcome
from dune.points import TableResult, table_result_from_data
from gameplay import engine_adapter
from gameplay.models import Game
from scoring.models import GameReport
from tournament.models import Round, Table, Tournament


def table_seats(table: Table) -> dict[int, str]:
    """Seated player id -> faction id ('' while undrawn), as `validate_report` takes them."""
    return dict(table.seats.values_list("player_id", "faction"))


def player_names(table: Table) -> dict[int, str]:
    """Seated player id -> the player's name, for the messages a report refusal shows."""
    return dict(table.seats.values_list("player_id", "player__name"))


def engine_outcome(table: Table) -> Outcome | None:
    """How the engine decided the table's game, when it followed the game to its end; None
    for a game played on paper (no record, or a record without an ending). One query."""
    stored = Game.objects.filter(table=table).values_list("evaluation", flat=True).first()
    answer = engine_adapter.answer_of(stored)
    return answer.outcome if answer is not None else None


def heat_results(tournament: Tournament) -> tuple[list[TableResult], Any]:
    """The filed (locked) heat reports as `TableResult`s, in one query, and a seed for lots
    (the latest heat's stored seed). Reopened reports do not count until filed again."""
    rows = (
        GameReport.objects.filter(
            tournament=tournament, state=GameReport.State.FILED, table__round__kind=Round.Kind.HEAT
        )
        .order_by("table__round__number", "table__number")
        .values_list("data", "table_id", "table__round__number", "table__round__seed")
    )
    results: list[TableResult] = []
    seed: Any = None
    for data, table_id, round_number, round_seed in rows:
        results.append(table_result_from_data(data, table=table_id, round_number=round_number))
        seed = round_seed
    return results, seed


def final_result(tournament: Tournament) -> TableResult | None:
    """The filed report of the tournament's final, if any (one query)."""
    row = (
        GameReport.objects.filter(
            tournament=tournament, state=GameReport.State.FILED, table__round__kind=Round.Kind.FINAL
        )
        .values_list("data", "table_id", "table__round__number")
        .first()
    )
    if row is None:
        return None
    data, table_id, round_number = row
    return table_result_from_data(data, table=table_id, round_number=round_number, is_final=True)


def table_result(report: GameReport) -> TableResult:
    """One stored report as a `TableResult` (for finals placings and the report page)."""
    round_ = report.table.round
    return table_result_from_data(
        report.data,
        table=report.table_id,
        round_number=round_.number,
        is_final=round_.kind == Round.Kind.FINAL,
    )
