"""A phone's report of the records it saw and sent again (`POST /api/tables/{id}/game/seen/`),
kept per table, and the head judge's dashboard line that compares it with the server's
record number (DESIGN.md principle 9: a restored server is refilled by the phones)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from gameplay import services
from gameplay.models import PhoneSeen
from tests.gameplay.conftest import post_event

pytestmark = pytest.mark.django_db


def seen_url(table: Any) -> str:
    return f"/api/tables/{table.pk}/game/seen/"


def storm(judge_api: Any, table: Any) -> None:
    services.game_for(table)
    assert post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 1).status_code == 201


def test_a_phone_reports_the_server_behind_then_what_it_sent_again(judge_api: Any, table: Any) -> None:
    storm(judge_api, table)  # the server has record #2 (the setup and the storm)
    first = judge_api.post(seen_url(table), {"seen": 5, "server_had": 2}, format="json")
    assert first.status_code == 200, first.content
    assert first.json() == {"seq": 2, "highest_seen": 5, "behind_at_seq": 2, "refilled": 0, "behind": 3}
    # A lower report never lowers what was seen; refills add up.
    judge_api.post(seen_url(table), {"seen": 4, "refilled": 2}, format="json")
    row = PhoneSeen.objects.get(table=table)
    assert (row.highest_seq, row.behind_at_seq, row.refilled) == (5, 2, 2)
    assert row.reported_by is not None and row.reported_by.username == "judge1"


@pytest.mark.parametrize("body,field", [
    ({"seen": -1}, "seen"), ({"seen": "5"}, "seen"), ({"seen": True}, "seen"), ({}, "seen"),
    ({"seen": 3, "refilled": 1.5}, "refilled"), ({"seen": 3, "server_had": "x"}, "server_had"),
])
def test_a_report_that_is_not_a_count_is_refused_naming_its_field(
    judge_api: Any, table: Any, body: dict[str, Any], field: str
) -> None:
    answer = judge_api.post(seen_url(table), body, format="json")
    assert answer.status_code == 400
    assert answer.json()["field"] == field
    assert not PhoneSeen.objects.exists()


def test_only_the_tables_judge_or_a_head_judge_reports(table: Any, make_user: Any) -> None:
    from rest_framework.test import APIClient

    other = APIClient()
    other.force_authenticate(make_user("judge9"))
    assert other.post(seen_url(table), {"seen": 3}, format="json").status_code == 403
    assert APIClient().post(seen_url(table), {"seen": 3}, format="json").status_code in (401, 403)
    assert not PhoneSeen.objects.exists()


def test_the_dashboard_shows_what_came_back_and_what_is_still_behind(
    judge_api: Any, table: Any, head_judge: Any, password: str
) -> None:
    storm(judge_api, table)
    tournament = table.round.tournament
    tournament.head_judges.add(head_judge)
    desk = Client()
    desk.force_login(head_judge)
    page = desk.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "phone-records" not in page  # nothing reported: nothing to say

    judge_api.post(seen_url(table), {"seen": 4, "server_had": 2}, format="json")
    page = desk.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "1 table still behind what a phone saw" in page
    assert "this server has record #2 (#2 when a phone found it behind); phones saw #4" in page
    assert "behind by 2" in page

    for seq, phase in ((2, "storm"), (3, "spice_blow")):
        assert post_event(judge_api, table, {"type": "phase_advanced", "phase": phase}, seq).status_code == 201
    judge_api.post(seen_url(table), {"seen": 4, "refilled": 2}, format="json")
    page = desk.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Nothing to fear: every record a phone saw is on this server." in page
    assert "2 records sent back since the restore — all back" in page
