"""The demo's event report in a browser: figures as the API gives them, charts with their
words and data, readable on a phone, and saved as PDF through the print stylesheet."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e import tour
from tests.e2e.accessibility import serious_violations
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_demo import load_demo

pytestmark = pytest.mark.django_db(transaction=True)

CHARTS = ("faction-wins", "game-length", "result-kinds", "adjudications")
LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def check_report(page: Any, url: str, api: dict[str, Any]) -> None:
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    tour.goto(page, url)
    report = page.locator("[data-event-report]")
    assert report.is_visible()
    figure = lambda key: page.locator(f'[data-figure="{key}"]').inner_text().strip()  # noqa: E731
    assert figure("players") == str(api["players"])
    assert figure("games") == str(api["games"])
    assert figure("turns_mean") == api["turns_mean"]
    assert figure("adjudicated") == str(api["adjudicated"]["games"])
    assert figure("hours_mean") == (api["hours_mean"] or "—")
    assert (
        page.locator("[data-provisional]").get_attribute("data-provisional")
        == str(api["provisional"]).lower()
    )
    for size, figures in api["by_size"].items():
        row = page.locator(f'tr[data-size="{size}"]')
        assert row.locator("td").first.inner_text() == str(figures["games"])
        hours = row.locator("[data-hours-mean]").inner_text()
        assert hours == (figures["hours_mean"] or "no clock record")
    for key in CHARTS:
        chart = page.locator(f'figure[data-chart="{key}"]')
        svg = chart.locator("svg[role=img]")
        assert svg.count() == 1 and svg.is_visible()
        # The SVG is named by its caption and its sentence, both present and worded.
        ids = svg.get_attribute("aria-labelledby").split()
        for ident in ids:
            assert page.locator(f"#{ident}").inner_text().strip()
        assert chart.locator("table.chart-data tbody tr").count() >= 1
        box = svg.bounding_box()
        assert box is not None and box["width"] <= page.viewport_size["width"]
    # Drawn in the site's colours: the charts' stylesheet arrived and nothing was refused.
    first_bar = page.locator("#pygal-faction-wins .serie-0 rect").first
    assert first_bar.evaluate("e => getComputedStyle(e).fill") == "rgb(11, 79, 138)"
    background = page.locator("#pygal-faction-wins .graph > .background")
    assert background.evaluate("e => getComputedStyle(e).fill") == "rgba(0, 0, 0, 0)"
    assert refused == []
    # The adjudication chart's data are the API's.
    rows = page.locator('figure[data-chart="adjudications"] table.chart-data tbody tr')
    played = [r for r in api["rounds"]["by_round"] if r["games"]]
    assert rows.count() == len(played)
    for i, r in enumerate(played):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[:2] == [str(r["games"]), str(r["adjudicated"])]
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map((e) => [e.getBoundingClientRect().right, e.tagName, String(e.className.baseVal ?? e.className), e.textContent.slice(0, 40)])
            .sort((a, b) => b[0] - a[0]).slice(0, 6)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), wide
    assert serious_violations(page) == []


def test_the_demo_event_report_on_a_laptop_a_phone_and_paper(
    new_page: Any, live_server: Any, screenshot: Any
) -> None:
    from django.core.cache import cache

    from scoring.models import GameReport
    from tournament.models import Tournament

    cache.clear()
    load_demo()
    tournament = Tournament.objects.get(name="WBC Dune demo")
    base = live_server.url
    url = f"{base}/tournaments/{tournament.pk}/event-report/"

    for name, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page = new_page(viewport=viewport, locale="en-US", timezone_id="UTC", timeout=10_000)
        api = page.request.get(f"{base}/api/tournaments/{tournament.pk}/event-report/").json()
        filed = GameReport.objects.filter(tournament=tournament, state=GameReport.State.FILED).count()
        assert api["games"] == filed >= 7 and api["provisional"] is True
        assert api["hours_mean"] not in (None, "0.00")  # the demo's heat 1 clocks ran the morning
        check_report(page, url, api)
        # Reached from the tournament's navigation.
        tour.goto(page, f"{base}/tournaments/{tournament.pk}/")
        page.get_by_role("link", name="Event report").click()
        page.wait_for_url(url)
        screenshot(page, f"event-report-{name}")
        if name == "phone":
            page.locator('figure[data-chart="result-kinds"]').scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "event-report-phone-chart.png"))
        if name == "laptop":
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            for paper, box in (("A4", b"[0 0 595.91998 842.88]"), ("Letter", b"[0 0 612 792]")):
                path = ARTIFACTS.parent / f"event-report-{paper.lower()}.pdf"
                pdf = page.pdf(path=str(path), format=paper, print_background=True)
                assert pdf.startswith(b"%PDF") and path.stat().st_size > 10_000
                pages = re.findall(rb"/MediaBox\s*(\[[^\]]*\])", pdf)
                assert 1 <= len(pages) <= 8 and set(pages) == {box}, (paper, pages)
            # On paper the site's navigation and the download links are left out.
            page.emulate_media(media="print")
            assert not page.locator(".site-header").is_visible()
            assert not page.locator(".downloads").is_visible()
            assert page.locator('figure[data-chart="faction-wins"] svg').is_visible()
