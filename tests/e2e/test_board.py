"""Browser: the board. On a phone the table page's board is folded, opens with one tap and
fits 390 px without sideways scrolling; a tapped territory's stacks are read out in words;
the board follows the table in place; the history's replay steps through a whole game with
the board and the record in words side by side."""

from __future__ import annotations

from typing import Any

from gameplay import services
from gameplay.models import Game
from scoring import services as scoring
from tests.board.golden import LOLV, WBC, golden_table
from tests.e2e.accessibility import serious_violations
from tests.e2e.session import sign_in_by_session

OVERFLOW = """() => [...document.querySelectorAll('#board-panel *:not(g)')]
  .filter(e => e.getClientRects().length && !e.closest('.table-scroll, .board-zoom'))
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map(e => e.tagName + '.' + e.getAttribute('class') + ' ' + (e.textContent || '').slice(0, 50) + ' ' + Math.round(e.getBoundingClientRect().right))"""


def test_table_page_board_folded_on_a_phone_opens_with_one_tap_without_sideways_scroll(
    phone_page: Any, live_server: Any, make_user: Any, screenshot: Any
) -> None:
    table = golden_table(WBC)
    page = phone_page
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    fold = page.locator("#board-fold")
    assert fold.evaluate("d => d.open") is False
    assert not page.locator("#board-panel svg").is_visible()
    page.locator("#board-fold > summary").click()
    assert fold.evaluate("d => d.open") is True
    board = page.locator("#board-panel svg.dune-board")
    board.scroll_into_view_if_needed()
    assert board.is_visible()
    # Drawn large enough to read, inside a frame the judge pans: the frame fits the screen.
    frame = page.locator("#board-panel .board-zoom").bounding_box()
    assert frame is not None and frame["x"] >= 0 and frame["x"] + frame["width"] <= 390 and frame["width"] >= 300
    box = board.bounding_box()
    assert box is not None and box["width"] >= 52 * 16
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(OVERFLOW) == []
    summary = page.locator("#board-fold > summary").bounding_box()
    assert summary is not None and summary["height"] >= 44
    screenshot(page, "board-phone")
    # Tap Carthag: its stacks in words.
    page.locator('#board-panel svg [data-territory="carthag"] path').first.click(force=True)
    pick = page.locator("#board-panel .board-pick")
    assert pick.is_visible()
    assert pick.inner_text().startswith("Carthag")
    assert "Harkonnen" in pick.inner_text()
    assert serious_violations(page) == []


def test_the_board_opens_by_itself_on_a_laptop_and_follows_the_table_in_place(
    new_page: Any, live_server: Any, make_user: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = golden_table(LOLV, judge=judge)
    page = new_page(viewport={"width": 1366, "height": 900}, locale="en-US", timezone_id="UTC")
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.wait_for_function("() => document.getElementById('board-fold').open", polling=50)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    seq = Game.objects.get(table=table).seq
    assert page.locator("#board-panel .board-body").get_attribute("data-seq") == str(seq)
    screenshot(page, "board-laptop")
    # Another judge records: the live part refreshes and the board with it, in place.
    services.append_event(table, {"type": "void", "seq": seq, "reason": "typed twice"}, expected_seq=seq, user=judge)
    page.evaluate("() => htmx.ajax('GET', document.getElementById('table-live').dataset.page,"
                  " {target: '#table-live', swap: 'outerHTML'})")
    page.wait_for_function(
        f"() => document.querySelector('#board-panel .board-body').dataset.seq === '{seq + 1}'", polling=50)
    assert page.locator("#board-fold").evaluate("d => d.open") is True


def test_history_replay_steps_through_a_whole_game(
    new_page: Any, live_server: Any, head_judge: Any, password: str, screenshot: Any
) -> None:
    table = golden_table(LOLV)
    table.round.tournament.head_judges.add(head_judge)
    last = Game.objects.get(table=table).seq
    page = new_page(viewport={"width": 1366, "height": 900}, locale="en-US", timezone_id="UTC", timeout=10_000)
    sign_in_by_session(page, live_server.url, head_judge.username, password)
    page.goto(f"{live_server.url}/tables/{table.pk}/history/?at=1")
    replay = page.locator("#board-replay")
    assert page.locator("#replay-slot .board-body").get_attribute("data-seq") == "1"
    # Each step swaps the board in from the server: looked for every 50 ms, not every frame.
    for at in range(2, last + 1):
        page.locator("#replay-next").click()
        page.wait_for_function(
            f"() => document.querySelector('#replay-slot .board-body').dataset.seq === '{at}'", polling=50)
        shown = replay.locator("#replay-records li:not([hidden])")
        assert shown.count() == 1 and shown.get_attribute("data-seq") == str(at)
        assert page.locator("#replay-out").inner_text() == f"#{at} of {last}"
    # At the last record, Next stays there; the slider jumps back anywhere.
    page.locator("#replay-next").click()
    assert page.locator("#replay-out").inner_text() == f"#{last} of {last}"
    page.locator("#replay-at").fill("30")
    page.wait_for_function("() => document.querySelector('#replay-slot .board-body').dataset.seq === '30'", polling=50)
    page.locator("#replay-prev").click()
    page.wait_for_function("() => document.querySelector('#replay-slot .board-body').dataset.seq === '29'", polling=50)
    # The board and the record in words side by side.
    board = page.locator("#replay-slot svg").bounding_box()
    words = page.locator("#replay-records li:not([hidden])").bounding_box()
    assert board is not None and words is not None and words["x"] >= board["x"] + board["width"] - 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    assert serious_violations(page) == []
    screenshot(page, "board-replay")


def test_history_replay_on_a_phone_has_no_sideways_scroll(
    phone_page: Any, live_server: Any, head_judge: Any, password: str
) -> None:
    table = golden_table(LOLV)
    table.round.tournament.head_judges.add(head_judge)
    sign_in_by_session(phone_page, live_server.url, head_judge.username, password)
    phone_page.goto(f"{live_server.url}/tables/{table.pk}/history/?at=10")
    box = phone_page.locator("#replay-slot .board-zoom").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    phone_page.locator("#replay-next").click()
    phone_page.wait_for_function("() => document.querySelector('#replay-slot .board-body').dataset.seq === '11'", polling=50)
    assert phone_page.evaluate(
        "() => [...document.querySelectorAll('#board-replay *')].filter(e => !e.closest('.table-scroll, .board-zoom'))"
        ".every(e => e.getBoundingClientRect().right <= window.innerWidth + 1)")


def test_filed_report_prints_with_its_final_position(
    new_page: Any, live_server: Any, head_judge: Any, screenshot: Any
) -> None:
    """The filed report's print: the final position on the page, whole, beside the numbers."""
    table = golden_table(WBC)
    scoring.file_report(table, services.prefill_report(table), user=head_judge)
    page = new_page(viewport={"width": 794, "height": 1123}, locale="en-US", timezone_id="UTC")
    page.goto(f"{live_server.url}/tables/{table.pk}/filed-report/")
    assert serious_violations(page) == []
    page.emulate_media(media="print")
    board = page.locator(".board-final svg.dune-board")
    assert board.is_visible()
    box = board.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 794
    assert page.locator(".board-final .board-stacks tbody tr").count() == 26
    assert page.locator(".site-header").is_hidden()
    screenshot(page, "board-report-print")


def test_room_screen_follows_the_final_board_live(
    new_page: Any, live_server: Any, make_user: Any
) -> None:
    judge = make_user("judge1")
    table = golden_table(LOLV, kind="final", judge=judge)
    seq = Game.objects.get(table=table).seq
    page = new_page(viewport={"width": 1366, "height": 900}, locale="en-US", timezone_id="UTC")
    page.goto(f"{live_server.url}/tournaments/{table.round.tournament.pk}/screen/")
    panel = page.locator(".screen-boards .board-panel")
    assert panel.locator(".board-body").get_attribute("data-seq") == str(seq)
    services.append_event(table, {"type": "void", "seq": seq, "reason": "typed twice"}, expected_seq=seq, user=judge)
    page.wait_for_function(
        f"() => document.querySelector('.screen-boards .board-body').dataset.seq === '{seq + 1}'",
        timeout=25_000, polling=250)  # the screen asks every LIVE_POLL_SECONDS: no need to look every frame
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
