"""Browser, phone (390×844): the table page's guidance says what to do. A faction holding
what wins gets the Mentat Pause as the main button, not another turn; a blank collection is
refused with what to enter; a battle queued offline is labelled as the battle; three factions
allying at a WBC heat of six are asked whether the table agreed at the start (WBC house rules);
the Hidden Mobile Stronghold is not offered at a table without the Ixians."""

from __future__ import annotations

from typing import Any

from gameplay import services
from gameplay.models import GameEvent
from tests.e2e.test_table_put_back import wait_for_answer
from tests.e2e.test_table_venue import open_table, seeded_table
from tests.gameplay.full_game import BEFORE_THE_STORM, final_table, record

HARKONNEN_HOLDS_THREE = {"arrakeen": ["harkonnen"], "carthag": ["harkonnen"], "tueks_sietch": ["harkonnen"],
                         "sietch_tabr": ["fremen"], "habbanya_sietch": ["emperor"]}


def test_a_faction_holding_three_strongholds_is_led_to_the_mentat_pause_not_another_turn(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="phase_advanced", occurrence=9)  # turn 3's battle phase (quick)
    seq = services.read_game(table).seq
    for event in ({"type": "quick_record", "occupants": HARKONNEN_HOLDS_THREE, "coexisting": [], "storm": None,
                   "worms": None},
                  {"type": "win_attempt_confirmed", "factions": ["harkonnen"], "note": ""}):
        seq = services.append_event(table, event, expected_seq=seq, user=judge).seq
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    main = page.locator("#next [data-next-control]").first
    assert main.inner_text().strip() == "Mentat Pause: Harkonnen win"
    assert "Nobody wins" not in page.locator("#next").inner_text()
    screenshot(page, "table-victory-stands-main-button")
    main.click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 1}'")
    assert page.locator("#next").get_by_role("button", name="Confirm victory").count() == 1


def test_a_blank_collection_is_refused_with_what_to_enter(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, [*BEFORE_THE_STORM[:2], {"type": "phase_advanced", "phase": "spice_blow"},
                          {"type": "spice_blow", "territory": "the_minor_erg"},
                          {"type": "phase_advanced", "phase": "spice_collection"}])
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    form = page.locator("form[data-action=collect_spice]")
    form.get_by_label("Faction").select_option("atreides")
    form.get_by_label("From").select_option("the_minor_erg")
    seq = page.locator("#table-live").get_attribute("data-seq")
    form.get_by_role("button", name="Collect spice").click()
    wait_for_answer(page, seq)
    refusal = page.locator("#refusal").inner_text()
    assert "is required" not in refusal and "enter the spice collected" in refusal, refusal


def test_a_battle_queued_offline_is_labelled_as_the_battle(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    from tests.gameplay.test_battle_api import TO_BATTLE

    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_BATTLE)
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.context.set_offline(True)
    page.locator("#offline-banner").wait_for()
    form = page.locator("#next form[data-action=battle]")
    form.get_by_label("Leader").first.select_option("harkonnen|feyd_rautha")
    form.get_by_label("Leader").nth(1).select_option("atreides|duncan_idaho")
    form.get_by_label("Dial").first.fill("2")
    form.get_by_label("Dial").nth(1).fill("1")
    form.get_by_role("button", name="Show the engine's resolution").click()
    page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '1'")
    waiting = page.locator("#pending li").inner_text()
    assert "Record the battle" in waiting and "resolution" not in waiting, waiting
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '0'")
    assert GameEvent.objects.filter(game__table=table, type="battle").count() == 1


def test_three_factions_allying_at_a_heat_of_six_are_asked_whether_the_table_agreed(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="worm")  # turn 2's worm at a WBC heat of six: a nexus is open
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    nexus = page.locator("form[data-event-type=alliance_formed]")
    for name in ("Atreides", "Fremen", "Emperor"):
        nexus.get_by_label(name).check()
    seq = page.locator("#table-live").get_attribute("data-seq")
    nexus.get_by_role("button", name="Form alliance").click()
    wait_for_answer(page, seq)
    error = page.locator("#err-form_alliance-consent")
    assert "agreed at the start of the game" in error.inner_text()
    assert not GameEvent.objects.filter(game__table=table, type="alliance_formed").exists()
    screenshot(page, "table-three-faction-alliance-asks")
    nexus = page.locator("form[data-event-type=alliance_formed]")
    nexus.get_by_label("Three allies: all agreed at the start of the game").check()
    nexus.get_by_role("button", name="Form alliance").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")
    formed = GameEvent.objects.get(game__table=table, type="alliance_formed")
    assert sorted(formed.body["factions"]) == ["atreides", "emperor", "fremen"]


def test_the_hidden_mobile_stronghold_is_not_offered_without_the_ixians(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM[:3])
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    options = page.locator("form[data-action=move_forces]").get_by_label("To").inner_text()
    assert "Arrakeen" in options and "Hidden Mobile Stronghold" not in options
