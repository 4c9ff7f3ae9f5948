"""A player opens the standings on a phone, finds themself and sees the finals cut line."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from tests.e2e.conftest import taking_screenshots
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for


@pytest.mark.django_db(transaction=True)
def test_player_finds_themself_and_the_cut_line_on_a_phone(
    phone_page: Any, live_server: Any, head_judge: Any, screenshot: Any
) -> None:
    from django.core.cache import cache

    cache.clear()
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Phone open")
    players = make_players(tournament, 48)
    heat = make_round(tournament)
    for n in range(8):
        table = seat_table(heat, players[n * 6 : (n + 1) * 6], number=n + 1)
        services.file_report(
            table, report_for(table, {0: "solo_stronghold"}, **{"0": {"strongholds": 9 - n}}), user=head_judge
        )
    page = phone_page
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    cut = page.locator("tr.cut-marker")
    assert cut.count() == 1 and "Finals cut" in cut.inner_text()

    # Player 037 won table 7: seventh on strongholds, the first alternate.
    page.get_by_label("Find me").fill("Player 037")
    page.get_by_role("button", name="Find").click()
    page.wait_for_load_state()
    found = page.get_by_role("status")
    assert "alternate 1" in found.inner_text()
    page.get_by_role("link", name="Player 037").first.click()
    me = page.locator('tr[aria-current="true"]')
    assert me.count() == 1 and me.is_visible()
    # The player's row sits right below the cut line.
    assert page.locator("tr.cut-marker + tr").get_attribute("aria-current") == "true"
    # The tiebreak values sit in labelled columns (the table scrolls sideways in its region).
    assert me.locator('td[data-label="best game strongholds"]').inner_text() == "3"
    # Nothing spills sideways on a 390 px screen except inside the scrolling table.
    wide = page.evaluate(
        "[window.scrollX, ...[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right + window.scrollX > 392)"
        ".slice(0, 8).map(e => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right))]"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1, wide
    path = screenshot(page, "standings-phone-find-me")
    # And what the phone shows at that moment: the cut line above the player's opened row.
    page.locator("tr.cut-marker").scroll_into_view_if_needed()
    if taking_screenshots():
        page.screenshot(path=str(path.with_name("standings-phone-my-row.png")))
