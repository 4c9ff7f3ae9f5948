"""On a phone (390×844): every word of the projector timer is at least 12 px (a judge holding the
timer page in a hand reads its note as well as the wall does), and a player page with a board
picture does not scroll sideways (its labels' sizes: tests/e2e/test_board_label_sizes.py)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from clocks import services
from tests.clocks.conftest import seated

pytestmark = pytest.mark.django_db(transaction=True)

SMALLEST_TEXT = """() => [...document.querySelectorAll('main *')]
  .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) && e.getClientRects().length)
  .map(e => [parseFloat(getComputedStyle(e).fontSize), e.className || e.tagName, e.textContent.trim().slice(0, 40)])
  .sort((a, b) => a[0] - b[0])"""


def test_the_projector_timer_note_is_readable_on_a_phone(
    phone_page: Any, live_server: Any, head_judge: Any, password: str, sign_in: Any
) -> None:
    round_ = seated(format="wbc", size=6, tables=1)
    round_.tournament.head_judges.add(head_judge)
    services.start(round_.tables.get(), user=head_judge)
    sign_in(phone_page, head_judge.username, password)
    phone_page.goto(f"{live_server.url}/rounds/{round_.pk}/timer/")
    expect(phone_page.locator("[data-timer-no-new-turn]")).to_be_visible()
    sizes = phone_page.evaluate(SMALLEST_TEXT)
    assert sizes and sizes[0][0] >= 12, sizes[:3]


def test_the_player_page_with_a_board_picture_does_not_scroll_sideways_on_a_phone(
    phone_page: Any, live_server: Any, head_judge: Any
) -> None:
    from django.utils import timezone

    from scoring import services as scoring
    from tests.scoring.db.conftest import report_for

    round_ = seated(format="wbc", size=6, tables=1)
    table = round_.tables.get()
    type(table).objects.filter(pk=table.pk).update(game_started_at=timezone.now())
    table.refresh_from_db()
    scoring.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    player = table.seats.order_by("seat").first().player
    phone_page.goto(f"{live_server.url}/tournaments/{round_.tournament.pk}/players/{player.pk}/")
    picture = phone_page.locator(".game-board-thumb img")
    expect(picture).to_have_count(1)
    width = phone_page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    # The picture (520 units wide) is drawn large enough to read inside a frame held to the
    # column by the board's styles, whether or not it has loaded yet (this game has no recorded
    # position to draw).
    frame = phone_page.locator(".game-board-thumb")
    assert frame.evaluate("(e) => getComputedStyle(e).overflowX") == "auto"
    box = frame.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, box
