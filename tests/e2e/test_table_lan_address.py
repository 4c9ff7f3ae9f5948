"""Browser, phone (390×844), at the venue's own address: Chromium in a network namespace reaches
the server at a plain-HTTP LAN address (10.233.x.1), as a phone reaches the laptop at the venue.

There the browser gives no service worker and no offline copy of the page (not a secure
context): the page says so while offline instead of promising a copy, the actions wait on the
phone all the same (IndexedDB, kept by the page), survive the browser's offline page and a
reload once the Wi-Fi is back, and land once, in order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM_ARGS, PHONE
from tests.e2e.lan_host import lan_host, unavailable
from tests.e2e.test_table_venue import log_after, seeded_table, wait_queued


@pytest.fixture
def lan_phone(browser: Any, live_server: Any, settings: Any) -> Iterator[tuple[Any, str]]:
    """A phone page in a browser that sees the server only at its LAN address."""
    why = unavailable()
    if why:
        pytest.skip(f"no network namespace for a phone on the LAN here: {why}")
    host, port = live_server.thread.host, live_server.thread.port
    with lan_host(host, port) as lan:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, lan.address]
        phone_browser = browser.browser_type.launch(executable_path=lan.chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            context = phone_browser.new_context(viewport=PHONE, locale="en-US", timezone_id="UTC")
            context.set_default_timeout(15_000)
            yield context.new_page(), lan.url
            context.close()
        finally:
            phone_browser.close()


def test_the_offline_journey_at_the_venues_lan_address(
    lan_phone: Any, make_user: Any, password: str, screenshot: Any
) -> None:
    page, base = lan_phone
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")  # turn 2, storm phase
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("judge1")
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    url = f"{base}/tables/{table.pk}/"
    page.goto(url)
    # What a phone at the venue gets: not a secure context, so no service worker.
    assert page.evaluate("() => [window.isSecureContext, 'serviceWorker' in navigator]") == [False, False]
    assert page.evaluate("() => window.tableOutbox.keepsCopy") is False
    seq = int(page.locator("#table-live").get_attribute("data-seq"))

    page.context.set_offline(True)
    page.locator("#offline-banner").wait_for()
    # The judge is told plainly what a reload would show here.
    assert "Do not reload" in page.locator("#offline-banner").inner_text()
    page.get_by_label("Move storm by (sectors)").fill("3")
    page.locator("form[data-event-type=storm_moved]").get_by_role("button").click()
    wait_queued(page, 1)
    page.locator("#phase-select").select_option("spice_blow")
    page.locator("form[data-action=advance_phase]").get_by_role("button").click()
    wait_queued(page, 2)
    page.locator("#phase-select").select_option("battle")
    page.locator("form[data-action=advance_phase]").get_by_role("button").click()
    wait_queued(page, 3)
    screenshot(page, "table-lan-offline")
    assert log_after(table, seq) == []

    # A reload while offline: the browser's own offline page, as the banner said.
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
        page.reload()

    page.context.set_offline(False)
    page.goto(url)  # back online: the page again, and the actions still on the phone
    wait_queued(page, 0)
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 3}'")
    landed = log_after(table, seq)
    assert [(s, t) for s, t, _ in landed] == [(seq + 1, "storm_moved"), (seq + 2, "phase_advanced"),
                                             (seq + 3, "phase_advanced")]
    assert landed[0][2]["sectors"] == 3
    assert [b["phase"] for _, _, b in landed[1:]] == ["spice_blow", "battle"]
    assert page.locator("#phase").inner_text() == "Battle"
