"""Nothing breaks at the edges: an empty tournament, a tournament with one table, and a table
whose game was abandoned. Every page and read endpoint opens, for the head judge and for an
anonymous player; refused actions say why instead of failing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e import tour
from tests.e2e.conftest import PHONE
from tests.e2e.session import sign_in_by_session
from tests.e2e.tour import TableJudge

pytestmark = pytest.mark.django_db(transaction=True)
player = tour.player  # a fixture: a player's phone, nobody signed in

#: What an anonymous visitor may meet on a head judge's page: the sign-in form or a refusal.
GUARDED = (200, 302, 401, 403)


@pytest.fixture
def large_text_phone(browser: Any, live_server: Any) -> Iterator[Any]:
    """A phone (390×844) whose reader set large text: every page renders at 150 % type."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True
    )
    context.set_default_timeout(10_000)
    context.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style');"
        " s.textContent = 'html { font-size: 150% !important; }'; document.head.appendChild(s); });"
    )
    yield context.new_page()
    context.close()


def tournament_urls(tournament: int) -> list[str]:
    return [
        f"/tournaments/{tournament}/",
        f"/tournaments/{tournament}/players/",
        f"/tournaments/{tournament}/players/import/",
        f"/tournaments/{tournament}/standings/",
        f"/tournaments/{tournament}/standings.csv",
        f"/tournaments/{tournament}/reports.csv",
        f"/tournaments/{tournament}/awards/",
        f"/api/tournaments/{tournament}/players/",
        f"/api/tournaments/{tournament}/standings/",
        f"/api/tournaments/{tournament}/finalists/",
        f"/api/tournaments/{tournament}/awards/",
    ]


def round_urls(round_pk: int, *, final: bool = False) -> list[str]:
    return [
        f"/rounds/{round_pk}/",
        f"/rounds/{round_pk}/final/" if final else f"/rounds/{round_pk}/seat/",
        f"/rounds/{round_pk}/print/seating/",
        f"/rounds/{round_pk}/print/reports/",
        f"/rounds/{round_pk}/clocks/",
        f"/api/rounds/{round_pk}/tables/",
        f"/api/rounds/{round_pk}/clocks/",
    ]


def table_urls(table_pk: int) -> list[str]:
    return [
        f"/tables/{table_pk}/",
        f"/tables/{table_pk}/history/",
        f"/tables/{table_pk}/report/",
        f"/tables/{table_pk}/clock/",
        f"/api/tables/{table_pk}/game/",
        f"/api/tables/{table_pk}/game/events/",
        f"/api/tables/{table_pk}/report/?",  # 404 until a report is filed
        f"/api/tables/{table_pk}/clock/",
    ]


def opens(page: Any, base: str, urls: list[str], *, allowed: tuple[int, ...] = (200,)) -> list[str]:
    """GET every url in the page's session; answers the failures (url and status)."""
    failures = []
    for url in urls:
        response = page.request.get(f"{base}{url}", max_redirects=0)
        if url.endswith("?") and response.status == 404:
            continue
        if response.status not in allowed:
            failures.append(f"{url}: HTTP {response.status}")
    return failures


def test_an_empty_tournament_opens_everywhere(
    page: Any, player: Any, live_server: Any, head_judge: Any, password: str, screenshot: Any
) -> None:
    base = live_server.url
    sign_in_by_session(page, live_server.url, "head", password)
    tournament = tour.create_tournament(page, base, name="Empty open", format="wbc")
    assert opens(page, base, tournament_urls(tournament)) == []
    assert opens(player, base, tournament_urls(tournament), allowed=GUARDED) == []
    tour.goto(page, f"{base}/tournaments/{tournament}/standings/")
    assert "No game report has been filed yet." in page.locator("table.standings").inner_text(), page.locator(
        "main"
    ).inner_text()

    # Rounds with nobody registered: every page opens; seating refuses with the reason.
    tour.add_round(page, base, tournament, kind="heat")
    tour.add_round(page, base, tournament, kind="final")
    from tournament.models import Round

    heat, final = (r.pk for r in Round.objects.filter(tournament_id=tournament).order_by("number"))
    urls = round_urls(heat) + round_urls(final, final=True)
    assert opens(page, base, urls) == []
    assert opens(player, base, urls, allowed=GUARDED) == []
    tour.goto(page, f"{base}/rounds/{heat}/seat/")
    with page.expect_navigation():
        page.get_by_role("button", name="Seat 0 players").click()
    assert "nobody to seat" in page.locator(".error, .field-error").first.inner_text()
    screenshot(page, "robust-empty-seat-laptop")
    tour.goto(page, f"{base}/rounds/{final}/final/")
    with page.expect_navigation():
        page.get_by_role("button", name="Seat the final").click()
    assert "finalists" in page.locator(".field-error, .error").first.inner_text()
    tour.goto(page, f"{base}/rounds/{heat}/clocks/")
    assert page.get_by_text("No tables are seated in this round yet.").is_visible()
    tour.goto(player, f"{base}/rounds/{heat}/")
    assert "not published yet" in player.locator("main").inner_text()
    screenshot(player, "robust-empty-round-phone")


def test_a_tournament_with_one_table_runs_to_its_standings(
    page: Any,
    large_text_phone: Any,
    player: Any,
    live_server: Any,
    head_judge: Any,
    password: str,
    screenshot: Any,
) -> None:
    from django.core.cache import cache

    cache.clear()
    base = live_server.url
    sign_in_by_session(page, live_server.url, "head", password)
    tournament = tour.create_tournament(page, base, name="Kitchen table open", format="wbc")
    tour.add_round(page, base, tournament, kind="heat")
    tour.add_round(page, base, tournament, kind="final")
    from tournament.models import Player, Round

    heat, final = (r.pk for r in Round.objects.filter(tournament_id=tournament).order_by("number"))
    names = ["Ada Quill", "Bram Stoker", "Cora Vale", "Dario Fo", "Elin Holm"]
    desk = f"{base}/tournaments/{tournament}/players/?round={heat}"
    for name in names:  # registered one by one, checked in for the heat as they arrive
        if page.url != desk:  # the desk answers a registration with itself: loaded only if not shown
            tour.goto(page, desk)
        page.get_by_label("Name").fill(name)
        tour.submit(page, page.get_by_role("button", name="Register"), expect=f"Registered {name}.")
    tour.seat_and_publish(page, base, heat, seed=5, players=5, label="Heat 1")
    from tournament.models import Table

    (table,) = Table.objects.filter(round_id=heat)
    assert table.seats.count() == 5
    assert opens(page, base, tournament_urls(tournament) + round_urls(heat) + table_urls(table.pk)) == []
    assert (
        opens(
            player,
            base,
            tournament_urls(tournament) + round_urls(heat) + table_urls(table.pk),
            allowed=GUARDED,
        )
        == []
    )

    # The table judge's phone is set to large text; nothing needs hover (taps only).
    large = large_text_phone
    sign_in_by_session(large, live_server.url, "head", password)
    j = TableJudge(large, base, table.pk).open()
    factions = list(table.seats.order_by("seat").values_list("faction", flat=True))
    winner = factions[0]
    j.start(storm=6)
    j.phase("battle")
    for name in ("Record strongholds", "Advance phase"):
        box = large.get_by_role("button", name=name).first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (
            f"{name!r} off screen: {box}"
        )
    j.strongholds({"arrakeen": [winner], "carthag": [winner], "habbanya_sietch": [winner]})
    j.confirm_attempts()
    j.phase("mentat_pause")
    j.confirm_victory()
    screenshot(large, "robust-one-table-large-text-phone")
    j.file_report()
    assert opens(page, base, tournament_urls(tournament) + [f"/tables/{table.pk}/filed-report/"]) == []
    standings = tour.api(page, f"{base}/api/tournaments/{tournament}/standings/")["standings"]
    assert len(standings) == 5 and standings[0]["points"] == 2

    # Five players for a final of six: the cut still draws, the final page says what it can do.
    qualifying = tour.api(page, f"{base}/api/tournaments/{tournament}/finalists/")
    assert len(qualifying["finalists"]) == 5 and qualifying["alternates"] == []
    tour.goto(player, f"{base}/tournaments/{tournament}/standings/")
    assert player.locator("table.standings tbody tr:not(.cut-marker)").count() == 5
    for pk in Player.objects.filter(tournament_id=tournament).values_list("pk", flat=True):
        assert opens(player, base, [f"/tournaments/{tournament}/players/{pk}/"]) == []
    tour.goto(page, f"{base}/rounds/{final}/final/")
    with page.expect_navigation() as nav:
        page.get_by_role("button", name="Seat the final").click()
    assert nav.value is not None and nav.value.status < 500
    assert opens(page, base, round_urls(final, final=True)) == []
    screenshot(page, "robust-one-table-final-laptop")


def test_a_table_whose_game_was_abandoned(
    page: Any,
    phone_page: Any,
    new_page: Any,
    live_server: Any,
    head_judge: Any,
    password: str,
    screenshot: Any,
) -> None:
    """Two tables; at one the game starts, a record is voided, then the table breaks up: its
    clock is finished by the head judge and no report is filed. The round, the standings and
    every page of that table still open; filing its winnerless report is refused with the rule."""
    from django.core.cache import cache

    cache.clear()
    base = live_server.url
    sign_in_by_session(page, live_server.url, "head", password)
    tournament = tour.create_tournament(page, base, name="Stormy open", format="lolv")
    tour.add_round(page, base, tournament, kind="heat")
    csv = "name\n" + "".join(f"Player {i:02d}\n" for i in range(1, 13))
    assert tour.import_players_csv(page, base, tournament, csv) == 12
    from tournament.models import Round, Table

    heat = Round.objects.get(tournament_id=tournament).pk
    tour.goto(page, f"{base}/tournaments/{tournament}/players/?round={heat}")
    tour.submit(page, page.get_by_role("button", name="Check in every active player"))  # asks first
    tour.submit(
        page, page.get_by_role("button", name=re.compile(r"^Yes, check in all")), expect="active players for"
    )
    tour.seat_round(page, base, heat, seed=12, players=12)
    tour.goto(page, f"{base}/rounds/{heat}/seat/")
    for table in Table.objects.filter(round_id=heat).prefetch_related("seats__player"):
        for seat in table.seats.all():
            tour.keep_card(page, table.number, seat.player.name, tour.label(seat.dealt[0]))
    tour.publish(page, base, heat, "Heat 1")
    abandoned, played = Table.objects.filter(round_id=heat).order_by("number")
    tour.goto(page, f"{base}/rounds/{heat}/clocks/")
    tour.submit(page, page.get_by_role("button", name="Start all clocks"), expect="Clocks started")

    sign_in_by_session(phone_page, live_server.url, "head", password)
    j = TableJudge(phone_page, base, abandoned.pk).open()
    j.start(storm=2)
    j.phase("mentat_pause")
    j.next_turn()
    j.move_storm(3)
    # A mistaken record is voided with a reason: nothing is deleted.
    phone_page.locator("#log summary", has_text=re.compile(r"^Void #")).first.click()
    form = phone_page.locator("#log form[data-action=void]").first
    form.locator("input[name=reason]").fill("the storm was not moved yet")
    tour.record(phone_page, form.get_by_role("button", name=re.compile(r"^Void #")), what="void")
    assert "voided" in phone_page.locator("#log").inner_text()
    # The table breaks up: the head judge stops its clock.
    tour.goto(page, f"{base}/tables/{abandoned.pk}/clock/")
    page.fill("#finish-reason", "the table broke up after a dispute")
    tour.submit(
        page, page.get_by_role("button", name="The game is over: stop the clock"), expect="clock finished"
    )

    # The other table plays on and files its report.
    j = TableJudge(phone_page, base, played.pk).open()
    w = played.seats.order_by("seat").first().faction
    j.start(storm=4)
    j.phase("battle")
    j.strongholds({"arrakeen": [w], "carthag": [w], "tueks_sietch": [w]})
    j.confirm_attempts()
    j.phase("mentat_pause")
    j.confirm_victory()
    j.file_report()
    # The table judge's phone is done: emptied, it is the player's phone (no second phone kept).
    new_page.give_back(phone_page)
    player = new_page(PHONE, locale="en-US", timezone_id="UTC", timeout=10_000)

    urls = tournament_urls(tournament) + round_urls(heat) + table_urls(abandoned.pk)
    assert opens(page, base, urls) == []
    assert opens(player, base, urls, allowed=GUARDED) == []
    tour.goto(page, f"{base}/tables/{abandoned.pk}/report/")
    page.get_by_label("I checked every row with the players").check()
    # The form is sent by the page's outbox: the refusal replaces the form in place, kept in view.
    with page.expect_response(lambda r: r.url.endswith("/report/") and r.request.method == "POST") as answer:
        page.get_by_role("button", name="File the report").click()
    assert answer.value.status == 400
    page.locator("#report-errors").wait_for()
    assert page.locator("#report-errors").inner_text().strip()
    screenshot(page, "robust-abandoned-report-laptop")
    standings = tour.api(page, f"{base}/api/tournaments/{tournament}/standings/")["standings"]
    assert len(standings) == 6  # only the players of the table that finished
    tour.goto(page, f"{base}/rounds/{heat}/clocks/")
    assert "Finished" in page.locator(f"#table-{abandoned.number}").inner_text()
    tour.goto(player, f"{base}/tables/{abandoned.pk}/")
    screenshot(player, "robust-abandoned-table-phone")
