"""The head judge sets up an event's format in a browser: a new WBC tournament starts from its
preset, the format page shows each field in words with the preset's value and rule, the judge
types the event's changes (4-hour heats, the Shield Wall after the third worm, adjudicated
victories 0.25, 9-turn heats) and the tournament page lists them with their rules; a bad value
is shown next to its field; at 1366x900 and at 390x844 nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_tournament
from tournament.models import Tournament

FITS = "document.documentElement.scrollWidth <= window.innerWidth"
WIDE = (
    "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)"
    ".slice(0, 6).map(e => e.tagName + '.' + e.className)"
)
DESK = {"width": 1366, "height": 900}


def _inside(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    width = page.evaluate("window.innerWidth")
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box, width)


@pytest.mark.django_db(transaction=True)
def test_a_head_judge_sets_up_a_variant_at_a_desk(
    new_page: Any, live_server: Any, head_judge: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    page = new_page(viewport=DESK, locale="en-US", timezone_id="UTC", timeout=15_000)
    sign_in(page, head_judge.username, password)
    page.goto(f"{live_server.url}/tournaments/new/")
    page.get_by_label("Name").fill("WBC variant open")
    page.get_by_label("Format").select_option("wbc")
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_load_state()
    page.get_by_role("link", name="Set up the format").click()
    page.wait_for_load_state()
    hours = page.locator('[data-field="rounds.heat.hours"]')
    assert "Preset: 5" in hours.inner_text() and "WBC Preliminary Heat Duration" in hours.inner_text()
    page.locator('input[name="rounds.heat.hours"]').fill("4")
    page.locator('input[name="engine.shield_wall_after_worm"]').fill("3")
    page.locator('input[name="points.results.adjudicated"]').fill("0.25")
    page.locator('input[name="rounds.heat.turns"]').fill("9")
    page.get_by_role("button", name="Save the changes").click()
    page.wait_for_load_state()
    listed = page.locator("[data-format-differences]").inner_text()
    assert "Heat time limit (hours): 4 instead of 5 (WBC Preliminary Heat Duration)" in listed
    assert "Shield Wall a stronghold after worm: 3 instead of 4 (WBC house rules (Shield Wall))" in listed
    assert "Points for adjudicated victory: 0.25 instead of 0.5" in listed
    assert page.evaluate(FITS), page.evaluate(WIDE)
    screenshot(page, "format-setup-desk")
    tournament = Tournament.objects.get(name="WBC variant open")
    assert tournament.rules.turn_limit("heat") == 9 and tournament.rules.ruleset.shield_wall.worms_needed == 3
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    summary = page.locator("[data-format-summary]").inner_text()
    assert "changed in 4 fields" in summary and "Heat turn limit: 9 instead of 10" in summary


@pytest.mark.django_db(transaction=True)
def test_the_format_page_on_a_phone_shows_a_refusal_next_to_its_field(
    phone_page: Any, live_server: Any, head_judge: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    page = phone_page
    sign_in(page, head_judge.username, password)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/format/")
    assert page.evaluate(FITS), page.evaluate(WIDE)
    _inside(page, 'input[name="rounds.heat.hours"]')
    _inside(page, '[data-field="engine.shield_wall_after_worm"] .format-about')
    page.locator('input[name="rounds.heat.hours"]').fill("lots")
    page.get_by_role("button", name="Save the changes").click()
    page.wait_for_load_state()
    error = page.locator("#f-rounds-heat-hours-error")
    assert "a number is expected" in error.inner_text()
    assert page.locator('input[name="rounds.heat.hours"]').input_value() == "lots"
    error.scroll_into_view_if_needed()
    _inside(page, "#f-rounds-heat-hours-error")
    assert page.evaluate(FITS), page.evaluate(WIDE)
    screenshot(page, "format-setup-phone-refusal")
