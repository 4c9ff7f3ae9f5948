"""One rule of a time-limit ending for the report's filing and the table page's adjudication:
a game ends by the time limit once its clock has run out (WBC heat duration; AH V)."""

from __future__ import annotations

from typing import Any

import pytest

from clocks import services as clocks
from clocks.models import TableClock
from dune.engine.result_check import TIME_RULE, TIME_UP_FIRST
from scoring.models import GameReport
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(head_judge: Any, wbc_heat: Any) -> Any:
    table = wbc_heat[3][0]
    clocks.start(table, user=head_judge)
    return table


def test_wbc_heat_duration_time_limit_ending_waits_for_the_time_up_api(judge_client: Any, running: Any) -> None:
    report = report_for(running, {2: "adjudicated"}, ended_by="time_limit")
    answer = judge_client.post(f"/api/tables/{running.pk}/report/", report, format="json")
    assert answer.status_code == 400, answer.json()
    body = answer.json()
    assert body["field"] == "ended_by" and TIME_UP_FIRST in body["detail"]
    assert body["rule"] == running.round.tournament.rules.ruleset.cite[TIME_RULE]
    assert not GameReport.objects.filter(table=running).exists()

    TableClock.objects.filter(table=running).update(state="time_up")
    answer = judge_client.post(f"/api/tables/{running.pk}/report/", report, format="json")
    assert answer.status_code == 201, answer.json()


def test_wbc_heat_duration_time_limit_ending_waits_for_the_time_up_page(
    client: Any, head_judge: Any, running: Any
) -> None:
    client.force_login(head_judge)
    form = {"turns": "7", "ended_by": "time_limit", "confirm": "yes", "idempotency_key": "t-1"}
    for i, seat in enumerate(running.seats.order_by("seat")):
        form[f"p{seat.player_id}_result"] = "adjudicated" if i == 2 else "loss"
    answer = client.post(f"/tables/{running.pk}/report/", form)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'id="err-ended_by"' in html and TIME_UP_FIRST in html
    assert not GameReport.objects.filter(table=running).exists()


def test_a_table_without_a_clock_may_end_by_the_time_limit(judge_client: Any, wbc_heat: Any) -> None:
    table = wbc_heat[3][1]
    report = report_for(table, {2: "adjudicated"}, ended_by="time_limit")
    assert judge_client.post(f"/api/tables/{table.pk}/report/", report, format="json").status_code == 201
