"""Who may stop a table's clock for good. A table judge's finish of an undecided game once ended
the clock: the head judge's start, resume and extend answered 409 and `time_up` was never
written. Now a table judge may finish only a game that has ended (the engine has an outcome,
or the report is filed); a head judge may stop it earlier, with a reason."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from clocks.models import ClockHistory, TableClock
from dune import clock_limits as limits
from gameplay.services import append_event, game_for
from tests.factories import make_seated_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db


def url(table: Any, action: str) -> str:
    return f"/api/tables/{table.pk}/clock/{action}/"


@pytest.fixture
def table_judge(make_user: Any) -> Any:
    return make_user("tablejudge")


@pytest.fixture
def table(table_judge: Any, head_judge: Any) -> Any:
    table = make_seated_table(format="wbc", judge=table_judge)
    table.round.tournament.table_judges.add(table_judge)
    table.round.tournament.head_judges.add(head_judge)
    return table


@pytest.fixture
def judge_at_table(table_judge: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(table_judge)
    return client


def test_a_table_judge_cannot_finish_an_undecided_game_s_clock(
    judge_client: Any, judge_at_table: APIClient, table: Any
) -> None:
    assert judge_client.post(url(table, "start")).status_code == 200
    response = judge_at_table.post(url(table, "finish"), {"reason": "we are done"}, format="json")
    assert response.status_code == 409, response.content
    assert "only a head judge" in response.json()["detail"]
    clock = TableClock.objects.get(table=table)
    assert clock.state == limits.RUNNING and clock.finished_at is None
    # The head judge still runs the clock.
    assert judge_client.post(url(table, "pause"), {"reason": "break"}, format="json").status_code == 200
    assert judge_client.post(url(table, "resume")).status_code == 200
    extended = judge_client.post(url(table, "extend"), {"minutes": 5, "reason": "late start"}, format="json")
    assert extended.status_code == 200


def test_a_head_judge_finishes_an_undecided_game_s_clock_only_with_a_reason(
    judge_client: Any, table: Any
) -> None:
    judge_client.post(url(table, "start"))
    refused = judge_client.post(url(table, "finish"), {}, format="json")
    assert refused.status_code == 400 and "reason" in refused.content.decode()
    assert TableClock.objects.get(table=table).state == limits.RUNNING
    done = judge_client.post(url(table, "finish"), {"reason": "the table left the hall"}, format="json")
    assert done.status_code == 200
    history = ClockHistory.objects.filter(clock__table=table, kind=ClockHistory.Kind.FINISHED).get()
    assert history.reason == "the table left the hall"


def test_a_table_judge_finishes_the_clock_once_the_engine_has_an_outcome(
    judge_client: Any, judge_at_table: APIClient, table: Any, table_judge: Any
) -> None:
    judge_client.post(url(table, "start"))
    append_event(
        table,
        {"type": "concession", "to_factions": ["harkonnen"]},
        expected_seq=game_for(table).seq,
        user=table_judge,
    )
    assert judge_at_table.post(url(table, "finish")).status_code == 200
    assert TableClock.objects.get(table=table).state == limits.FINISHED


def test_a_table_judge_finishes_the_clock_once_the_report_is_filed(
    judge_client: Any, judge_at_table: APIClient, table: Any
) -> None:
    judge_client.post(url(table, "start"))
    filed = judge_at_table.post(
        f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
    )
    assert filed.status_code == 201, filed.content
    # Filing the report stopped the clock already (its game is over); nothing is left to finish.
    assert TableClock.objects.get(table=table).state == limits.FINISHED
    assert judge_at_table.post(url(table, "finish")).status_code == 409


def test_no_record_is_voided_or_added_after_the_report_is_filed(
    judge_client: Any, judge_at_table: APIClient, table: Any, table_judge: Any
) -> None:
    """A filed, locked report is what the standings count: the record under it stays as filed
    (a head judge reopens the report to correct it)."""
    game = game_for(table)
    seq = game.seq
    filed = judge_at_table.post(
        f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
    )
    assert filed.status_code == 201, filed.content
    answer = judge_at_table.post(
        f"/api/tables/{table.pk}/game/events/",
        {"event": {"type": "void", "seq": seq, "reason": "mistake"}, "expected_seq": seq},
        format="json",
    )
    assert answer.status_code == 409, answer.content
    assert "report is filed" in answer.json()["detail"]
    assert game_for(table).seq == seq


def test_a_voided_concession_does_not_leave_the_clock_stopped_for_good(
    judge_client: Any, judge_at_table: APIClient, table: Any, table_judge: Any
) -> None:
    """Concede, finish the clock, void the concession: the game goes on, and so does its clock."""
    from clocks import tasks

    judge_client.post(url(table, "start"))
    conceded = append_event(
        table, {"type": "concession", "to_factions": ["harkonnen"]}, expected_seq=game_for(table).seq, user=table_judge
    )
    assert judge_at_table.post(url(table, "finish")).status_code == 200
    append_event(
        table,
        {"type": "void", "seq": conceded.seq, "reason": "the concession was a misunderstanding"},
        expected_seq=game_for(table).seq,
        user=table_judge,
    )
    tasks.sweep()
    clock = TableClock.objects.get(table=table)
    assert clock.state == limits.RUNNING and clock.finished_at is None
    assert ClockHistory.objects.filter(clock=clock).order_by("-pk").first().reason.startswith("the game's result was voided")
    # The head judge runs it again.
    assert judge_client.post(url(table, "pause"), {"reason": "break"}, format="json").status_code == 200


def test_a_head_judges_early_stop_stays_stopped(judge_client: Any, table: Any) -> None:
    from clocks import tasks

    judge_client.post(url(table, "start"))
    assert judge_client.post(url(table, "finish"), {"reason": "players left"}, format="json").status_code == 200
    tasks.sweep()
    assert TableClock.objects.get(table=table).state == limits.FINISHED
