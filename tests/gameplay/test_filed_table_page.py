"""A filed report's table page tells the truth: the game is over, the turns are the report's,
and no control of a game still being played (setup, storm, the ways to end the game) is
offered under a filed report (nothing could be recorded: the report closes the record)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scoring import services as scoring
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db


def test_a_filed_report_closes_the_tables_controls(client: Client, table_judge: Any, table: Any) -> None:
    client.force_login(table_judge)
    url = f"/tables/{table.pk}/"
    before = client.get(url).content.decode()
    assert "Place storm" in before  # the record has begun at setup
    report = report_for(table, {0: "solo_stronghold"})
    report["turns"] = 5
    scoring.file_report(table, report, user=table_judge)
    html = client.get(url).content.decode()
    for control in ("Place storm", 'id="ending"', "Record prediction", "Advance phase", 'data-action="setup"'):
        assert control not in html, control
    assert 'data-phase="setup"' not in html and "Setup" not in html.split('class="glance"')[1].split("</dl>")[0]
    assert "The game is over; the report is filed" in html
    glance = html.split('class="glance"')[1].split("</dl>")[0]
    assert ">5<" in glance and "filed report" in glance
