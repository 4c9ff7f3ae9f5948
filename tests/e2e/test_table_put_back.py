"""Browser, phone (390×844) and laptop (1366×900): in a final tracked in full, the storm moves
over forces in the sand and the engine sends them to the tanks (WBC VI.8). The judge sees the
removal, opens its put-back form, is refused for putting back more than the storm took (the
message at the field, what was typed kept), then puts them back with a reason and sees them on
the board again. The form and its refusal stay in view; nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import GameEvent
from tests.e2e.test_table_venue import open_table
from tests.gameplay.full_game import storm_took_forces

VIEWPORTS = [{"width": 390, "height": 844}, {"width": 1366, "height": 900}]

#: Whether an element is wholly inside the viewport and not hidden under the pinned refusal.
IN_VIEW = """(e) => { const r = e.getBoundingClientRect();
  if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) { return false; }
  const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 20), r.top + r.height / 2);
  return !!hit && (hit === e || e.contains(hit)); }"""


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def harkonnen(page: Any) -> tuple[str, str]:
    """The Harkonnen row's forces on the board and in the tanks."""
    cells = page.locator("tr.f-harkonnen td.num")
    return cells.nth(3).inner_text(), cells.nth(5).inner_text()


def wait_for_answer(page: Any, seq: str) -> None:
    page.wait_for_function(
        "([seq]) => { const live = document.getElementById('table-live');"
        " return live.dataset.seq !== seq || live.querySelector('#refusal, #stale'); }",
        arg=[seq],
    )


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_the_judge_puts_back_forces_the_storm_destroyed(
    new_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any,
    viewport: dict[str, int],
) -> None:
    judge = make_user("judge1")
    table = storm_took_forces(judge, storm=False)  # turn 2's storm phase; 3 Harkonnen in The Great Flat
    page = new_page(viewport=viewport, locale="en-US", timezone_id="UTC", timeout=10_000)
    open_table(page, sign_in, live_server, password, table)
    live = page.locator("#table-live")
    assert harkonnen(page) == ("13", "0")

    # The storm moves four sectors, over The Great Flat (sector 14).
    page.locator("#next").get_by_label("Move storm by (sectors)").fill("4")
    seq = live.get_attribute("data-seq")
    page.locator("#next").get_by_role("button", name="Move storm").click()
    wait_for_answer(page, seq)
    removed = page.locator("#removed")
    assert "Harkonnen: 3 forces in The Great Flat (sector 14)" in removed.inner_text()
    assert harkonnen(page) == ("10", "3")

    removed.locator("summary", has_text="Put back").click()
    form = removed.locator("form[data-action=correct_loss]")
    assert form.get_by_label("Forces").input_value() == "3"
    assert form.get_by_label("Special").count() == 0  # the storm took no special forces
    assert form.evaluate(IN_VIEW), form.bounding_box()
    assert no_sideways_scroll(page)
    screenshot(page, f"table-put-back-form-{viewport['width']}")

    # More than the storm took: refused, the message at the field, what was typed kept.
    form.get_by_label("Forces").fill("4")
    form.get_by_label("Reason").fill("Weather Control held the storm")
    seq = live.get_attribute("data-seq")
    form.get_by_role("button", name="Put back").click()
    wait_for_answer(page, seq)
    error = page.locator("#err-correct_loss-normal")
    error.wait_for()
    assert "the rules removed only 3 Harkonnen forces" in error.inner_text()
    assert error.evaluate(IN_VIEW), error.bounding_box()
    assert no_sideways_scroll(page)
    screenshot(page, f"table-put-back-refused-{viewport['width']}")
    form = page.locator("#removed form[data-action=correct_loss]")
    assert form.get_by_label("Forces").input_value() == "4"
    assert form.get_by_label("Reason").input_value() == "Weather Control held the storm"
    assert not GameEvent.objects.filter(game__table=table, type="loss_corrected").exists()

    # Three go back: recorded once, the removal is settled, the forces are on the board.
    form.get_by_label("Forces").fill("3")
    seq = live.get_attribute("data-seq")
    form.get_by_role("button", name="Put back").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
    assert "Recorded: loss corrected" in page.locator("#pinned").inner_text()
    assert page.locator("#removed").count() == 0
    assert harkonnen(page) == ("13", "0")
    assert no_sideways_scroll(page)
    corrected = GameEvent.objects.filter(game__table=table, type="loss_corrected")
    assert [(e.body["normal"], e.reason) for e in corrected] == [(3, "Weather Control held the storm")]


def test_a_put_back_made_offline_stays_queued_and_lands_once(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = storm_took_forces(judge)
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.context.set_offline(True)
    page.locator("#offline-banner").wait_for()
    removed = page.locator("#removed")
    removed.locator("summary", has_text="Put back").click()
    form = removed.locator("form[data-action=correct_loss]")
    form.get_by_label("Reason").fill("Weather Control held the storm")
    form.get_by_role("button", name="Put back").click()
    page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '1'")
    queued = page.locator("#pending li").inner_text()  # shown as the next record, pending
    assert "Put back Harkonnen forces in The Great Flat (sector 14)" in queued, queued
    assert not GameEvent.objects.filter(game__table=table, type="loss_corrected").exists()

    page.context.set_offline(False)
    page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '0'")
    assert page.locator("#removed").count() == 0
    assert harkonnen(page) == ("13", "0")
    assert GameEvent.objects.filter(game__table=table, type="loss_corrected").count() == 1


def test_the_storm_s_losses_are_listed_after_the_one_tap_move_then_spice_blow(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = storm_took_forces(judge, storm=False)  # turn 2's storm phase; 3 Harkonnen in The Great Flat
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    live = page.locator("#table-live")
    page.locator("#next").get_by_label("Move storm by (sectors)").fill("4")
    seq = live.get_attribute("data-seq")
    page.locator("#next").get_by_role("button", name="Move, then Spice Blow").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 2}'")
    assert page.locator("#phase").inner_text() == "Spice blow"
    removed = page.locator("#removed")
    assert "Harkonnen: 3 forces in The Great Flat (sector 14)" in removed.inner_text()
    assert harkonnen(page) == ("10", "3")
    screenshot(page, "table-storm-losses-after-one-tap")

    removed.locator("summary", has_text="Put back").click()
    form = removed.locator("form[data-action=correct_loss]")
    form.get_by_label("Reason").fill("Weather Control held the storm")
    form.get_by_role("button", name="Put back").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 3}'")
    assert page.locator("#removed").count() == 0
    assert harkonnen(page) == ("13", "0")
    assert GameEvent.objects.filter(game__table=table, type="loss_corrected").get().reason == "Weather Control held the storm"
