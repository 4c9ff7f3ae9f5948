"""Browser, phone (390×844): the moves the rules allow beyond the movement, each recorded from
the move form's "How": a Fremen worm ride once a worm has appeared (AH VII.A.2.b, WBC VII.6)
and a Guild cross-planet shipment (AH IX.C.1.g.ii, WBC IX.18). Each is offered where its rule
allows it and not elsewhere."""

from __future__ import annotations

from typing import Any

from gameplay.models import Game, GameEvent
from tests.e2e.test_table_put_back import wait_for_answer
from tests.e2e.test_table_venue import open_table
from tests.gameplay.full_game import BEFORE_THE_STORM, STORM, final_table, record


def _move(page: Any, faction: str, how: str, src: str, dst: str, count: str) -> Any:
    form = page.locator("form[data-action=move_forces]")
    form.scroll_into_view_if_needed()
    form.get_by_label("Faction").select_option(faction)
    form.get_by_label("How").select_option(how)
    form.get_by_label("From").select_option(src)
    form.get_by_label("To").select_option(dst)
    form.get_by_label("Forces", exact=True).fill(count)
    seq = page.locator("#table-live").get_attribute("data-seq")
    form.get_by_role("button", name="Move forces", exact=True).click()
    wait_for_answer(page, seq)
    return seq


def test_the_fremen_ride_a_worm_from_the_move_form(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    # Turn 1's Spice Blow turns the Minor Erg over on discard pile A.
    blow = [{"type": "phase_advanced", "phase": "spice_blow"}, {"type": "spice_blow", "territory": "the_minor_erg"}]
    turn_1 = BEFORE_THE_STORM[:2] + blow + BEFORE_THE_STORM[2:]
    record(table, judge, turn_1 + [STORM, {"type": "phase_advanced", "phase": "spice_blow"}])
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.locator("#forces-forms summary").first.evaluate("s => s.parentElement.open = true")
    # No worm yet: the move form asks nothing of a worm ride.
    assert "Fremen ride the worm" not in page.locator("form[data-action=move_forces]").inner_text()
    # Turn 2's first card goes on pile A: a worm appears in the territory on top of it
    # (AH VII.A.2, LoLV 1.13.02.01): its form starts there.
    worm = page.locator("form[data-action=worm]")
    worm.scroll_into_view_if_needed()
    assert worm.get_by_label("Worm in (optional)").input_value() == "the_minor_erg"
    assert "The Minor Erg" in worm.get_by_label("Worm in (optional)").locator("option:checked").inner_text()
    seq = page.locator("#table-live").get_attribute("data-seq")
    worm.get_by_role("button", name="Record worm").click()
    wait_for_answer(page, seq)
    assert GameEvent.objects.filter(game__table=table, type="worm").get().body["territory"] == "the_minor_erg"
    page.locator("#forces-forms").evaluate("d => d.open = true")
    seq = _move(page, "fremen", "worm", "sietch_tabr@13", "broken_land@11", "3")
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
    screenshot(page, "table-worm-ride")
    ride = GameEvent.objects.filter(game__table=table, type="forces_moved").get()
    assert ride.body["via"] == "worm" and ride.body["faction"] == "fremen" and ride.body["normal"] == 3


def test_the_guild_ships_from_one_territory_to_another_from_the_move_form(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM[:3])  # turn 1, shipment and movement; the storm in sector 10
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.locator("#forces-forms").evaluate("d => d.open = true")
    how = page.locator("form[data-action=move_forces]").get_by_label("How")
    assert "Guild cross-planet shipment (AH IX.C.1.g.ii)" in how.inner_text()
    seq = _move(page, "guild", "cross_ship", "tueks_sietch@4", "the_great_flat@14", "2")
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
    screenshot(page, "table-guild-cross-ship")
    ship = GameEvent.objects.filter(game__table=table, type="forces_moved").get()
    assert ship.body["via"] == "cross_ship" and ship.body["to_territory"] == "the_great_flat"


def test_a_spice_card_turned_up_in_the_storm_is_recorded_with_no_spice(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    """AH VII.A.1: the Great Flat's card turns up with its sector (14) in the storm."""
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM + [STORM, {"type": "phase_advanced", "phase": "spice_blow"}])
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    form = page.locator("form[data-action=spice_blow]")
    form.scroll_into_view_if_needed()
    form.get_by_label("Card turned over").select_option("the_great_flat")
    amount = form.get_by_label("Spice (blank: as printed on the card", exact=False)
    amount.fill("10")
    seq = page.locator("#table-live").get_attribute("data-seq")
    form.get_by_role("button", name="Place the spice", exact=True).click()
    wait_for_answer(page, seq)
    error = page.locator("#err-spice_blow-amount")
    assert "in the storm" in error.inner_text() and "record 0 spice" in error.inner_text()
    form = page.locator("form[data-action=spice_blow]")
    form.get_by_label("Spice (blank: as printed on the card", exact=False).fill("0")
    form.get_by_role("button", name="Place the spice", exact=True).click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
    screenshot(page, "table-spice-card-in-storm")
    blow = GameEvent.objects.get(game__table=table, type="spice_blow")
    assert blow.body["territory"] == "the_great_flat" and blow.body["amount"] == 0
    assert not Game.objects.get(table=table).position.get("spice_on_board")


def test_a_bg_token_goes_into_a_stronghold_of_two_once_its_coexistence_is_recorded(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    """AH IX.C.1.d, XIV.B with WBC XV.7: the BG's token may go into Arrakeen, held by the
    Atreides and the Emperor, to coexist there; the refusal says to record the coexistence."""
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, [*BEFORE_THE_STORM[:3],
                          {"type": "forces_placed", "faction": "emperor", "territory": "arrakeen", "sector": 9,
                           "normal": 2}])
    page = phone_page
    open_table(page, sign_in, live_server, password, table)

    def ship() -> str:
        place = page.locator("form[data-action=place_forces]")
        place.get_by_label("Faction").select_option("bene_gesserit")
        place.get_by_label("Territory · sector").select_option("arrakeen@9")
        place.get_by_label("Forces", exact=True).fill("1")
        seq = page.locator("#table-live").get_attribute("data-seq")
        place.get_by_role("button", name="Place forces", exact=True).click()
        wait_for_answer(page, seq)
        return seq

    ship()
    refusal = page.locator("#refusal").inner_text()
    assert "record their coexistence in Arrakeen first" in refusal, refusal
    page.locator("#pending li").get_by_role("button", name="Discard").click()
    page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '0'")
    page.locator("#bg-forms").evaluate("d => d.open = true")
    coexist = page.locator("form[data-action=declare_coexistence]")
    coexist.get_by_label("Coexisting in").select_option("arrakeen")
    seq = page.locator("#table-live").get_attribute("data-seq")
    coexist.get_by_role("button", name="Record coexistence").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
    seq = ship()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
    screenshot(page, "table-bg-coexists-in-a-stronghold-of-two")
    placed = GameEvent.objects.filter(game__table=table, type="forces_placed").order_by("seq").last()
    assert placed.body["faction"] == "bene_gesserit" and placed.body["territory"] == "arrakeen"
