"""Browser, phone (390×844): the bidding round card by card and the collection round in one
tap, from the next step's box. Each card is sold with its winner and price (AH VIII.B.3: paid
to the Emperor), the Harkonnen draw their extra card (AH Harkonnen 2), a card passed by
everyone ends the round (AH VIII.E); at the collection the engine's figures are shown and
recorded in one tap (AH XI.A, XI.C)."""

from __future__ import annotations

from typing import Any

from gameplay.models import Game
from tests.e2e.navigation import reload
from tests.e2e.test_table_put_back import IN_VIEW, wait_for_answer
from tests.e2e.test_table_venue import open_table
from tests.gameplay.full_game import final_table, record

PHONE = {"width": 390, "height": 844}


def test_the_judge_sells_each_card_and_collects_spice_in_one_tap(
    new_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any,
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, [{"type": "phase_advanced", "phase": "storm"}, {"type": "storm_placed", "sector": 10},
                          {"type": "phase_advanced", "phase": "spice_blow"},
                          {"type": "spice_blow", "territory": "the_great_flat"},
                          {"type": "phase_advanced", "phase": "bidding"}])
    page = new_page(viewport=PHONE, locale="en-US", timezone_id="UTC", timeout=10_000)
    open_table(page, sign_in, live_server, password, table)
    live = page.locator("#table-live")
    form = page.locator("#next #bid-form")
    assert "Card 1 of 6 up for bid" in form.inner_text()
    form.locator("input[name=faction][value=harkonnen]").check()
    form.locator("#bid-price").fill("2")
    form.get_by_role("button", name="Card sold").scroll_into_view_if_needed()  # below the charity, in the same box
    assert form.get_by_role("button", name="Card sold").evaluate(IN_VIEW)
    seq = live.get_attribute("data-seq")
    form.get_by_role("button", name="Card sold").click()
    wait_for_answer(page, seq)
    sheets = Game.objects.get(table=table).position["factions"]
    assert sheets["harkonnen"]["cards"] == 4 and sheets["emperor"]["spice"] == 12
    assert "Card 2 of 6 up for bid" in page.locator("#next #bid-form").inner_text()
    seq = live.get_attribute("data-seq")
    page.locator("#next #bid-form button[name=nobody]").click()
    wait_for_answer(page, seq)
    assert "Bidding is over" in page.locator("#next #bid-form").inner_text()

    record(table, judge, [{"type": "phase_advanced", "phase": "shipment_movement"},
                          {"type": "forces_placed", "faction": "harkonnen", "territory": "the_great_flat",
                           "sector": 14, "normal": 3},
                          {"type": "phase_advanced", "phase": "spice_collection"}])
    reload(page)
    harvest = page.locator("#next #harvest-form")
    assert "Harkonnen collects 9 from The Great Flat" in harvest.inner_text()
    before = Game.objects.get(table=table).position["factions"]["harkonnen"]["spice"]
    seq = live.get_attribute("data-seq")
    harvest.get_by_role("button", name="Collect spice", exact=True).click()
    wait_for_answer(page, seq)
    assert Game.objects.get(table=table).position["factions"]["harkonnen"]["spice"] == before + 9 + 2
