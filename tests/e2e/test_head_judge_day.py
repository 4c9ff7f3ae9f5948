"""A head judge's day and the players' pages in Chromium, at a phone's (390x844) and a laptop's
(1366x900) size: seating the final by name, one round state everywhere, the desk on a phone,
pages of people, the CSV import's links, series, the room screen, local times, and words (not
codes) on the player page and standings."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.session import sign_in_by_session
from tests.e2e.shared_rows import SharedRows
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db(transaction=True)

VIEWS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}
FITS = "document.documentElement.scrollWidth <= window.innerWidth"
WIDE = (
    "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)"
    ".slice(0, 6).map(e => e.tagName + '.' + e.className)"
)
#: Headings (th) whose text was broken inside a word: more lines than words.
BROKEN_HEADINGS = """
[...document.querySelectorAll('th')].filter(th => th.offsetParent !== null).filter(th => {
  const words = th.innerText.trim().split(/\\s+/).filter(Boolean);
  const range = document.createRange(); range.selectNodeContents(th);
  const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
  return words.length && tops.size > words.length;
}).map(th => th.innerText)
"""
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
DOTTED_TUPLE = re.compile(r"\b\d+(?:\.\d+){3,}\b")


@pytest.fixture(params=list(VIEWS))
def view(request: Any) -> str:
    return str(request.param)


def _open(new_page: Any, base: str, view: str, *, password: str | None = None, user: str = "head") -> Any:
    """A page at the view's size, signed in as `user` if a password is given (by session: the
    sign-in form is tested on its own)."""
    page = new_page(VIEWS[view], locale="en-US", timezone_id="UTC", timeout=10_000)
    if password:
        sign_in_by_session(page, base, user, password)
    return page


@pytest.fixture
def judge_page(request: Any, new_page: Any, live_server: Any, view: str, password: str, head_judge: Any) -> Any:
    if "event" in request.fixturenames:
        request.getfixturevalue("event")  # its rows replace every row: before signing in
    return _open(new_page, live_server.url, view, password=password)


@pytest.fixture
def public_page(new_page: Any, live_server: Any, view: str) -> Any:
    return _open(new_page, live_server.url, view)


@pytest.fixture(scope="module")
def _shared_event(django_db_blocker: Any) -> Any:
    with SharedRows.kept(django_db_blocker) as rows:
        yield rows


@pytest.fixture
def event(_shared_event: Any, head_judge: Any) -> dict[str, Any]:
    """WBC in Las Vegas: 47 players, heat 1 filed at eight tables; heat 2 running (a clock started),
    heat 3 published for tomorrow, the final planned. The winner of table 1 has dropped. Built
    once per test process (`_build_event`); each test gets the same rows anew (`SharedRows`)."""
    from tournament.models import Player, Round, Tournament

    ids = _shared_event.lend(lambda: _build_event(head_judge))
    players = {p.pk: p for p in Player.objects.filter(pk__in=ids["players"])}
    rounds = {r.pk: r for r in Round.objects.filter(pk__in=ids["rounds"])}
    return {
        "tournament": Tournament.objects.get(pk=ids["tournament"]),
        "players": [players[pk] for pk in ids["players"]],
        "rounds": [rounds[pk] for pk in ids["rounds"]],
        "final": rounds[ids["rounds"][-1]],
        "dropped": players[ids["players"][0]],
    }


def _build_event(head_judge: Any) -> dict[str, Any]:
    from rest_framework.test import APIClient

    from tests.factories import make_players, make_round, seat_table
    from tournament.models import Player, Round, Table, Tournament

    tournament = Tournament.objects.create(name="Vegas Dune", format="wbc", time_zone="America/Los_Angeles")
    tournament.head_judges.add(head_judge)
    players = make_players(tournament, 47)
    api = APIClient()
    api.force_authenticate(head_judge)
    heat1 = make_round(tournament, number=1)
    groups = [players[i : i + 6] for i in range(0, 42, 6)] + [players[42:]]
    for number, group in enumerate(groups, start=1):
        table = seat_table(heat1, group, number=number)
        winner = {0: "solo_stronghold"} if number % 2 else {1: "solo_stronghold"}
        answer = api.post(f"/api/tables/{table.pk}/report/", report_for(table, winner), format="json")
        assert answer.status_code in (200, 201), answer.content
    heat2 = make_round(tournament, number=2)
    heat2.starts_at = datetime(2026, 6, 12, 17, 0, tzinfo=UTC)  # 10:00 in Las Vegas
    heat2.save()
    running = seat_table(heat2, players[6:12])
    Table.objects.filter(pk=running.pk).update(clock_started_at=timezone.now())
    heat3 = make_round(tournament, number=3)
    seat_table(heat3, players[12:18])
    final = make_round(tournament, number=4, kind="final", state=Round.State.PLANNED)
    dropped = players[0]
    Player.objects.filter(pk=dropped.pk).update(status=Player.Status.DROPPED)
    return {
        "tournament": tournament.pk,
        "players": [p.pk for p in players],
        "rounds": [r.pk for r in (heat1, heat2, heat3, final)],
    }


def _fits(page: Any) -> None:
    assert page.evaluate(FITS), page.evaluate(WIDE)


def test_seating_the_final_by_name_with_a_heat_unfinished(
    judge_page: Any, live_server: Any, event: dict[str, Any], screenshot: Any, view: str
) -> None:
    from tournament.models import Seat

    page = judge_page
    page.goto(f"{live_server.url}/rounds/{event['final'].pk}/final/")
    warning = page.locator("#heats-unfinished")
    expect(warning).to_be_visible()
    assert "Heat 2 is running" in warning.inner_text() and "Heat 3 is published" in warning.inner_text()
    dropped = event["dropped"].name
    assert page.get_by_label(f"In the final: {dropped}").count() == 0
    assert f"{dropped} (rank 1): dropped out of the tournament" in page.locator(".left-out").inner_text()
    chosen = page.eval_on_selector_all(
        'select[name^="pick_"]', 'els => els.filter(e => e.value === "finalist").map(e => e.labels[0].innerText)'
    )
    assert len(chosen) == 6 and dropped not in chosen
    _fits(page)
    screenshot(page, f"final-by-name-{view}")
    # Swap the sixth suggested finalist for the first alternate, by name.
    alternate = page.eval_on_selector_all(
        'select[name^="pick_"]', 'els => els.filter(e => e.value === "alternate").map(e => e.labels[0].innerText)'
    )[0]
    page.get_by_label(f"In the final: {chosen[-1]}").select_option(label="Not chosen")
    page.get_by_label(f"In the final: {alternate}").select_option(label="Finalist")
    with page.expect_navigation():
        page.get_by_role("button", name="Seat the final").click()
    expect(page.get_by_text("Seated the final.")).to_be_visible()
    seated = set(Seat.objects.filter(round=event["final"]).values_list("player__name", flat=True))
    assert seated == {*chosen[:-1], alternate}
    assert dropped not in seated


def test_round_states_local_times_words_and_the_room_screen_of_one_event(
    public_page: Any, live_server: Any, event: dict[str, Any], password: str, screenshot: Any, view: str
) -> None:
    """The checks that only read the event, on one copy of it and one browser: first as a player
    (the round pages' state, words on the player page and standings), then signed in as the head
    judge (one round state everywhere, times in the tournament's zone). The room screen is the
    module's last test."""
    base, page = live_server.url, public_page
    shown = _the_round_pages_state(page, base, event)
    _player_page_and_standings_read_in_words(page, base, event, screenshot, view)
    sign_in_by_session(page, base, "head", password)
    _every_page_with_a_round_shows_the_api_state(page, base, event, shown)
    _times_are_shown_in_the_tournaments_zone(page, base, event)
    _the_desk_checks_in_for_the_next_round(page, base, event)


def _the_round_pages_state(page: Any, base: str, event: dict[str, Any]) -> dict[int, str]:
    """Each round's public page: its state badge (word and data) and no sideways scroll;
    answers the state each page shows."""
    shown = {}
    for round_ in event["rounds"]:
        page.goto(f"{base}/rounds/{round_.pk}/")
        badge = page.locator("[data-round-state]").first
        shown[round_.pk] = badge.get_attribute("data-round-state")
        assert badge.locator(".badge").inner_text() == shown[round_.pk].capitalize()
        _fits(page)
    return shown


def _every_page_with_a_round_shows_the_api_state(
    judge_page: Any, base: str, event: dict[str, Any], shown: dict[int, str]
) -> None:
    tournament = event["tournament"]
    states = {r["id"]: r["state"] for r in judge_page.request.get(f"{base}/api/tournaments/{tournament.pk}/rounds/").json()["rounds"]}
    assert list(states.values()) == ["finished", "running", "published", "planned"]
    assert shown == states  # each round's public page showed the API's state
    for round_ in event["rounds"]:
        word = states[round_.pk]
        assert judge_page.request.get(f"{base}/api/rounds/{round_.pk}/").json()["state"] == word
        seat_url = f"{base}/rounds/{round_.pk}/final/" if round_.kind == "final" else f"{base}/rounds/{round_.pk}/seat/"
        judge_page.goto(seat_url)
        assert judge_page.locator("h1 [data-round-state]").get_attribute("data-round-state") == word
    judge_page.goto(f"{base}/tournaments/{tournament.pk}/")
    for round_ in event["rounds"]:
        row = judge_page.locator(f'tr[data-round="{round_.pk}"]')
        assert row.locator("[data-round-state]").get_attribute("data-round-state") == states[round_.pk]
    assert judge_page.locator('[data-round-state="running"]').count() == 1


def _the_desk_checks_in_for_the_next_round(judge_page: Any, base: str, event: dict[str, Any]) -> None:
    """The desk checks in for the next round to be seated, and says which."""
    judge_page.goto(f"{base}/tournaments/{event['tournament'].pk}/players/")
    note = judge_page.locator(".checking-in-for")
    assert "the final" in note.inner_text() and "the next round to be seated" in note.inner_text()


def _times_are_shown_in_the_tournaments_zone(judge_page: Any, base: str, event: dict[str, Any]) -> None:
    page = judge_page
    heat2 = event["rounds"][1]
    if page.url != f"{base}/tournaments/{event['tournament'].pk}/":  # shown already: not loaded again
        page.goto(f"{base}/tournaments/{event['tournament'].pk}/")
    row = page.locator(f'tr[data-round="{heat2.pk}"]')
    assert "10:00 PDT" in row.inner_text()
    assert "America/Los Angeles" in page.locator("table.rounds thead").inner_text()
    page.goto(f"{base}/rounds/{heat2.pk}/clocks/")
    assert "10:00 PDT" in page.locator(".clock-grace").inner_text()
    assert "America/Los Angeles" in page.locator(".server-time").inner_text()
    page.goto(f"{base}/rounds/{heat2.pk}/print/seating/")
    assert "10:00 PDT (America/Los Angeles)" in page.locator(".sheet-start").inner_text()


def _player_page_and_standings_read_in_words(
    public_page: Any, base: str, event: dict[str, Any], screenshot: Any, view: str
) -> None:
    page = public_page
    tournament = event["tournament"]
    winner = event["players"][6]
    for url in (
        f"/tournaments/{tournament.pk}/players/{winner.pk}/",
        f"/tournaments/{tournament.pk}/standings/",
    ):
        page.goto(f"{base}{url}")
        if url.endswith(f"/players/{winner.pk}/"):  # as it opens, before its details are unfolded
            folded = page.locator("main").inner_text()
            assert "Harkonnen" in folded or "Atreides" in folded
            screenshot(page, f"player-words-{view}")
        page.locator("main details").evaluate_all("all => all.forEach(d => { d.open = true; })")
        text = page.locator("main").inner_text()
        assert not SNAKE.findall(text), SNAKE.findall(text)
        assert not DOTTED_TUPLE.findall(text), DOTTED_TUPLE.findall(text)
        assert page.evaluate(BROKEN_HEADINGS) == []
        _fits(page)


def _the_room_screen_cycles_through_all_47_players(public_page: Any, base: str, event: dict[str, Any]) -> None:
    page = public_page
    page.clock.install()
    page.goto(f"{base}/tournaments/{event['tournament'].pk}/screen/")
    seen: set[str] = set()
    for _ in range(6):
        for panel in page.locator("[data-panel=standings]:visible").all():
            seen.update(t.strip() for t in panel.locator("tbody tr:not(.screen-cut) td:nth-child(2) .screen-name").all_inner_texts())
            if "the cut is after" not in panel.inner_text():
                assert panel.locator("tr.screen-cut").count() == 1
        page.clock.fast_forward(12_000)
    assert {p.name for p in event["players"]} <= seen


def test_the_desk_fits_and_checks_in_by_search_without_reload(
    judge_page: Any, live_server: Any, event: dict[str, Any], screenshot: Any, view: str
) -> None:
    from tournament.models import CheckIn

    page = judge_page
    final = event["final"]
    page.goto(f"{live_server.url}/tournaments/{event['tournament'].pk}/players/")
    _fits(page)
    page.evaluate("window.deskMarker = 'no reload'")
    search = page.get_by_label("Find a player")
    for name in ("Player 012", "Player 031"):
        search.fill(name)
        search.press("Enter")  # the form answers in place too
        expect(page.locator("#roster-body tr")).to_have_count(1)
        expect(page.locator("#roster-body tr th")).to_contain_text(name)
        page.wait_for_function("!document.querySelector('.htmx-request')", polling=50)
        assert page.evaluate("document.activeElement && document.activeElement.id") == "id_q"
        button = page.get_by_role("button", name=f"Check {name} in", exact=True)
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= VIEWS[view]["width"], box
        button.click()
        expect(page.get_by_role("button", name=f"Check {name} out", exact=True)).to_be_visible()
        _fits(page)
    assert page.evaluate("window.deskMarker") == "no reload"
    assert CheckIn.objects.filter(round=final).count() == 2
    row_height = page.locator("#roster-body tr").first.bounding_box()["height"]
    assert row_height < 200, row_height
    screenshot(page, f"desk-search-{view}")


def test_people_list_of_120_has_pages(public_page: Any, live_server: Any, view: str) -> None:
    from tournament.models import Person

    Person.objects.bulk_create(Person(name=f"Person {i:03d}") for i in range(120))
    page = public_page
    page.goto(f"{live_server.url}/people/")
    expect(page.locator(".people-count")).to_have_text("120 people: page 1 of 3.")
    page.get_by_role("link", name="Next page").click()
    expect(page.locator(".people-count")).to_have_text("120 people: page 2 of 3.")
    page.get_by_role("link", name="Next page").click()
    expect(page.get_by_role("link", name="Person 119")).to_be_visible()
    assert page.get_by_role("link", name="Next page").count() == 0
    _fits(page)


def test_csv_import_linking_by_email_says_so(
    judge_page: Any, live_server: Any, head_judge: Any, view: str
) -> None:
    from tests.factories import make_tournament
    from tournament import services
    from tournament.models import Tournament

    earlier = make_tournament(name="Last year", head_judge=head_judge)
    services.add_player(earlier, name="Ada King", email="ada@example.org")
    tournament = Tournament.objects.create(name="This year", format="wbc")
    tournament.head_judges.add(head_judge)
    page = judge_page
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/import/")
    page.get_by_label("…or paste the CSV").fill("name,email\nAda Lovelace,ADA@example.org\nNew Comer,new@example.org\n")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#linked-note")).to_contain_text("1 under another name")
    cell = page.locator(".person-link.other-name")
    expect(cell).to_contain_text("Will be linked to Ada King, registered before with the same email")
    expect(cell.get_by_label("A different person")).to_be_visible()
    _fits(page)


def test_a_head_judge_creates_a_series_and_offers_it_to_a_new_tournament(
    judge_page: Any, live_server: Any, view: str
) -> None:
    from tournament.models import Series

    page = judge_page
    page.goto(f"{live_server.url}/series/")
    page.get_by_label("Name").fill("Vegas Dune Open")
    page.get_by_label("Format").select_option("lolv")
    with page.expect_navigation():
        page.get_by_role("button", name="Create series").click()
    expect(page.get_by_text("Created the series Vegas Dune Open.")).to_be_visible()
    series = Series.objects.get(name="Vegas Dune Open")
    assert series.owner is not None and series.owner.username == "head"
    _fits(page)
    page.goto(f"{live_server.url}/tournaments/new/")
    assert page.get_by_label("Edition of a series (optional)").locator("option", has_text="Vegas Dune Open").count() == 1


def test_clock_dashboard_extend_form_stays_inside_the_table_and_start_all_says_what_it_does(
    judge_page: Any, live_server: Any, head_judge: Any, view: str, screenshot: Any
) -> None:
    from clocks import services as clocks
    from tournament import services
    from tournament.models import CheckIn, Player, Round, Tournament

    tournament = Tournament.objects.create(name="Clock Open", format="lolv")
    tournament.head_judges.add(head_judge)
    heat = Round.objects.create(tournament=tournament, number=1, kind="heat")
    players = [Player.objects.create(tournament=tournament, name=f"Player {i:02d}") for i in range(18)]
    CheckIn.objects.bulk_create(CheckIn(round=heat, player=p) for p in players)
    services.seat_round(heat, user=head_judge, seed=3)
    for seat in heat.seats.all():
        services.keep_card(heat, seat.player_id, seat.dealt[0], user=head_judge)
    services.publish_round(heat, user=head_judge)
    clocks.start(heat.tables.get(number=1), user=head_judge)
    page = judge_page
    page.goto(f"{live_server.url}/rounds/{heat.pk}/clocks/")
    expect(page.get_by_role("button", name="Start the 2 clocks not started")).to_be_enabled()
    page.locator("#table-1 details.extend summary").click()
    table = page.locator(".round-clocks-dashboard").bounding_box()
    form = page.locator("#table-1 .extend-form").bounding_box()
    assert table is not None and form is not None
    assert form["x"] + form["width"] <= table["x"] + table["width"] + 1, (form, table)
    screenshot(page, f"clocks-extend-open-{view}")
    if view == "laptop":
        _fits(page)
        assert table["x"] + table["width"] <= VIEWS[view]["width"]
    clocks.start_round(heat, user=head_judge)
    page.reload()
    start = page.locator("[data-start-all] button")
    expect(start).to_be_disabled()
    assert "primary" not in (start.get_attribute("class") or "")
    expect(page.get_by_text("Every clock has started.")).to_be_visible()


def test_the_room_screen_cycles_through_all_47_players(
    public_page: Any, live_server: Any, event: dict[str, Any], view: str
) -> None:
    """Last in the module: its fake clock spends the page's browser context, which is closed after
    it instead of being lent to a later test (conftest's `ContextPool`)."""
    _the_room_screen_cycles_through_all_47_players(public_page, live_server.url, event)
