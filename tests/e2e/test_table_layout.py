"""Browser, phone (390×844): the table page as first loaded shows its first control without a
scroll; after "Move storm" and "No worm: battle phase" the "Record strongholds" button is
inside the screen; the Factions table fits 390 px without scrolling sideways in its box."""

from __future__ import annotations

from typing import Any

from gameplay.models import Game
from tests.e2e.test_table_venue import open_table, seeded_table
from tests.gameplay.full_game import final_table

VIEW_HEIGHT = 844

#: Whether an element lies wholly inside the screen as it stands (no scroll).
ON_SCREEN = """(e) => { const r = e.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""


def test_the_first_control_is_on_the_first_screen_as_the_page_loads(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=2)  # turn 3's storm phase (quick)
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.wait_for_load_state("load")
    page.evaluate("() => window.scrollTo(0, 0)")  # as first loaded, before anything scrolls
    control = page.locator("#next [data-next-control]").first
    first_field = page.locator("#next").get_by_label("Move storm by (sectors)")
    screenshot(page, "table-first-screen")
    assert first_field.evaluate(ON_SCREEN), first_field.bounding_box()
    assert control.evaluate(ON_SCREEN), control.bounding_box()


def test_record_strongholds_is_inside_the_screen_after_no_worm_battle_phase(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=2)  # turn 3's storm phase (quick)
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    seq = Game.objects.get(table=table).seq
    page.locator("#next").get_by_label("Move storm by (sectors)").fill("3")
    page.locator("#next").get_by_role("button", name="Move storm", exact=True).click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 1}'")
    page.locator("#next").get_by_role("button", name="No worm: battle phase").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 2}'")
    button = page.get_by_role("button", name="Record strongholds")
    page.wait_for_function(f"(e) => ({ON_SCREEN})(e)", arg=button.element_handle())  # the page brings it in view
    screenshot(page, "table-record-strongholds-in-view")
    assert button.evaluate(ON_SCREEN), button.bounding_box()


def test_the_factions_table_does_not_scroll_sideways_at_390_px(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)  # tracked in full: every column has its number
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    box = page.locator(".factions .table-scroll")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
