"""Browser, phone viewport (390×844): a table judge keeps a game's record and files its report;
a second session's stale write is refused and shown."""

from __future__ import annotations

from typing import Any

from gameplay import services
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.recorded_game import recorded_game

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")


def seeded_table(judge: Any) -> Any:
    """A WBC heat table recorded up to the start of turn 2 (storm phase)."""
    tournament = make_tournament(format="wbc")
    tournament.table_judges.add(judge)
    table = seat_table(make_round(tournament), make_players(tournament, 6), factions=SIX, judge=judge)
    services.game_for(table)
    seq = 1
    for event in recorded_game():
        services.append_event(table, event, expected_seq=seq, user=judge)
        seq += 1
        if event["type"] == "turn_advanced":
            break
    return table


def submit(page: Any, action: str, button: str) -> None:
    """Submit a form in place and wait until the page answered (recorded, refused or stale)."""
    live = page.locator("#table-live")
    before = live.get_attribute("data-seq")
    page.locator(f"form[data-action={action}]").get_by_role("button", name=button).first.click()
    page.wait_for_function(
        "([seq]) => { const live = document.getElementById('table-live');"
        " return live.dataset.seq !== seq || live.querySelector('#refusal, #stale'); }",
        arg=[before],
    )


def test_table_judge_records_a_turn_and_files_the_report(
    phone_page: Any, second_page: Any, live_server: Any, make_user: Any, head_judge: Any, password: str,
    sign_in: Any, screenshot: Any,
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge)
    url = f"{live_server.url}/tables/{table.pk}/"
    page = phone_page
    sign_in(page, "judge1", password)
    page.goto(url)
    assert page.locator("#phase").inner_text() == "Storm"
    sign_in(second_page, "head", password)
    second_page.goto(url)

    # The storm moves three sectors (AH VI.C).
    page.get_by_label("Move storm by (sectors)").fill("3")
    submit(page, "move_storm", "Move storm")
    assert "Recorded: storm moved" in page.locator("#pinned").inner_text()
    screenshot(page, "table-phone-storm")

    # The second session still shows the old record number: its write is refused and explained.
    second_page.get_by_label("Move storm by (sectors)").fill("2")
    submit(second_page, "move_storm", "Move storm")
    # The conflict box says it once, in view (the page's own stale notice is not repeated).
    stale = second_page.locator("#conflict")
    stale.wait_for()
    assert stale.is_visible() and not second_page.locator("#stale").count()
    assert "Not sent: the game moved on" in stale.inner_text()
    assert "The storm moved" in stale.inner_text() and "judge1" in stale.inner_text()
    screenshot(second_page, "table-phone-stale")

    # Spice blow, a worm, and the nexus it opens: the Atreides and Fremen ally.
    page.locator("#phase-select").select_option("spice_blow")
    submit(page, "advance_phase", "Advance phase")
    submit(page, "worm", "Record worm")
    assert page.locator("#worms").inner_text() == "1"
    nexus = page.locator("form[data-action=form_alliance]")
    nexus.get_by_label("Atreides").check()
    nexus.get_by_label("Fremen").check()
    submit(page, "form_alliance", "Form alliance")
    assert "Fremen" in page.locator("tr.f-atreides .ally").inner_text()  # the ally under the name

    # Battle phase: who stands in the strongholds (quick tracking).
    page.locator("#phase-select").select_option("battle")
    submit(page, "advance_phase", "Advance phase")
    for cell in ("Atreides in Arrakeen", "Atreides in Tuek's Sietch", "Fremen in Sietch Tabr",
                 "Fremen in Habbanya Sietch", "Harkonnen in Carthag"):
        page.get_by_label(cell).check()
    for cell in ("Guild in Tuek's Sietch", "Emperor in Habbanya Sietch"):
        page.get_by_label(cell).uncheck()
    submit(page, "quick_record", "Record strongholds")
    assert page.locator(".control").inner_text().count("Atreides") == 2

    # The engine sees the alliance's win attempt (LoLV 4.01.04); the judge confirms it.
    proposal = page.locator("form.proposal[data-action=confirm_win_attempt]")
    assert "Atreides & Fremen" in proposal.inner_text()
    proposal.get_by_label("Note").fill("four strongholds")
    submit(page, "confirm_win_attempt", "Confirm win attempt")
    assert "Recorded: win attempt confirmed" in page.locator("#pinned").inner_text()
    screenshot(page, "table-phone-win-attempt")

    # Mentat Pause: the engine names the winners; the judge confirms the victory.
    page.locator("#phase-select").select_option("mentat_pause")
    submit(page, "advance_phase", "Advance phase")
    submit(page, "claim_victory", "Confirm victory")
    assert "Game over" in page.locator(".outcome").inner_text()

    # The report, prefilled from the position, is filed through scoring.
    page.get_by_role("link", name="File the game report").click()
    page.wait_for_load_state()
    assert page.locator("#rp-ended").input_value() == "victory"
    screenshot(page, "table-phone-report")
    page.get_by_label("I checked every row with the players: file and lock this report.").check()
    page.get_by_role("button", name="File the report").click()
    page.wait_for_load_state()
    assert "Filed." in page.locator(".messages").inner_text()

    from scoring.models import GameReport

    report = GameReport.objects.get(table=table)
    assert report.locked
    winners = {r["player"] for r in report.data["results"] if r["result"] == "allied_stronghold"}
    assert winners == {s.player_id for s in table.seats.filter(faction__in=["atreides", "fremen"])}
    # Nothing of the page overflows the phone's width.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
