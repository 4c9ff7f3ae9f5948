"""The demo `make run` loads (`manage.py load_demo`) shows every key page with realistic data:
a WBC tournament mid-way, heat 1 finished and heat 2 running with its clocks ticking."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import tour
from tests.e2e.session import sign_in_by_session
from tests.e2e.shared_rows import SharedRows

pytestmark = pytest.mark.django_db(transaction=True)


def load_demo() -> dict[str, str]:
    """Run the command; answers the logins it prints."""
    from django.core.management import call_command

    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return dict(re.findall(r"^\s+(\w+)\s+password: (\S+)$", out.getvalue(), flags=re.M))


@pytest.fixture(scope="module")
def demo(django_db_blocker: Any) -> Any:
    """`demo.lend(load_demo)`: the demo loaded once per test process, its rows given anew to each
    test (`SharedRows`); answers the logins the first load printed."""
    with SharedRows.kept(django_db_blocker) as rows:
        yield rows


def test_the_demo_shows_a_tournament_mid_way(
    demo: Any, page: Any, phone_page: Any, live_server: Any, sign_in: Any, screenshot: Any
) -> None:
    from django.core.cache import cache

    from clocks.models import TableClock
    from scoring.models import GameReport
    from tournament.models import Round, Tournament

    cache.clear()
    logins = demo.lend(load_demo)
    assert set(logins) == {"headjudge", *(f"judge{n}" for n in range(1, 9))}
    again = load_demo()  # safe to run again: nothing doubles, the logins written down still work
    assert again == logins
    tournament = Tournament.objects.get(name="WBC Dune demo")
    assert tournament.players.count() == 47
    heat1, heat2 = Round.objects.filter(tournament=tournament, kind="heat").order_by("number")[:2]
    assert GameReport.objects.filter(table__round=heat1).count() == heat1.tables.count() == 8
    assert heat2.state == "published" and heat2.tables.count() >= 5
    assert set(TableClock.objects.filter(table__round=heat2).values_list("state", flat=True)) == {"running"}
    base = live_server.url

    # Home page and the dashboard, as the head judge.
    tour.goto(page, f"{base}/")
    assert page.get_by_role("link", name="WBC Dune demo").is_visible()
    screenshot(page, "demo-home-laptop")
    sign_in(page, "headjudge", again["headjudge"])
    tour.goto(page, f"{base}/tournaments/{tournament.pk}/")
    dashboard = page.locator("main").inner_text()
    assert "46 active players, 1 dropped." in dashboard  # heat 1's dropout (WBC Dropouts)
    rounds = page.locator("table.rounds tbody tr")
    assert rounds.count() == 4 and "Planned" in rounds.nth(2).inner_text()
    screenshot(page, "demo-dashboard-laptop")

    # The heat 2 round page: tables and their clocks, and "where do I sit?".
    seat = heat2.tables.order_by("number").first().seats.select_related("player").first()
    found = tour.find_my_table(phone_page, base, heat2.pk, seat.player.name)
    assert f"{seat.player.name}: table 1" in found
    assert phone_page.locator(".round-clocks li").count() == heat2.tables.count()
    assert "Running" in phone_page.locator(".round-clocks").inner_text()
    screenshot(phone_page, "demo-round-phone")

    # A running table's page for its judge: turn, phase, storm, strongholds, its clock.
    table = heat2.tables.order_by("number").first()
    sign_in(phone_page, table.judge.username, again[table.judge.username])
    tour.goto(phone_page, f"{base}/tables/{table.pk}/")
    assert int(phone_page.locator("#turn").inner_text()) >= 2
    assert phone_page.locator(".control .held").count() >= 1
    countdown = phone_page.locator(".table-clock [data-clock-remaining]")
    expect(countdown).not_to_have_text(countdown.inner_text())  # ticking
    screenshot(phone_page, "demo-table-phone")

    # The standings after heat 1: QPs, a dropout, the cut line.
    tour.goto(page, f"{base}/tournaments/{tournament.pk}/standings/")
    assert "8 game reports filed" in page.locator("main").inner_text()
    assert page.locator("tr.cut-marker").count() == 1
    assert page.locator("tr.disqualified").count() == 1
    screenshot(page, "demo-standings-laptop")
    tour.goto(page, f"{base}/tournaments/{tournament.pk}/awards/")
    assert page.locator(".leaderboard li.winner").count() >= 6
    screenshot(page, "demo-awards-laptop")

    # The head judge's round clocks: every heat 2 table running and counting down.
    tour.goto(page, f"{base}/rounds/{heat2.pk}/clocks/")
    rows = page.locator("table.round-clocks-dashboard tbody tr")
    assert rows.count() == heat2.tables.count()
    assert all("state-running" in (rows.nth(i).get_attribute("class") or "") for i in range(rows.count()))
    before = page.locator("#table-1 [data-clock-remaining]").inner_text()
    assert re.fullmatch(r"[45]:\d\d:\d\d", before)
    expect(page.locator("#table-1 [data-clock-remaining]")).not_to_have_text(before)
    screenshot(page, "demo-round-clocks-laptop")


def test_the_demo_pages_have_no_serious_accessibility_violations(
    demo: Any, phone_page: Any, live_server: Any
) -> None:
    """axe-core over the key pages of the demo at a phone's size (the head judge signed in by
    session: the sign-in form with the demo's logins is the other test's)."""
    from django.core.cache import cache

    from tests.e2e.accessibility import serious_violations
    from tournament.models import Round, Tournament

    cache.clear()
    logins = demo.lend(load_demo)
    tournament = Tournament.objects.get(name="WBC Dune demo")
    heat1, heat2 = Round.objects.filter(tournament=tournament, kind="heat").order_by("number")[:2]
    filed = heat1.tables.order_by("number").first()
    running = heat2.tables.order_by("number").first()
    someone = filed.seats.first().player_id
    base = live_server.url
    public = [
        "/",
        f"/rounds/{heat2.pk}/",
        f"/tournaments/{tournament.pk}/standings/",
        f"/tournaments/{tournament.pk}/awards/",
        f"/tournaments/{tournament.pk}/players/{someone}/",
        f"/tables/{filed.pk}/filed-report/",
        f"/rounds/{heat2.pk}/clocks/",
    ]
    judged = [
        f"/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/players/",
        f"/rounds/{heat2.pk}/seat/",
        f"/tables/{running.pk}/",
        f"/tables/{running.pk}/report/",
        f"/tables/{running.pk}/clock/",
        f"/tables/{running.pk}/history/",
    ]
    found = {}
    for path in public:
        tour.goto(phone_page, base + path)
        found[path] = serious_violations(phone_page)
    sign_in_by_session(phone_page, base, "headjudge", logins["headjudge"])
    for path in judged:
        tour.goto(phone_page, base + path)
        found[path] = serious_violations(phone_page)
    assert {path: v for path, v in found.items() if v} == {}
