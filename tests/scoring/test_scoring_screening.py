"""Reports of one round that both name a player are left out together; the rest count."""

from __future__ import annotations

from dune.engine.ids import ResultKind
from dune.points.base import ReportRow, TableResult
from dune.points.screening import SeatingConflict, screen_results


def _table(table: int, players: range, round_number: int = 1) -> TableResult:
    rows = tuple(ReportRow(player=p, result=ResultKind.LOSS) for p in players)
    return TableResult(rows=rows, turns=5, table=table, round_number=round_number)


def test_4_01_01_a_player_in_two_reports_of_one_round_keeps_both_out() -> None:
    """LoLV 4.01.01: one table per player per round; which report is right is the head judge's call."""
    one, two, three = _table(1, range(1, 6)), _table(2, range(5, 10)), _table(3, range(10, 15))
    kept, conflicts = screen_results([one, two, three])
    assert kept == [three]
    assert conflicts == [SeatingConflict(player=5, round_number=1, tables=(1, 2))]


def test_the_same_player_in_different_rounds_is_fine() -> None:
    results = [_table(1, range(1, 6), round_number=1), _table(2, range(1, 6), round_number=2)]
    assert screen_results(results) == (results, [])
