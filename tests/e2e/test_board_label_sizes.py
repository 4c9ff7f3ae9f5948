"""On a phone (390×844) every word and number of the board picture is drawn at 12 px or more: on
the table judge's page (the board in its frame the judge pans) and on a player's page (the
picture of a game's final position), the page itself never scrolling sideways."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from gameplay import services
from scoring import services as scoring
from tests.board.golden import WBC, golden_table

pytestmark = pytest.mark.django_db(transaction=True)

#: Each visible text of an inline board: its size on the screen (its font size in the picture's
#: units times the picture's scale), smallest first.
INLINE_SIZES = """(svg) => [...svg.querySelectorAll('text')]
  .filter(t => t.textContent.trim() && t.getClientRects().length)
  .map(t => [parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a, t.textContent.trim().slice(0, 30)])
  .sort((a, b) => a[0] - b[0])"""

#: The same for a board shown as a picture (<img>): the picture's document is read, drawn at its
#: own width out of sight to know each text's size in its units, then scaled to the <img>'s width.
PICTURE_SIZES = """async (img) => {
  const source = await (await fetch(img.currentSrc || img.src, { credentials: 'same-origin' })).text();
  const svg = new DOMParser().parseFromString(source, 'image/svg+xml').documentElement;
  const units = svg.viewBox.baseVal.width;
  svg.setAttribute('width', units);
  const holder = document.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.position = 'absolute';
  holder.style.left = '-20000px';
  holder.append(document.importNode(svg, true));
  document.body.append(holder);
  const scale = img.getBoundingClientRect().width / units;
  const sizes = [...holder.querySelectorAll('text')].filter(t => t.textContent.trim())
    .map(t => [parseFloat(getComputedStyle(t).fontSize) * scale, t.textContent.trim().slice(0, 30)])
    .sort((a, b) => a[0] - b[0]);
  holder.remove();
  return sizes;
}"""


def test_board_labels_are_12_px_or_more_on_the_table_and_player_pages_of_a_phone(
    phone_page: Any, live_server: Any, head_judge: Any, screenshot: Any
) -> None:
    table = golden_table(WBC)
    page = phone_page
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.locator("#board-fold > summary").click()
    board = page.locator("#board-panel svg.dune-board")
    expect(board).to_be_visible()
    sizes = board.evaluate(INLINE_SIZES)
    kinds = {text for _, text in sizes}
    assert len(sizes) > 40 and "Carthag" in " ".join(kinds), sizes[:5]  # territory names, sectors, stacks
    assert sizes[0][0] >= 12, sizes[:5]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # A player's page: the picture of the game's final position, once its report is filed.
    type(table).objects.filter(pk=table.pk).update(game_started_at=timezone.now())
    table.refresh_from_db()
    scoring.file_report(table, services.prefill_report(table), user=head_judge)
    player = table.seats.order_by("seat").first().player
    page.goto(f"{live_server.url}/tournaments/{table.round.tournament_id}/players/{player.pk}/")
    picture = page.locator(".game-board-thumb img")
    expect(picture).to_have_count(1)
    picture.scroll_into_view_if_needed()
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=picture.element_handle())
    sizes = picture.evaluate(PICTURE_SIZES)
    assert len(sizes) > 40 and sizes[0][0] >= 12, sizes[:5]
    frame = page.locator(".game-board-thumb").bounding_box()
    assert frame is not None and frame["x"] >= 0 and frame["x"] + frame["width"] <= 390, frame
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "player-page-board-phone")
