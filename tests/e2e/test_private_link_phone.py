"""A player opens their private link on a phone, sees their table and confirms the filed
result; a second player disputes it with a reason and the head judge reads the dispute."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.models import GameReport, ResultConfirmation
from tests.conftest import PASSWORD
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament import private_links


@pytest.mark.django_db(transaction=True)
def test_players_confirm_and_dispute_their_result_from_the_private_link(
    phone_page: Any, second_page: Any, live_server: Any, head_judge: Any, sign_in: Any, screenshot: Any
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Link open")
    players = make_players(tournament, 6)
    table = seat_table(make_round(tournament), players, number=3)
    first, second = (private_links.link_for(p).token for p in players[:2])

    page = phone_page
    page.goto(f"{live_server.url}/me/{first}/")
    assert "table 3, seat 1" in page.locator("#me-seat").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    screenshot(page, "private-link-seat")

    services.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    filed = GameReport.objects.get(table=table).data
    page.reload()
    page.get_by_role("button", name="Confirm this result").click()
    assert "You confirmed this result." in page.locator("#me-results").inner_text()

    other = second_page
    other.goto(f"{live_server.url}/me/{second}/")
    other.get_by_role("button", name="Dispute this result").click()  # no reason: refused in words
    assert "a reason is required" in other.locator("#me-results").inner_text()
    assert not ResultConfirmation.objects.filter(player=players[1]).exists()
    other.get_by_label("Or dispute it, saying why:").fill("I held four strongholds")
    other.get_by_role("button", name="Dispute this result").click()
    assert "You disputed this result: I held four strongholds" in other.locator("#me-results").inner_text()
    screenshot(other, "private-link-dispute")
    assert GameReport.objects.get(table=table).data == filed

    other.goto(f"{live_server.url}/me/not-my-link/")
    assert "does not open any event" in other.locator("#me-refused").inner_text()

    sign_in(page, "head", PASSWORD)
    page.goto(f"{live_server.url}/rounds/{table.round_id}/")
    page.get_by_role("link", name="Players' confirmations and disputes").click()
    card = page.locator("#confirmations-table-3")
    assert "Player 002 disputes: I held four strongholds" in card.inner_text()
    assert "Confirmed by Player 001" in card.inner_text()
