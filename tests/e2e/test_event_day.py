"""Event day in Chromium: the registration desk, LoLV kept cards, the live standings and room
screen, and every page a head judge or a player opens at a phone's and a laptop's size."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.accessibility import serious_violations
from tests.e2e.session import sign_in_by_session
from tests.scoring.db.conftest import report_for
from tournament.presenters import faction_label

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}

NAMES = [
    "Alia Atreides",
    "Bijaz Tleilax",
    "Chani Kynes",
    "Duncan Idaho",
    "Esmar Tuek",
    "Feyd Rautha",
    "Gurney Halleck",
    "Hasimir Fenring",
    "Irulan Corrino",
    "Jessica Nerus",
    "Kailea Vernius",
    "Liet Kynes",
    "Margot Fenring",
    "Nefud Sardau",
    "Otheym Fremen",
    "Piter Vries",
    "Rabban Glossu",
    "Shadout Mapes",
]


def make_event(head_judge: Any, *, format: str = "lolv") -> dict[str, Any]:
    """A tournament of 18 players, heat 1 seated (three tables of six) but not published, heat 2 planned."""
    from tournament import services
    from tournament.models import CheckIn, Player, Round, Tournament

    tournament = Tournament.objects.create(name="Arrakis Open", format=format)
    tournament.head_judges.add(head_judge)
    players = [
        Player.objects.create(tournament=tournament, name=n, club="Sietch Tabr" if i % 3 else "")
        for i, n in enumerate(NAMES)
    ]
    heat = Round.objects.create(tournament=tournament, number=1, kind="heat")
    Round.objects.create(tournament=tournament, number=2, kind="heat")
    CheckIn.objects.bulk_create(CheckIn(round=heat, player=p) for p in players)
    services.seat_round(heat, user=head_judge, seed=7)
    return {"tournament": tournament, "players": players, "heat": heat}


def keep_every_card(heat: Any, head_judge: Any) -> None:
    from tournament import services
    from tournament.models import Seat

    for seat in Seat.objects.filter(round=heat).order_by("table__number", "seat"):
        services.keep_card(heat, seat.player_id, seat.dealt[0], user=head_judge)


def open_page(new_page: Any, base: str, viewport: dict[str, int], *, signed_in: bool, password: str) -> Any:
    """A page at `viewport`, signed in as the head judge if asked (by session: the sign-in form
    is tested on its own)."""
    page = new_page(viewport, locale="en-US", timezone_id="UTC", timeout=10_000)
    if signed_in:
        sign_in_by_session(page, base, "head", password)
    return page


def overlapping_cards(page: Any) -> list[str]:
    """Table cards whose boxes overlap another's (each a grid item; none may hide another)."""
    boxes = page.eval_on_selector_all(
        ".table-card, .keep-table, .screen-table",
        "els => els.filter(e => e.offsetParent !== null).map(e => { const r = e.getBoundingClientRect();"
        " return [e.id || e.className, r.left, r.top, r.right, r.bottom]; })",
    )
    clashes = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a[1] < b[3] - 1 and b[1] < a[3] - 1 and a[2] < b[4] - 1 and b[2] < a[4] - 1:
                clashes.append(f"{a[0]} overlaps {b[0]}")
    return clashes


def test_pages_fit_phone_and_laptop_without_overlap_or_serious_axe_violations(
    new_page: Any, live_server: Any, head_judge: Any, password: str, screenshot: Any
) -> None:
    """Every page a head judge or a player opens on event day (the list below)."""
    from tournament import desk, private_links

    event = make_event(head_judge)
    tournament, heat, players = event["tournament"], event["heat"], event["players"]
    table = heat.tables.order_by("number").first()
    t, h, p = tournament.pk, heat.pk, players[0]
    judge_pages = [
        f"/tournaments/{t}/",
        f"/tournaments/{t}/players/?round={h}",
        f"/tournaments/{t}/players/{p.pk}/edit/",
        f"/tournaments/{t}/players/badges/",
        f"/rounds/{h}/seat/",
        f"/tables/{table.pk}/keep/",
        f"/rounds/{h}/clocks/",
    ]
    keep_every_card(heat, head_judge)
    from tournament import services

    services.publish_round(heat, user=head_judge)
    player_pages = [
        f"/rounds/{h}/",
        f"/tournaments/{t}/standings/",
        f"/tournaments/{t}/players/{p.pk}/",
        f"/tournaments/{t}/screen/",
        f"/check-in/{p.pk}/{desk.check_in_token(p)}/",
        f"/me/{private_links.link_for(p).token}/",
    ]
    problems = []
    # Each page is loaded once and checked at both sizes, the window resized in between: no page
    # here lays itself out by the window's size when it loads (only the board's fold does, and no
    # page of the list shows a board), so a resized page is the page loaded at that size; axe-core
    # is injected once per page.
    for signed_in, paths in ((True, judge_pages), (False, player_pages)):
        page = open_page(new_page, live_server.url, PHONE, signed_in=signed_in, password=password)
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, path
            for viewport in (PHONE, LAPTOP):
                page.set_viewport_size(viewport)
                width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert width[1] == viewport["width"], (path, width)
                if width[0] > width[1]:
                    problems.append(
                        f"{path} at {viewport['width']}: scrolls sideways ({width[0]} > {width[1]})"
                    )
                problems += [f"{path} at {viewport['width']}: {c}" for c in overlapping_cards(page)]
                problems += [f"{path} at {viewport['width']}: {v}" for v in serious_violations(page)]
                if not signed_in and viewport == PHONE and path == f"/tournaments/{t}/players/{p.pk}/":
                    screenshot(page, "player-page-phone")
            page.set_viewport_size(PHONE)
    assert problems == []


def test_desk_checks_in_ten_players_by_search_without_moving_the_page(
    new_page: Any, live_server: Any, head_judge: Any, password: str, screenshot: Any
) -> None:
    from tournament.models import CheckIn, Player, Round, Tournament

    tournament = Tournament.objects.create(name="Desk Open", format="wbc")
    tournament.head_judges.add(head_judge)
    heat = Round.objects.create(tournament=tournament, number=1, kind="heat")
    for i in range(60):
        Player.objects.create(tournament=tournament, name=f"{NAMES[i % len(NAMES)]} {i:02d}")
    page = open_page(new_page, live_server.url, LAPTOP, signed_in=True, password=password)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/?round={heat.pk}")
    search = page.get_by_label("Find a player")
    search.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 200)")
    page.evaluate("window.deskMarker = 'no reload'")
    wanted = [f"{NAMES[i % len(NAMES)]} {i:02d}" for i in range(0, 50, 5)]
    for n, name in enumerate(wanted, start=1):
        search.fill(name.split()[0] + " " + name.split()[-1])
        button = page.get_by_role("button", name=f"Check {name} in", exact=True)
        expect(button).to_be_visible()
        expect(page.locator("#roster-body tr")).to_have_count(1)
        before = page.evaluate("window.scrollY")
        button.click()
        expect(page.get_by_role("button", name=f"Check {name} out", exact=True)).to_be_visible()
        expect(page.locator("#checked-count")).to_have_text(str(n))
        assert page.evaluate("window.scrollY") == before, name
    assert page.evaluate("window.deskMarker") == "no reload"
    assert CheckIn.objects.filter(round=heat).count() == 10
    screenshot(page, "desk-check-in-laptop")

    # Drop asks first; dismissing changes nothing.
    page.get_by_label("Find a player").fill("")
    target = wanted[0]
    page.get_by_label("Find a player").fill(target)
    expect(page.locator("#roster-body tr")).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name=f"Drop {target}", exact=True).click()
    assert Player.objects.get(name=target).status == "active"
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=f"Drop {target}", exact=True).click()
    expect(page.get_by_role("button", name=f"Reinstate {target}", exact=True)).to_be_visible()
    assert Player.objects.get(name=target).status == "dropped"


def test_lolv_kept_cards_for_a_table_of_six_in_six_taps_and_publishing_names_who_is_missing(
    new_page: Any, live_server: Any, head_judge: Any, password: str, screenshot: Any
) -> None:
    from tournament.models import Round, Seat

    event = make_event(head_judge)
    heat = event["heat"]
    page = open_page(new_page, live_server.url, PHONE, signed_in=True, password=password)
    page.goto(f"{live_server.url}/rounds/{heat.pk}/seat/")
    taps = 0

    # Publishing first: refused, with the tables and players named next to the button.
    page.get_by_role("button", name="Publish the seating").click()
    taps += 1
    refusal = page.locator("#publish .field-error").inner_text()
    names = list(
        Seat.objects.filter(round=heat, table__number=1)
        .order_by("seat")
        .values_list("player__name", flat=True)
    )
    assert "18 players have no faction yet" in refusal and "table 1: " + ", ".join(names) in refusal
    assert Round.objects.get(pk=heat.pk).state == "planned"

    # Table 1: one tap per player on the card kept.
    card = page.locator("#keep-table-1")
    for seat in Seat.objects.filter(round=heat, table__number=1).order_by("seat").select_related("player"):
        label = faction_label(seat.dealt[1])
        card.get_by_role("button", name=f"{label} for {seat.player.name}", exact=True).click()
        taps += 1
        expect(card).to_contain_text(f"{seat.player.name} keeps {label}.")
    assert taps - 1 <= 7, "a table of six in at most 7 taps"
    assert all(s.faction == s.dealt[1] for s in Seat.objects.filter(round=heat, table__number=1))
    expect(page.locator("#keep-table-1 h3")).to_contain_text("all kept")
    screenshot(page, "lolv-kept-cards-phone")

    # The other tables still missing: publishing is still refused, naming only them.
    page.get_by_role("button", name="Publish the seating").click()
    refusal = page.locator("#publish .field-error").inner_text()
    assert "12 players have no faction yet" in refusal and "table 1:" not in refusal


def test_room_screen_and_standings_update_without_a_reload_when_a_report_is_filed(
    new_page: Any, live_server: Any, head_judge: Any, password: str, settings: Any, screenshot: Any
) -> None:
    from rest_framework.test import APIClient

    from tournament import services

    settings.LIVE_POLL_SECONDS = 1
    event = make_event(head_judge, format="wbc")
    heat = event["heat"]
    services.publish_round(heat, user=head_judge)
    table = heat.tables.order_by("number").first()
    winner = table.seats.order_by("seat").first().player
    screen = open_page(new_page, live_server.url, LAPTOP, signed_in=False, password=password)
    standings = open_page(new_page, live_server.url, PHONE, signed_in=False, password=password)
    screen.goto(f"{live_server.url}/tournaments/{event['tournament'].pk}/screen/")
    standings.goto(f"{live_server.url}/tournaments/{event['tournament'].pk}/standings/")
    for page in (screen, standings):
        page.evaluate("window.liveMarker = 'no reload'")
    assert "No game report has been filed yet." in screen.locator("[data-panel=standings]").text_content()
    expect(standings.locator("#standings-live")).to_contain_text("No game report has been filed yet.")

    client = APIClient()
    client.force_authenticate(head_judge)
    response = client.post(
        f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
    )
    assert response.status_code == 201

    expect(standings.locator("#standings-live")).to_contain_text(winner.name, timeout=4000)
    expect(screen.locator("[data-panel=standings]")).to_contain_text(f"{winner.name}", timeout=4000)
    expect(screen.locator("[data-panel=standings]")).to_contain_text("2 points", timeout=4000)
    for page in (screen, standings):
        assert page.evaluate("window.liveMarker") == "no reload"
    screenshot(screen, "room-screen-laptop")


def test_clock_dashboard_shows_every_table_of_a_50_player_round_on_one_laptop_screen(
    new_page: Any, live_server: Any, head_judge: Any, password: str, screenshot: Any
) -> None:
    from clocks import services as clocks
    from tournament import services
    from tournament.models import CheckIn, Player, Round, Tournament

    tournament = Tournament.objects.create(name="Big Open", format="wbc")
    tournament.head_judges.add(head_judge)
    heat = Round.objects.create(tournament=tournament, number=1, kind="heat")
    players = [Player.objects.create(tournament=tournament, name=f"Player {i:02d}") for i in range(50)]
    CheckIn.objects.bulk_create(CheckIn(round=heat, player=p) for p in players)
    services.seat_round(heat, user=head_judge, seed=3)
    services.publish_round(heat, user=head_judge)
    clocks.start_round(heat, user=head_judge)
    clocks.pause(heat.tables.get(number=2), user=head_judge, reason="a spilled drink")
    page = open_page(new_page, live_server.url, LAPTOP, signed_in=True, password=password)
    page.goto(f"{live_server.url}/rounds/{heat.pk}/clocks/")
    rows = page.locator(".round-clocks-dashboard tbody tr")
    assert rows.count() == heat.tables.count() == 9
    screenshot(page, "clock-dashboard-50-players-laptop")
    bottom = rows.last.bounding_box()
    assert bottom is not None and bottom["y"] + bottom["height"] <= 900, bottom
    paused = page.locator("#table-2")
    assert "Paused: clock stopped" in paused.inner_text()
    colour = paused.locator(".clock-state").evaluate("e => getComputedStyle(e).color")
    running = page.locator("#table-1 .clock-state").evaluate("e => getComputedStyle(e).color")
    assert colour != running
    screenshot(page, "clock-dashboard-50-players-laptop")
