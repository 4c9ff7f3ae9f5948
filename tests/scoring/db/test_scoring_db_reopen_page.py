"""The filed-report page: a head judge reopens a report there, with a reason shown next to the field."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.models import GameReport, ReportRevision
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def filed(head_judge: Any, wbc_heat: Any) -> Any:
    table = wbc_heat[3][0]
    services.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    return table


def test_reopen_needs_a_reason_shown_next_to_the_field(client: Any, head_judge: Any, filed: Any) -> None:
    client.force_login(head_judge)
    page = f"/tables/{filed.pk}/filed-report/"
    assert b"Reopen the report" in client.get(page).content
    response = client.post(page, {"reason": "  "})
    assert response.status_code == 200
    assert b"a reason is required to reopen a filed report" in response.content
    assert GameReport.objects.get(table=filed).locked

    response = client.post(page, {"reason": "wrong winner typed from the paper sheet"})
    assert response.status_code == 302
    report = GameReport.objects.get(table=filed)
    assert not report.locked and report.reopen_reason == "wrong winner typed from the paper sheet"
    assert ReportRevision.objects.filter(report=report, action="reopened", user=head_judge).count() == 1
    assert b"File it again from the table" in client.get(page).content


def test_only_a_head_judge_reopens(client: Any, make_user: Any, filed: Any) -> None:
    client.force_login(make_user("someone"))
    page = f"/tables/{filed.pk}/filed-report/"
    assert b"Reopen the report" not in client.get(page).content
    response = client.post(page, {"reason": "I lost"})
    assert response.status_code == 403
    assert GameReport.objects.get(table=filed).locked
