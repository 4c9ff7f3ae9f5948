"""A correction starts from what was filed: the form's starting values, refiling one change, and
the report's history field by field (who changed what, and why)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from scoring import services
from scoring.models import GameReport
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db

STATS = {
    "0": {"strongholds": 3, "pp": "6.5", "tokens": "9.5", "spice": 12, "win_attempts": 2},
    "1": {"strongholds": 2, "pp": "4", "forces": 14},
    "2": {"strongholds": 1, "cards": 3},
}


class _Form(HTMLParser):
    """The values a browser would send for the page's report form (inputs, selected options)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("id") == "report-form":
            self._inside = True
        if not self._inside:
            return
        if tag == "input" and a.get("name") and a.get("type") != "checkbox":
            self.values[str(a["name"])] = a.get("value") or ""
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select and "selected" in a:
            self.values[self._select] = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        if tag == "form":
            self._inside = False


def form_values(html: str) -> dict[str, str]:
    parser = _Form()
    parser.feed(html)
    return parser.values


@pytest.fixture
def filed(head_judge: Any, wbc_heat: Any) -> Any:
    table = wbc_heat[3][0]
    report = report_for(table, {0: "solo_stronghold"}, **STATS)
    report["turns"] = 5
    services.file_report(table, report, user=head_judge)
    return table


def test_draft_before_the_first_filing_is_the_game_records(judge_client: Any, wbc_heat: Any) -> None:
    table = wbc_heat[3][0]
    response = judge_client.get(f"/api/tables/{table.pk}/report/draft/")
    assert response.status_code == 200
    assert response["X-Draft-Source"] == "game_record"
    body = response.json()
    assert {r["player"] for r in body["results"]} == set(table.seats.values_list("player_id", flat=True))
    assert all(r["result"] == "loss" for r in body["results"])  # nothing recorded: nobody won yet


def test_draft_after_a_reopen_is_the_filed_report_and_posts_back_as_is(
    judge_client: Any, filed: Any, head_judge: Any
) -> None:
    report = GameReport.objects.get(table=filed)
    services.reopen_report(report, user=head_judge, reason="strongholds miscounted")
    response = judge_client.get(f"/api/tables/{filed.pk}/report/draft/")
    assert response.status_code == 200 and response["X-Draft-Source"] == "filed"
    draft = response.json()
    assert draft["turns"] == 5 and draft["ended_by"] == "victory"
    assert [r["strongholds"] for r in draft["results"][:3]] == [3, 2, 1]
    assert draft["results"][0]["pp"] == "6.5" and draft["results"][0]["result"] == "solo_stronghold"
    # The draft is the POST's shape: filed back unchanged, the report is what it was.
    before = GameReport.objects.get(table=filed).data
    answer = judge_client.post(f"/api/tables/{filed.pk}/report/", draft, format="json")
    assert answer.status_code == 201, answer.json()
    assert GameReport.objects.get(table=filed).data == before


def test_draft_is_for_the_tables_judges(api_client: Any, make_user: Any, filed: Any) -> None:
    api_client.force_authenticate(make_user("passer-by"))
    assert api_client.get(f"/api/tables/{filed.pk}/report/draft/").status_code == 403


def test_correcting_one_value_through_the_page_keeps_every_other_filed_value(
    client: Any, judge_client: Any, head_judge: Any, filed: Any
) -> None:
    client.force_login(head_judge)
    before = GameReport.objects.get(table=filed).data
    assert client.post(f"/tables/{filed.pk}/filed-report/", {"reason": "Atreides held 4, not 3"}).status_code == 302

    page = client.get(f"/tables/{filed.pk}/report/").content.decode()
    values = form_values(page)
    first, second = (r["player"] for r in before["results"][:2])
    assert values["turns"] == "5"  # the filed 5 turns, not the game record's
    assert values[f"p{first}_result"] == "solo_stronghold"
    assert values[f"p{second}_strongholds"] == "2"
    assert values[f"p{first}_pp"] == "6.5"
    # The game record (nothing recorded: everybody lost) is shown beside the filed values.
    assert re.search(rf'data-field="p{first}_result">Game record: Loss', page)

    values[f"p{first}_strongholds"] = "4"
    values["confirm"] = "yes"
    assert client.post(f"/tables/{filed.pk}/report/", values).status_code == 302

    after = GameReport.objects.get(table=filed)
    assert after.locked and after.version == 2
    expected = {**before, "results": [dict(r) for r in before["results"]]}
    expected["results"][0]["strongholds"] = 4
    assert after.data == expected

    history = judge_client.get(f"/api/tables/{filed.pk}/report/").json()["history"]
    assert [(h["action"], h["version"]) for h in history] == [("filed", 1), ("reopened", 1), ("filed", 2)]
    assert history[2]["by"] == head_judge.get_username()
    assert history[2]["reason"] == "Atreides held 4, not 3"
    assert history[2]["changes"] == [{"field": "strongholds", "player": first, "before": 3, "after": 4}]

    shown = client.get(f"/tables/{filed.pk}/filed-report/").content.decode()
    name = filed.seats.get(player_id=first).player.name
    assert f"{name}: Strongholds: 3 → 4" in shown
    assert "why: Atreides held 4, not 3" in shown
