"""Browser, phone (390×844): the turn leads the judge. An ordinary quick-tracked turn (the storm
moves, no worm, no alliance change, the stronghold grid unchanged, the win attempts the engine
proposes confirmed) takes at most 7 taps, each answered in place without a page load."""

from __future__ import annotations

from typing import Any

from gameplay.models import Game, GameEvent
from tests.e2e.test_table_venue import open_table, seeded_table

MOST_TAPS = 7


def test_an_ordinary_quick_tracked_turn_takes_at_most_7_taps(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    # Turn 7 opens (storm phase): the Atreides and Fremen are allied and hold three strongholds.
    table = seeded_table(judge, until="turn_advanced", occurrence=6)
    game = Game.objects.get(table=table)
    seq = game.seq
    assert game.position["turn"] == 7
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url))
    taps = 0

    def tap(locator: Any) -> None:
        nonlocal taps
        before = page.locator("#table-live").get_attribute("data-seq")
        locator.click()
        taps += 1
        page.wait_for_function(
            "([seq]) => { const live = document.getElementById('table-live');"
            " return live.dataset.seq !== seq || live.querySelector('#refusal, #stale'); }",
            arg=[before],
        )
        assert not page.locator("#refusal, #stale").count(), page.locator("#pinned").inner_text()

    next_step = page.locator("#next")
    assert "how far does the storm move" in next_step.inner_text()
    page.get_by_label("Move storm by (sectors)").fill("3")  # the one typed number
    tap(next_step.get_by_role("button", name="Move storm"))
    tap(next_step.get_by_role("button", name="No worm: battle phase"))
    assert "who stands in the strongholds" in next_step.inner_text()
    tap(page.locator("#quick").get_by_role("button", name="Record strongholds"))  # unchanged grid
    while page.locator("#attempts form.proposal").count():
        tap(page.locator("#attempts form.proposal").first.get_by_role("button", name="Confirm win attempt"))
    tap(next_step.get_by_role("button", name="Mentat Pause"))
    screenshot(page, "table-turn-mentat-pause")
    tap(page.locator("#next").get_by_role("button", name="Next turn (8)"))

    assert taps <= MOST_TAPS, taps
    assert loads == []  # every tap answered in place
    recorded = [e.type for e in GameEvent.objects.filter(game__table=table, seq__gt=seq).order_by("seq")]
    assert recorded[0] == "storm_moved" and recorded[-1] == "turn_advanced"
    assert recorded.count("phase_advanced") == 2 and recorded.count("quick_record") == 1
    assert page.locator("#phase").inner_text() == "Storm" and page.locator("#turn").inner_text() == "8"
