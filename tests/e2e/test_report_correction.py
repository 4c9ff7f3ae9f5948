"""A head judge corrects a filed report in Chromium: reopened with a reason, the form starts
from what was filed, one player's strongholds are changed, and every other filed value (the
other players' strongholds, the best-faction award values) is what it was."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.models import GameReport
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db(transaction=True)


def _awards(tournament: Any) -> dict[str, tuple[int, Any]]:
    from django.core.cache import cache

    cache.clear()
    return {a.faction: (a.player, a.score) for a in services.awards_for(tournament)}


def test_correcting_one_players_strongholds_keeps_every_other_filed_value(
    page: Any, live_server: Any, sign_in: Any, head_judge: Any, password: str
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    table = seat_table(make_round(tournament), players)
    report = report_for(
        table,
        {0: "solo_stronghold"},
        **{
            "0": {"strongholds": 3, "pp": "7", "tokens": "9.5"},
            "1": {"strongholds": 2, "pp": "5"},
            "2": {"strongholds": 1, "pp": "3.5", "spice": 9},
            "3": {"pp": "2"},
        },
    )
    report["turns"] = 5
    services.file_report(table, report, user=head_judge)
    filed = GameReport.objects.get(table=table).data
    awards = _awards(tournament)
    second = players[1]

    base = live_server.url
    sign_in(page, "head", password)
    page.goto(f"{base}/tables/{table.pk}/filed-report/")
    page.get_by_label("Reason (kept in the history)").fill(f"{second.name} held 3 strongholds, not 2")
    page.get_by_role("button", name="Reopen the report").click()
    page.get_by_role("link", name="File it again from the table").click()
    page.locator("#report-form").wait_for()
    assert page.locator("#rp-turns").input_value() == "5"
    assert page.locator(f"#p{players[0].pk}_result").input_value() == "solo_stronghold"
    assert page.locator(f"#p{players[0].pk}_strongholds").input_value() == "3"
    assert page.locator(f"#p{second.pk}_strongholds").input_value() == "2"
    page.locator(f"#p{second.pk}_strongholds").fill("3")
    page.get_by_label("I checked every row with the players").check()
    with page.expect_response(lambda r: r.url.endswith("/report/") and r.request.method == "POST") as answer:
        page.get_by_role("button", name="File the report").click()
    assert answer.value.status in (200, 302), answer.value.text()

    after = GameReport.objects.get(table=table)
    assert after.locked and after.version == 2
    expected = [dict(r) for r in filed["results"]]
    expected[1]["strongholds"] = 3
    assert after.data == {**filed, "results": expected}
    changed = {f for f, (player, _) in awards.items() if player == second.pk}
    now = _awards(tournament)
    assert {f: v for f, v in now.items() if f not in changed} == {
        f: v for f, v in awards.items() if f not in changed
    }

    page.goto(f"{base}/tables/{table.pk}/filed-report/")
    history = page.locator("#report-history").inner_text()
    assert f"{second.name}: Strongholds: 2 → 3" in history
    assert f"why: {second.name} held 3 strongholds, not 2" in history
    assert page.locator("#report-history li[data-field]").count() == 1
