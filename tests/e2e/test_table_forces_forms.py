"""Browser, phone (390×844) and laptop (1366×900): the revival (LoLV 1.05.01) and the Bene
Gesserit flip (2.02.10) recorded from the table page's full tracking. Each form stands in view
when the judge reaches it, nothing scrolls sideways, and a refusal names its rule beside the
form with what was typed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from dune.engine.editions import LIMITED
from gameplay.models import Game
from tests.e2e.test_table_put_back import IN_VIEW, VIEWPORTS, no_sideways_scroll, wait_for_answer
from tests.e2e.test_table_venue import open_table
from tests.gameplay.full_game import BEFORE_THE_STORM, STORM, final_table, record


@contextmanager
def judge_page(
    new_page: Any, viewport: dict[str, int], sign_in: Any, live_server: Any, password: str, table: Any
) -> Iterator[Any]:
    """The table page, signed in as its judge, in a browser of this size."""
    page = new_page(viewport, locale="en-US", timezone_id="UTC", timeout=10_000)
    open_table(page, sign_in, live_server, password, table)
    yield page


def _forces(table: Any, faction: str) -> dict[str, Any]:
    return dict(Game.objects.get(table=table).position["factions"][faction])


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_the_judge_revives_forces_and_flips_a_bene_gesserit_fighter(
    new_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any,
    viewport: dict[str, int],
) -> None:
    judge = make_user("judge1")
    # A game of the fifth edition: from the sixth the WBC tokens have no advisor side (WBC XV.5).
    table = final_table(judge, edition=LIMITED)
    # Turn 2: the storm sends three Harkonnen forces in The Great Flat to the tanks; then revival.
    record(table, judge, BEFORE_THE_STORM + [STORM, {"type": "phase_advanced", "phase": "revival"}])
    with judge_page(new_page, viewport, sign_in, live_server, password, table) as page:
        live = page.locator("#table-live")
        # The revival phase's own forms are open as the phase begins.
        assert page.locator("#forces-forms").evaluate("d => d.open")
        form = page.locator("form[data-action=revive_forces]")
        form.get_by_label("Faction").select_option("atreides")
        form.get_by_label("Forces").fill("1")
        form.scroll_into_view_if_needed()
        assert form.evaluate(IN_VIEW), form.bounding_box()
        assert no_sideways_scroll(page)
        seq = live.get_attribute("data-seq")
        form.get_by_role("button", name="Revive forces").click()
        wait_for_answer(page, seq)
        refused = page.locator("form[data-action=revive_forces]")
        assert "Atreides has only 0 normal and 0 special forces in the tanks" in refused.inner_text()
        assert refused.get_by_label("Forces").input_value() == "1"  # what the judge typed stays
        assert live.get_attribute("data-seq") == seq

        tanks = _forces(table, "harkonnen")["tanks"]
        refused.get_by_label("Faction").select_option("harkonnen")
        refused.get_by_label("Forces").fill("2")
        refused.get_by_role("button", name="Revive forces").click()
        page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
        assert _forces(table, "harkonnen")["tanks"] == tanks - 2

        page.locator("#bg-forms summary").click()
        flip = page.locator("form[data-action=flip_forces]")
        flip.get_by_label("Territory · sector").select_option("polar_sink")
        flip.get_by_label("They become").select_option("advisors")
        flip.get_by_label("How many").fill("1")
        flip.scroll_into_view_if_needed()
        assert flip.evaluate(IN_VIEW), flip.bounding_box()
        assert no_sideways_scroll(page)
        screenshot(page, f"table-flip-{viewport['width']}")
        seq = live.get_attribute("data-seq")
        flip.get_by_role("button", name="Flip").click()
        page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
        rows = Game.objects.get(table=table).position["forces"]
        sink = next(r for r in rows if r["faction"] == "bene_gesserit" and r["territory"] == "polar_sink")
        assert (sink["normal"], sink["advisors"]) == (0, 1)
        assert no_sideways_scroll(page)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_the_judge_places_an_ambassador_and_ships_a_no_field_token(
    new_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any,
    viewport: dict[str, int],
) -> None:
    """LoLV 2.11.05 (an Ambassador refused in the storm, then placed) and 2.10.10 (No-Field)."""
    from tests.gameplay.test_expansion_pieces_page import expansion_table

    judge = make_user("judge1")
    table = expansion_table(judge)  # turn 1's shipment and movement; the storm in sector 10
    with judge_page(new_page, viewport, sign_in, live_server, password, table) as page:
        live = page.locator("#table-live")
        # Ambassadors are placed in shipment and movement (2.11.05): their fold is open in it.
        assert page.locator("#ecaz-forms").evaluate("d => d.open")
        form = page.locator("form[data-action=place_ambassador]")
        form.get_by_label("Stronghold").select_option("carthag")
        form.get_by_label("Token").select_option("atreides")
        form.scroll_into_view_if_needed()
        assert form.evaluate(IN_VIEW), form.bounding_box()
        assert no_sideways_scroll(page)
        seq = live.get_attribute("data-seq")
        form.get_by_role("button", name="Place Ambassador").click()
        wait_for_answer(page, seq)
        refused = page.locator("form[data-action=place_ambassador]")
        assert "2.11.05" in refused.inner_text()
        assert refused.get_by_label("Token").input_value() == "atreides"  # what the judge chose stays
        refused.get_by_label("Stronghold").select_option("tueks_sietch")
        refused.get_by_role("button", name="Place Ambassador").click()
        page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
        assert Game.objects.get(table=table).position["ambassadors"] == {"tueks_sietch": "atreides"}
        assert "Tuek's Sietch: Atreides" in page.locator("#ecaz-forms").inner_text()

        page.locator("#richese-forms summary").click()
        ship = page.locator("form[data-action=place_no_field]")
        ship.get_by_label("Territory · sector").select_option("the_great_flat@14")
        ship.scroll_into_view_if_needed()
        assert ship.evaluate(IN_VIEW), ship.bounding_box()
        screenshot(page, f"table-expansion-{viewport['width']}")
        seq = live.get_attribute("data-seq")
        ship.get_by_role("button", name="Ship No-Field").click()
        page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
        assert "A No-Field token lies in The Great Flat (sector 14)." in page.locator("#richese-forms").inner_text()
        assert no_sideways_scroll(page)
