"""A tournament from the CSV to the final, as the head judge runs it and everyone reads it: a
CSV that repeats a person by email case, reports filed (their clocks stop), the heat closed, a
dropped finalist and an absent one replaced by an alternate. The public standings, the room
screen at 1920×1080 and the player pages at 390×844 say the same thing about each of them, and
no visible text holds snake_case, a Python repr, or a word broken across lines."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from clocks import services as clocks
from clocks.models import TableClock
from dune import clock_limits as limits
from scoring import services as scoring
from scoring.qualifying import qualifying_order
from tests.factories import make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament import services
from tournament.models import Player, Round

SNAKE = re.compile(r"\b[a-z]+_[a-z][a-z_]*\b")
REPR = re.compile(r"\[\s*'|\{\s*'|\bTrue\b|\bFalse\b|\bNone\b|<[A-Za-z]+ object at")
#: Words split over two lines in the rendered page (a range over each word with two boxes).
#: The body of a closed <details> is not shown (its summary is): Chromium lays it out in a box
#: of no size, one letter a line, so it is measured only once opened.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest('script,style,[hidden],.visually-hidden') || !el.offsetParent) continue;
    if (el.closest('details:not([open])') && !el.closest('summary')) continue;
    const re = /[A-Za-zÀ-ÿ]{4,}/g; let m;
    while ((m = re.exec(node.textContent))) {
      const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


@pytest.fixture
def projector(new_page: Any) -> Any:
    return new_page({"width": 1920, "height": 1080}, locale="en-US", timezone_id="UTC", timeout=10_000)


def _visible_text_is_for_people(page: Any, where: str) -> str:
    text = page.inner_text("body")
    assert not SNAKE.findall(text), (where, SNAKE.findall(text)[:5])
    assert not REPR.findall(text), (where, REPR.findall(text)[:5])
    assert page.evaluate(BROKEN_WORDS) == [], where
    return text


@pytest.mark.django_db(transaction=True)
def test_the_head_judges_truth_from_the_csv_to_the_final(
    page: Any, phone_page: Any, projector: Any, live_server: Any, head_judge: Any
) -> None:
    from django.core.cache import cache

    cache.clear()
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Truth open")
    rows = "".join(f"Player {n:02d},p{n}@example.org,\n" for n in range(1, 13))
    text = "name,email,club\n" + rows + "Paul Again,P1@EXAMPLE.org,\n"
    created, preview = services.import_players(tournament, text, skip_refused=True)
    assert len(created) == 12 and "one person registers once" in preview[-1].errors[0]
    players = list(Player.objects.filter(tournament=tournament).order_by("name"))
    heat = Round.objects.create(tournament=tournament, number=1, kind="heat", state=Round.State.PUBLISHED)
    tables = []
    for n in range(2):
        table = seat_table(heat, players[n * 6 : (n + 1) * 6], number=n + 1)
        clocks.start(table, user=head_judge)
        tables.append(table)
    for n, table in enumerate(tables):
        scoring.file_report(table, report_for(table, {0: "solo_stronghold"}, **{"0": {"strongholds": 5 - n}}), user=head_judge)
    assert set(TableClock.objects.filter(table__round=heat).values_list("state", flat=True)) == {limits.FINISHED}
    services.finish_round(heat, user=head_judge)
    order = qualifying_order(tournament)
    dropped = order.suggested("finalist")[0]
    services.set_status(Player.objects.get(pk=dropped), Player.Status.DROPPED)
    order = qualifying_order(tournament)
    finalists, alternates = order.suggested("finalist"), order.suggested("alternate")
    absent = finalists[1]
    final = Round.objects.create(tournament=tournament, number=2, kind="final")
    services.seat_final_round(final, user=head_judge, finalists=finalists, alternates=alternates, absent=[absent])
    Round.objects.filter(pk=final.pk).update(state=Round.State.PUBLISHED)
    playing_alternate = Round.objects.get(pk=final.pk).alternates_seated[0]
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    expected = {
        dropped: "dropped out",
        absent: "absent from the final",
        playing_alternate: "in the final (came in as an alternate)",
    }
    base = live_server.url

    page.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    standings = _visible_text_is_for_people(page, "standings")
    for pk, words in expected.items():
        row = page.locator(f"#player-{pk}").inner_text()
        assert words in row, (names[pk], row)
    assert "alternate 1" not in page.locator(f"#player-{playing_alternate}").inner_text()
    assert "Paul Again" not in standings

    projector.goto(f"{base}/tournaments/{tournament.pk}/screen/")
    screen = _visible_text_is_for_people(projector, "room screen")
    assert "Running" not in screen
    for pk, words in expected.items():
        if pk != dropped:  # the dropped player is listed as dropped, or not in the final at least
            assert words in projector.locator("table.screen-standings tr", has_text=names[pk]).first.inner_text()

    for pk, words in expected.items():
        phone_page.goto(f"{base}/tournaments/{tournament.pk}/players/{pk}/")
        mine = _visible_text_is_for_people(phone_page, names[pk])
        assert words in mine, (names[pk], mine[:400])
        assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
        assert "Heat 1" not in mine.split("Games")[0] or "Now: Heat 1" not in mine
        if pk == playing_alternate:
            assert "Now: Final" in mine and "alternate 1" not in mine
        else:
            assert "Now:" not in mine


@pytest.mark.django_db(transaction=True)
def test_the_projector_holds_twenty_standings_rows_and_a_round_timer(
    projector: Any, live_server: Any, head_judge: Any
) -> None:
    """At 1920×1080 a standings panel shows all its 20 rows; the round's timer is one big
    countdown with the time-up moment on the wall clock, in the tournament's zone."""
    from django.core.cache import cache

    from tests.factories import make_players

    cache.clear()
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Projector open")
    tournament.time_zone = "America/New_York"
    tournament.save()
    players = make_players(tournament, 30)
    heat = Round.objects.create(tournament=tournament, number=1, kind="heat", state=Round.State.PUBLISHED)
    tables = [seat_table(heat, players[n * 6 : (n + 1) * 6], number=n + 1) for n in range(5)]
    for table in tables[:4]:
        scoring.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    clocks.start(tables[4], user=head_judge)
    base = live_server.url

    projector.goto(f"{base}/tournaments/{tournament.pk}/screen/")
    panel = projector.locator('[data-standings-page="1"]')
    projector.evaluate("""() => document.querySelectorAll('#screen-live [data-panel]').forEach(
        p => { p.hidden = !p.matches('[data-standings-page="1"]'); })""")
    rows = panel.locator("table.screen-standings tbody tr:not(.screen-cut)")
    assert rows.count() == 20
    last = rows.nth(19).bounding_box()
    assert last is not None and last["y"] + last["height"] <= 1080, last
    _visible_text_is_for_people(projector, "standings panel")

    projector.goto(f"{base}/rounds/{heat.pk}/timer/")
    big = projector.locator("[data-timer-remaining]")
    assert re.fullmatch(r"[45]:\d\d:\d\d", big.inner_text().strip()), big.inner_text()
    box = big.bounding_box()
    assert box is not None and box["height"] > 250 and box["y"] + box["height"] <= 1080
    ends = projector.locator(".timer-ends").inner_text()
    assert re.search(r"Time is up at \d\d:\d\d E[DS]T \(America/New York\)", ends), ends
    expect(big).not_to_have_text(big.inner_text())  # it counts down
    _visible_text_is_for_people(projector, "timer")


@pytest.mark.django_db(transaction=True)
def test_a_phone_reads_the_dashboard_the_import_refusal_and_the_standings(
    phone_page: Any, live_server: Any, head_judge: Any, sign_in: Any
) -> None:
    """At 390×844: the dashboard's round links start at the left, an import row's refusal and
    the standings' tiebreak columns can be reached, and no word is broken inside."""
    from tests.conftest import PASSWORD
    from tests.factories import make_players

    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Phone open")
    players = make_players(tournament, 6, prefix="Harkonnen Stronghold")
    heat = Round.objects.create(tournament=tournament, number=1, kind="heat", state=Round.State.PUBLISHED)
    table = seat_table(heat, players)
    scoring.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    Round.objects.create(tournament=tournament, number=2, kind="final")
    base = live_server.url
    sign_in(phone_page, head_judge.username, PASSWORD)

    phone_page.goto(f"{base}/tournaments/{tournament.pk}/")
    _visible_text_is_for_people(phone_page, "dashboard")
    for row in phone_page.locator("table.rounds tbody tr").all():
        first = row.locator("td.links a").first.bounding_box()
        assert first is not None and first["x"] < 60, first
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390 + 1

    phone_page.goto(f"{base}/tournaments/{tournament.pk}/players/import/")
    phone_page.fill("#id_csv", "name,email,club\nLeto Atreides,not-an-email,Caladan\nPaul,paul@example.org,Arrakis,extra\n")
    phone_page.click("button:has-text('Preview')")
    reason = phone_page.locator(".row-refused .field-error").first
    box = reason.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + min(box["width"], 100) <= 390, box
    _visible_text_is_for_people(phone_page, "import preview")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    phone_page.reload()  # the answer to a POST stands for its page: a reload asks for the page again
    assert phone_page.locator(".row-refused").count() == 0 and phone_page.locator("#id_csv").count() == 1

    for where in (f"/rounds/{heat.pk}/", f"/tables/{table.pk}/clock/", f"/tables/{table.pk}/filed-report/"):
        phone_page.goto(base + where)
        _visible_text_is_for_people(phone_page, where)
        assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390 + 1, where

    phone_page.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    _visible_text_is_for_people(phone_page, "standings")
    value = phone_page.locator("table.standings td.tiebreak-value summary").first
    value.click()  # its explanation, read in the sheet at the foot of the screen
    expect(phone_page.locator("details.tiebreak-why[open] .why")).to_be_in_viewport()
    _visible_text_is_for_people(phone_page, "standings, a tiebreak explained")
    value.click()
    last = phone_page.locator("table.standings th.tiebreak-col").last
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= 390 + 1, box
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390 + 1


def test_the_broken_word_check_sees_a_word_broken_inside_and_only_what_is_shown(phone_page: Any) -> None:
    """A word cut mid-way by a narrow box is found, once it is shown: a closed <details> body
    is not, until it is opened; words wrapping between them are not broken."""
    word = "Stronghold"
    narrow = f'<p style="width: 3ch; word-break: break-all">{word}</p>'
    phone_page.set_content(
        f'<main><p style="width: 12ch">Harkonnen holds Carthag and Arrakeen</p>{narrow}'
        f"<details><summary>Why</summary>{narrow}</details></main>"
    )
    assert phone_page.evaluate(BROKEN_WORDS) == [word]
    phone_page.click("summary")
    expect(phone_page.locator("details[open]")).to_have_count(1)
    assert phone_page.evaluate(BROKEN_WORDS) == [word, word]
