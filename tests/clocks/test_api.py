"""The clocks API: answers with the server's now, head-judge writes, table-judge calls, and
4xx answers that name the field or rule."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from clocks import services
from clocks.models import ClockHistory, TableClock
from dune import clock_limits as limits
from tests.clocks.conftest import seated

pytestmark = pytest.mark.django_db


def url(table: Any, action: str = "") -> str:
    return f"/api/tables/{table.pk}/clock/" + (f"{action}/" if action else "")


def test_get_answers_the_server_now_and_the_state(api_client: Any, wbc_table: Any) -> None:
    body = api_client.get(url(wbc_table)).json()
    assert body["state"] == "pending" and body["started"] is False
    assert datetime.fromisoformat(body["server_now"]) == services.db_now()


def test_start_then_get_gives_deadlines_and_time_left(judge_client: Any, wbc_table: Any) -> None:
    body = judge_client.post(url(wbc_table, "start"), {}, format="json").json()
    now = datetime.fromisoformat(body["server_now"])
    assert body["state"] == "running" and body["limit"] == "wbc_heat" and body["rule"] == "WBC Preliminary Heat Duration"
    assert datetime.fromisoformat(body["deadlines"]["time_up"]) - now == timedelta(hours=5)
    assert body["next"]["state"] == "last_30"
    assert body["remaining_seconds"] == pytest.approx(4.5 * 3600)
    assert body["max_turns"] == 10 and body["grace_ends"] is None


def test_writes_need_a_head_judge(api_client: Any, make_user: Any, wbc_table: Any) -> None:
    assert api_client.post(url(wbc_table, "start")).status_code in (401, 403)
    judge = make_user("judge1")
    wbc_table.round.tournament.table_judges.add(judge)
    api_client.force_authenticate(judge)
    response = api_client.post(url(wbc_table, "start"))
    assert response.status_code == 403 and "head judge" in response.json()["detail"]
    assert not TableClock.objects.filter(state="running").exists()


def test_pause_twice_is_a_conflict_with_a_message(judge_client: Any, wbc_table: Any) -> None:
    judge_client.post(url(wbc_table, "start"))
    assert (
        judge_client.post(url(wbc_table, "pause"), {"reason": "break"}, format="json").json()["paused"]
        is True
    )
    response = judge_client.post(url(wbc_table, "pause"))
    assert response.status_code == 409
    assert "already paused" in response.json()["detail"]
    assert judge_client.post(url(wbc_table, "resume")).json()["paused"] is False
    assert judge_client.post(url(wbc_table, "resume")).status_code == 409


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"minutes": -5, "reason": "x"}, "at least 1 minute"),
        ({"minutes": 0, "reason": "x"}, "at least 1 minute"),
        ({"minutes": 100000, "reason": "x"}, "at most 240"),
        ({"minutes": 2.5, "reason": "x"}, "whole number"),
        ({"minutes": "ten", "reason": "x"}, "whole number"),
        ({"minutes": 10}, "reason"),
        ({"minutes": 10, "reason": "   "}, "reason"),
        ({"reason": "x"}, "minutes"),
    ],
)
def test_bad_extension_is_a_400_naming_the_problem(
    judge_client: Any, wbc_table: Any, data: Any, field: str
) -> None:
    judge_client.post(url(wbc_table, "start"))
    response = judge_client.post(url(wbc_table, "extend"), data, format="json")
    assert response.status_code == 400
    assert field in str(response.json())
    assert TableClock.objects.get(table=wbc_table).extension == timedelta(0)


def test_extend_adds_exactly_the_minutes(judge_client: Any, wbc_table: Any) -> None:
    before = judge_client.post(url(wbc_table, "start")).json()["deadlines"]
    after = judge_client.post(
        url(wbc_table, "extend"), {"minutes": 15, "reason": "dispute"}, format="json"
    ).json()
    for name in ("last_30", "time_up"):
        assert datetime.fromisoformat(after["deadlines"][name]) - datetime.fromisoformat(
            before[name]
        ) == timedelta(minutes=15)
    assert after["extension_minutes"] == 15
    assert ClockHistory.objects.get(kind="extended").reason == "dispute"


def test_waive_refused_for_a_heat_and_recorded_for_the_final(judge_client: Any, wbc_table: Any) -> None:
    response = judge_client.post(
        url(wbc_table, "waive"), {"reason": "x", "all_players_agree": True}, format="json"
    )
    # The document's rule for the heat's waiver (WBC Preliminary Heat Duration: no option to continue).
    assert response.status_code == 400 and response.json()["rule"] == "WBC Preliminary Heat Duration"
    final = seated(format="wbc", kind="final").tables.get()
    response = judge_client.post(url(final, "waive"), {"reason": "all agreed"}, format="json")
    assert response.status_code == 400 and "all players agree" in response.json()["detail"]
    body = judge_client.post(
        url(final, "waive"), {"reason": "all agreed", "all_players_agree": True}, format="json"
    )
    assert body.json()["waived"] is True


def test_unknown_action_and_table(judge_client: Any, wbc_table: Any) -> None:
    assert judge_client.post(url(wbc_table, "explode")).status_code == 400
    assert judge_client.get("/api/tables/999999/clock/").status_code == 404


def test_round_start_pause_resume(judge_client: Any, wbc_round: Any) -> None:
    base = f"/api/rounds/{wbc_round.pk}/clocks/"
    body = judge_client.post(base + "start/").json()
    assert body["tables_changed"] == [1, 2, 3] and {c["state"] for c in body["clocks"]} == {"running"}
    assert all(
        c["paused"]
        for c in judge_client.post(base + "pause/", {"reason": "lunch"}, format="json").json()["clocks"]
    )
    response = judge_client.post(base + "pause/")
    assert response.status_code == 409 and "no table clock" in response.json()["detail"]
    assert not any(c["paused"] for c in judge_client.post(base + "resume/").json()["clocks"])
    listing = judge_client.get(base).json()
    assert len(listing["clocks"]) == 3 and "server_now" in listing


def test_table_judge_calls_the_clock_at_their_table(api_client: Any, make_user: Any, head_judge: Any) -> None:
    judge = make_user("judge2")
    table = seated(format="wbc", judge=judge).tables.get()
    other = seated(format="wbc").tables.get()
    services.start(table, user=head_judge)
    services.start(other, user=head_judge)
    api_client.force_authenticate(judge)
    response = api_client.post(url(table, "call"), {"action": "turn", "faction": "guild"}, format="json")
    assert response.status_code == 201
    call = response.json()["calls"][0]
    assert call["action"] == "turn" and call["remaining_seconds"] == pytest.approx(120)
    assert (
        api_client.post(url(other, "call"), {"action": "turn", "faction": "guild"}, format="json").status_code
        == 403
    )
    stop = api_client.post(url(table, "call") + "stop/", {"timer": call["id"]}, format="json")
    assert stop.status_code == 200 and stop.json()["calls"] == []


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ({"action": "karama", "faction": "guild"}, "'karama'"),
        ({"action": "bid", "faction": "ixians"}, "'ixians'"),
        ({"faction": "guild"}, "action"),
    ],
)
def test_bad_call_is_a_400(judge_client: Any, wbc_table: Any, data: Any, text: str) -> None:
    judge_client.post(url(wbc_table, "start"))
    response = judge_client.post(url(wbc_table, "call"), data, format="json")
    assert response.status_code == 400 and text in str(response.json())


def test_wbc_fourth_diplomacy_chip_is_refused_with_the_rule(judge_client: Any, wbc_table: Any) -> None:
    """WBC: three diplomacy chips per player per game."""
    judge_client.post(url(wbc_table, "start"))
    for _ in range(3):
        timer = judge_client.post(
            url(wbc_table, "call"), {"action": "diplomacy", "faction": "fremen"}, format="json"
        )
        judge_client.post(url(wbc_table, "call") + "stop/", {"timer": timer.json()["timer"]}, format="json")
    response = judge_client.post(
        url(wbc_table, "call"), {"action": "diplomacy", "faction": "fremen"}, format="json"
    )
    assert response.status_code == 400 and response.json()["rule"] == limits.CHIPS_RULE


def test_malformed_body_and_huge_ids_are_4xx(judge_client: Any, wbc_table: Any) -> None:
    judge_client.post(url(wbc_table, "start"))
    response = judge_client.post(url(wbc_table, "extend"), [1, 2], format="json")
    assert response.status_code == 400 and "JSON object" in response.json()["detail"]
    assert judge_client.get("/api/tables/99999999999999999999/clock/").status_code == 404
    assert judge_client.post("/api/rounds/99999999999999999999/clocks/start/").status_code == 404


def test_answer_carries_clock_face_deadline_labels(judge_client: Any, wbc_table: Any) -> None:
    body = judge_client.post(url(wbc_table, "start")).json()
    assert body["deadline_labels"]["time_up"] == datetime.fromisoformat(
        body["deadlines"]["time_up"]
    ).strftime("%H:%M")
    assert body["deadline_labels"]["last_turn"] is None
