"""On a phone (390×844), a tiebreak value in the standings explains itself on a tap, and on a key
press for a keyboard: its name and rule, and the sentence the player's own page gives."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for


@pytest.mark.django_db(transaction=True)
def test_a_tiebreak_value_explains_itself_on_tap_and_from_the_keyboard(
    phone_page: Any, live_server: Any, head_judge: Any, screenshot: Any
) -> None:
    from django.core.cache import cache

    cache.clear()
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Tiebreaks")
    table = seat_table(make_round(tournament), make_players(tournament, 6), number=1)
    services.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    page = phone_page
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    first = page.locator("table.standings tbody tr").first
    cell = first.locator("td.tiebreak-value").first
    label = cell.get_attribute("data-label")
    why = cell.locator(".why")
    expect(why).to_be_hidden()

    cell.locator("summary").click()
    expect(why).to_be_visible()
    box = why.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    text = why.inner_text()
    assert label and label in text, text
    screenshot(page, "standings-tiebreak-explained-phone")

    # The same words as the player's own page.
    player_link = first.locator("td").nth(1).get_by_role("link")
    name = player_link.inner_text()
    other = page.context.new_page()
    other.goto(player_link.evaluate("(a) => a.href"))
    explanation = other.locator("#standing-line + p").inner_text()
    other.close()
    assert explanation and explanation in text, (explanation, text)
    assert name in text

    # Tapped again, it closes; from the keyboard, Enter on the focused value opens it.
    cell.locator("summary").click()
    expect(why).to_be_hidden()
    cell.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(why).to_be_visible()
    # One explanation at a time: opening another value closes this one.
    second = page.locator("table.standings tbody tr").nth(1).locator("td.tiebreak-value summary").first
    second.focus()
    page.keyboard.press("Enter")
    expect(why).to_be_hidden()
