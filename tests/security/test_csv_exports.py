"""Exports open safely in a spreadsheet: a cell that would start a formula is written as text."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from dune.csv_export import csv_safe
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

DANGEROUS = ["=HYPERLINK(\"http://x\")", "+1+cmd", "-2+3", "@SUM(A1)", "\tTab", "\rReturn"]


@pytest.mark.parametrize("value", DANGEROUS)
def test_a_cell_that_starts_a_formula_is_quoted_as_text(value: str) -> None:
    assert csv_safe(value) == "'" + value


@pytest.mark.parametrize("value", ["Duncan", "", "-2.5", "12", "1.071", "a=b"])
def test_ordinary_cells_and_numbers_are_kept(value: str) -> None:
    assert csv_safe(value) == value


def test_non_text_values_are_kept() -> None:
    assert csv_safe(-3) == -3 and csv_safe(None) is None and csv_safe(False) is False


@pytest.mark.django_db
@pytest.mark.parametrize("export", ["standings", "reports"])
def test_every_export_neutralises_player_names(judge_client: Any, client: Any, head_judge: Any, export: str) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    for player, name in zip(players, DANGEROUS, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    table = seat_table(make_round(tournament, number=1), players)
    filed = judge_client.post(f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json")
    assert filed.status_code == 201, filed.content
    response = client.get(f"/tournaments/{tournament.pk}/{export}.csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert sorted(row["player"] for row in rows) == sorted("'" + name for name in DANGEROUS)


@pytest.mark.django_db
def test_the_event_report_export_neutralises_player_names(judge_client: Any, client: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    for player, name in zip(players, DANGEROUS, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    table = seat_table(make_round(tournament, number=1), players)
    filed = judge_client.post(f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json")
    assert filed.status_code == 201, filed.content
    response = client.get(f"/tournaments/{tournament.pk}/event-report.csv")
    assert response.status_code == 200
    cells = [cell for row in csv.reader(io.StringIO(response.content.decode())) for cell in row]
    assert any(cell.startswith("'=HYPERLINK") for cell in cells)
    assert not [c for c in cells if c.startswith(("=", "+", "@", "\t", "\r")) or (c.startswith("-") and not c[1:2].isdigit())]
