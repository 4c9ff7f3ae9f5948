"""Browser, phone (390×844): the battle form records what the rules allow beyond the plans'
basics. At a LoLV table the second expansion's battle cards are offered (Mirror Weapon,
Portable Snooper, Stone Burner: 3.02.04, 3.02.07, 3.02.10) and the Stone Burner's choice to
kill both leaders is recorded; at a WBC table they are not offered. A winner's losses are
recorded "in any manner" (AH X.C.6): how many and from which sectors."""

from __future__ import annotations

from typing import Any

from gameplay.models import GameEvent
from tests.e2e.test_table_venue import open_table
from tests.gameplay.full_game import final_table, record
from tests.gameplay.test_expansion_pieces_page import expansion_table


def _record_battle(page: Any) -> None:
    seq = page.locator("#table-live").get_attribute("data-seq")
    page.locator("#next form[data-action=battle]").get_by_role("button", name="Record the battle").first.click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{int(seq) + 1}'")


def test_a_lolv_battle_with_the_stone_burner_is_recorded_from_the_form(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = expansion_table(judge)  # LoLV, turn 1's shipment and movement
    record(table, judge, [
        {"type": "forces_placed", "faction": "harkonnen", "territory": "arrakeen", "sector": 9, "normal": 3},
        {"type": "phase_advanced", "phase": "battle"},
    ])
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    form = page.locator("#next form[data-action=battle]")
    weapons = form.get_by_label("Weapon").first.inner_text()
    for card in ("Mirror Weapon", "Stone Burner"):
        assert card in weapons, weapons
    assert "Portable Snooper" in form.get_by_label("Defense").first.inner_text()
    side = form.locator("fieldset.battle-side", has_text="Atreides")
    side.get_by_label("Weapon").select_option("stone_burner")
    side.get_by_label("Dial").fill("1")
    side.get_by_label("Stone Burner kills both leaders", exact=False).check()
    screenshot(page, "table-battle-stone-burner")
    _record_battle(page)
    battle = GameEvent.objects.get(game__table=table, type="battle").body
    atreides = battle["aggressor"] if battle["aggressor"]["faction"] == "atreides" else battle["defender"]
    assert atreides["weapon"] == "stone_burner" and atreides["stone_burner_kill"] is True


def test_a_wbc_winner_s_losses_in_any_manner_are_recorded_and_the_lolv_cards_are_not_offered(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    from tests.gameplay.test_battle_api import TO_BATTLE

    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_BATTLE)
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    form = page.locator("#next form[data-action=battle]")
    assert "Stone Burner" not in form.get_by_label("Weapon").first.inner_text()
    harkonnen = form.locator("fieldset.battle-side", has_text="Harkonnen")
    atreides = form.locator("fieldset.battle-side", has_text="Atreides")
    harkonnen.get_by_label("Leader").select_option("harkonnen|feyd_rautha")
    atreides.get_by_label("Leader").select_option("atreides|duncan_idaho")
    atreides.get_by_label("Dial").fill("2")
    harkonnen.get_by_label("Dial").fill("1")
    losses = form.locator("details.winner-losses", has_text="If Atreides wins")
    losses.locator("summary").click()
    losses.get_by_label("Forces lost").fill("2")
    losses.get_by_label("From sectors, in order (blank: lowest first)").fill("9")
    screenshot(page, "table-battle-winner-losses")
    _record_battle(page)
    battle = GameEvent.objects.get(game__table=table, type="battle").body
    assert battle["defender"]["faction"] == "atreides"
    assert battle["defender"]["lost_normal"] == 2 and battle["defender"]["lost_sectors"] == [9]
