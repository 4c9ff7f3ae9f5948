"""A player follows the link from their tournament page to their person page, and a visitor
opens a series page, both on a 390x844 phone: everything readable, nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from ratings import services as ratings
from tests.e2e.accessibility import serious_violations
from tests.factories import make_tournament
from tests.ratings.helpers import play, register
from tournament import people

FITS = "document.documentElement.scrollWidth <= window.innerWidth"
WIDE = (
    "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)"
    ".slice(0, 6).map(e => e.tagName + '.' + e.className)"
)


@pytest.fixture
def series(head_judge: Any) -> dict[str, Any]:
    from django.core.cache import cache

    cache.clear()
    wbc = people.create_series(name="WBC Dune", format="wbc")
    editions = []
    for year, champion_seat in ((2025, 0), (2026, 2)):
        t = make_tournament(name=f"WBC Dune {year}", head_judge=head_judge)
        t.series = wbc
        t.save()
        players = register(
            t, [(f"Player {i} with a rather long name", f"p{i}@example.org") for i in range(year - 2025, 12)]
        )
        play(
            t,
            1,
            [
                (players[:6], {0: "solo_stronghold"}),
                (players[6:11], {1: "allied_stronghold", 2: "allied_stronghold"}),
            ],
            user=head_judge,
        )
        play(t, 2, [(players[:5], {champion_seat: "solo_stronghold"})], user=head_judge, kind="final")
        editions.append((t, players))
    ratings.recompute()
    return {"series": wbc, "editions": editions}


@pytest.mark.django_db(transaction=True)
def test_person_page_from_the_player_page_on_a_phone(
    phone_page: Any, live_server: Any, series: Any, screenshot: Any
) -> None:
    (first, first_players), (second, second_players) = series["editions"]
    player = second_players[2]  # "Player 3 …": played both years, won the 2026 final
    page = phone_page
    page.goto(f"{live_server.url}/tournaments/{second.pk}/players/{player.pk}/")
    page.locator("[data-person-link]").click()
    page.wait_for_load_state()
    assert page.locator("#person-name").inner_text() == "Player 3 with a rather long name"
    cards = page.locator("li.registration")
    assert cards.count() == 2
    assert "WBC Dune 2025" in cards.nth(0).inner_text() and "WBC Dune 2026" in cards.nth(1).inner_text()
    assert "Final" in cards.nth(1).inner_text() and "solo win" in cards.nth(1).inner_text()
    assert page.locator(".rating-chart svg polyline").is_visible()
    assert "after 4 games" in page.locator(".rating-summary").inner_text()
    assert "p3@example.org" not in page.content()
    assert page.evaluate(FITS), page.evaluate(WIDE)
    assert serious_violations(page) == []
    screenshot(page, "person-phone")


@pytest.mark.django_db(transaction=True)
def test_series_page_on_a_phone(phone_page: Any, live_server: Any, series: Any, screenshot: Any) -> None:
    page = phone_page
    page.goto(f"{live_server.url}/series/{series['series'].pk}/")
    editions = page.locator("table.editions tbody tr")
    assert editions.count() == 2
    assert "Player 0 with a rather long name" in editions.nth(0).inner_text()  # 2025 champion
    assert "Player 3 with a rather long name" in editions.nth(1).inner_text()  # 2026 champion
    assert editions.nth(0).locator("td").nth(1).inner_text() == "12"
    factions = page.locator("table.factions tbody tr")
    assert factions.count() >= 5
    ranks = page.locator("table.ratings tbody tr")
    assert ranks.count() == 12
    values = [float(ranks.nth(i).locator("td").nth(2).inner_text()) for i in range(ranks.count())]
    assert values == sorted(values, reverse=True)
    assert "Last recomputed" in page.locator("main").inner_text()
    assert page.evaluate(FITS), page.evaluate(WIDE)
    assert serious_violations(page) == []
    screenshot(page, "series-phone")
    ranks.nth(0).get_by_role("link").click()
    page.wait_for_load_state()
    assert page.locator("#person-name").is_visible()
    assert page.evaluate(FITS), page.evaluate(WIDE)


@pytest.mark.django_db(transaction=True)
def test_person_and_series_pages_on_a_laptop(new_page: Any, live_server: Any, series: Any) -> None:
    page = new_page(viewport={"width": 1366, "height": 900}, locale="en-US", timezone_id="UTC")
    player = series["editions"][1][1][2]
    for path in (
        f"/people/{player.person_id}/",
        f"/series/{series['series'].pk}/",
        "/people/?q=Player+3",
    ):
        page.goto(f"{live_server.url}{path}")
        assert page.locator("h1").is_visible()
        assert page.evaluate(FITS), (path, page.evaluate(WIDE))
        assert serious_violations(page) == [], path
