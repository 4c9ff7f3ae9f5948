"""Browser, phone (390×844) and laptop (1366×900): spice on the board. The judge records turn
1's Spice Blow in The Great Flat from the page (LoLV 1.02.04, AH VII.A.1); in turn 2 the storm
moves over its sector and the engine returns the spice to the bank (WBC VI.8), listing it
beside the forces it destroyed; the judge puts the spice back with a reason. Forms and lists
stay in view and nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import Game
from tests.e2e.test_table_put_back import IN_VIEW, VIEWPORTS, no_sideways_scroll, wait_for_answer
from tests.e2e.test_table_venue import open_table
from tests.gameplay.full_game import BEFORE_THE_STORM, final_table, record


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_the_judge_records_a_spice_blow_and_puts_back_what_the_storm_took(
    new_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any,
    viewport: dict[str, int],
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM[:2] + [{"type": "phase_advanced", "phase": "spice_blow"}])
    page = new_page(viewport=viewport, locale="en-US", timezone_id="UTC", timeout=10_000)
    url = open_table(page, sign_in, live_server, password, table)
    live = page.locator("#table-live")
    spice = page.locator("#board-spice")
    assert spice.get_attribute("open") is not None  # the spice blow phase opens it
    assert "No spice lies on the board" in spice.inner_text()
    form = page.locator("#next #spice-blow-form")  # the phase's own record, in the next step's box
    form.get_by_label("Card turned over").select_option("the_great_flat")
    form.scroll_into_view_if_needed()  # as the judge scrolls down to it
    assert form.evaluate(IN_VIEW), form.bounding_box()
    assert no_sideways_scroll(page)
    seq = live.get_attribute("data-seq")
    form.get_by_role("button", name="Place the spice", exact=True).click()
    wait_for_answer(page, seq)
    assert Game.objects.get(table=table).position["spice_on_board"] == {"the_great_flat": 10}

    # The rest of turn 1 (three Harkonnen forces into The Great Flat) up to turn 2's storm.
    record(table, judge, BEFORE_THE_STORM[2:])
    page.goto(url)
    page.locator("#board-spice summary").click()
    assert "The Great Flat: 10 spice" in page.locator("#board-spice").inner_text()
    page.locator("#next").get_by_label("Move storm by (sectors)").fill("4")
    seq = live.get_attribute("data-seq")
    page.locator("#next").get_by_role("button", name="Move storm").click()
    wait_for_answer(page, seq)
    removed = page.locator("#removed")
    text = removed.inner_text()
    assert "Harkonnen: 3 forces in The Great Flat (sector 14)" in text
    assert "10 spice in The Great Flat (sector 14)" in text and "WBC VI.8" in text

    row = removed.locator("li", has_text="10 spice in The Great Flat")
    row.locator("summary", has_text="Put back").click()
    form = row.locator("form[data-action=set_board_spice]")
    assert form.get_by_label("Spice in The Great Flat (sector 14) after the correction").input_value() == "10"
    form.get_by_label("Reason").fill("Weather Control held the storm")
    assert form.evaluate(IN_VIEW), form.bounding_box()
    assert no_sideways_scroll(page)
    screenshot(page, f"table-board-spice-put-back-{viewport['width']}")
    seq = live.get_attribute("data-seq")
    form.get_by_role("button", name="Put back").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
    assert "10 spice in The Great Flat" not in page.locator("#removed").inner_text()
    assert "Harkonnen: 3 forces" in page.locator("#removed").inner_text()  # still to settle
    assert Game.objects.get(table=table).position["spice_on_board"] == {"the_great_flat": 10}
    assert no_sideways_scroll(page)
