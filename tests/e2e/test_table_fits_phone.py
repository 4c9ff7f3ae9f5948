"""Browser: the table page fits a phone with six factions. Nothing scrolls sideways at 390 px,
every tap target is at least 44 px, faction names are readable (short names with a legend),
and at 200 % zoom the page still works without sideways scrolling."""

from __future__ import annotations

from typing import Any

from gameplay.models import Game
from tests.e2e.test_table_venue import open_table, seeded_table

OVERFLOW = """() => [...document.querySelectorAll('#table-live *')]
  .filter(e => e.offsetParent !== null && !e.closest('.table-scroll'))
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map(e => e.tagName + '.' + e.className + ' ' + (e.id || '') + ' ' + Math.round(e.getBoundingClientRect().right))"""

SMALL_TARGETS = """() => [...document.querySelectorAll(
    '#table-live button, #table-live .cell-chip, #table-live label.check, #table-live select,'
    + ' #table-live input[type=number], #table-live input[type=text], #table-live summary, #next a.button')]
  .filter(e => e.offsetParent !== null)
  .filter(e => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
  .map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 30)
       + ' ' + Math.round(e.getBoundingClientRect().width) + 'x' + Math.round(e.getBoundingClientRect().height))"""


def test_the_battle_phase_of_six_factions_fits_390_px_with_44_px_targets(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    # Turn 8's battle phase: four worms so far, so the Shield Wall's sides join the grid.
    table = seeded_table(judge, until="quick_record", occurrence=8)
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.locator("#quick details").evaluate("d => d.open = true")
    screenshot(page, "table-fits-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(OVERFLOW) == []
    assert page.evaluate(SMALL_TARGETS) == []
    grid = page.locator("#quick")
    legend = grid.locator(".legend").inner_text()
    for name in ("Atreides", "Bene Gesserit", "Emperor", "Fremen", "Harkonnen", "Guild"):
        assert name in legend
    # The Harkonnen's strongholds are on screen, not cut off to the right.
    carthag = grid.get_by_label("Harkonnen in Carthag")
    assert carthag.is_checked()
    box = carthag.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390


def test_at_200_percent_zoom_the_next_step_still_works(
    new_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")
    # 200 % zoom on a 390 px phone leaves 195 CSS pixels of width.
    page = new_page(viewport={"width": 195, "height": 422}, device_scale_factor=4)
    open_table(page, sign_in, live_server, password, table)
    assert page.evaluate("document.documentElement.scrollWidth") <= 195
    seq = Game.objects.get(table=table).seq
    page.get_by_label("Move storm by (sectors)").fill("2")
    page.locator("#next").get_by_role("button", name="Move storm").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 1}'")
    assert "Recorded: storm moved" in page.locator("#pinned").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 195


def test_a_contested_stronghold_says_so_in_words_within_390_px(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    """WBC IV.1: a stronghold two factions stand in is controlled by neither: its tile says who."""
    judge = make_user("judge1")
    table = seeded_table(judge, until="quick_record", occurrence=8)  # turn 8's battle phase
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    seq = Game.objects.get(table=table).seq
    grid = page.locator("#quick")
    grid.locator("details").evaluate("d => d.open = true")
    grid.get_by_label("Bene Gesserit in Carthag").check()  # beside the Harkonnen
    for box in grid.locator("input[name=occ][value^='arrakeen|']").all():
        box.uncheck()  # Arrakeen left empty
    grid.get_by_role("button", name="Record strongholds").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 1}'")
    tiles = page.locator("ul.control")
    carthag = tiles.locator("li[data-place=carthag]")
    assert carthag.inner_text().replace("\n", " ") == "Carthag contested (Bene Gesserit, Harkonnen)"
    assert tiles.locator("li[data-place=arrakeen]").inner_text().replace("\n", " ") == "Arrakeen empty"
    screenshot(page, "table-tiles-contested")
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for tile in tiles.locator("li").all():
        box = tile.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, tile.inner_text()
        inner = tile.locator(".sh-state").bounding_box()
        assert inner is not None and inner["x"] + inner["width"] <= box["x"] + box["width"] + 0.5, tile.inner_text()
