"""The head judge's round clocks dashboard in a real browser, with a real Celery worker
moving the clocks: the countdown counts, a table passes into "time up" while the page is
open, and the page re-syncs with the server when it becomes visible again."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from clocks import services, tasks, transitions
from tests.clocks.conftest import seated, started_clock_due_in
from tests.e2e.accessibility import serious_violations

pytestmark = pytest.mark.django_db(transaction=True)


def remaining(page: Any, number: int) -> str:
    return page.locator(f"#table-{number} [data-clock-remaining]").inner_text()


def seconds(text: str) -> int:
    h, m, s = (int(x) for x in text.split(":"))
    return h * 3600 + m * 60 + s


@pytest.fixture
def round_with_clocks(db: Any) -> Any:
    """Table 1 in its last 30 minutes with time up 6 s away; table 2 just started."""
    round_ = seated(format="wbc", size=6, tables=2)
    first, second = round_.tables.order_by("number")
    started_clock_due_in(first, seconds=6, stage="time_up")
    transitions.advance()
    services.start(second, user=None)
    assert tasks.arm_due() == 1
    return round_


def test_dashboard_counts_and_a_table_reaches_time_up(
    celery_worker: Any,
    page: Any,
    live_server: Any,
    head_judge: Any,
    password: str,
    sign_in: Any,
    screenshot: Any,
    round_with_clocks: Any,
) -> None:

    sign_in(page, head_judge.username, password)
    page.goto(f"{live_server.url}/rounds/{round_with_clocks.pk}/clocks/")
    row = page.locator("#table-1")
    expect(row).to_have_class(re.compile(r"\bstate-last_30\b"))
    expect(page.locator("#table-2")).to_have_class(re.compile(r"\bstate-running\b"))
    first = seconds(remaining(page, 1))
    assert 0 < first <= 6
    expect(row.locator("[data-clock-remaining]")).not_to_have_text(remaining(page, 1))
    assert seconds(remaining(page, 1)) < first  # counting down in the page
    assert 4 * 3600 + 29 * 60 < seconds(remaining(page, 2)) <= 4 * 3600 + 30 * 60
    screenshot(page, "clock-dashboard-last-30")
    # The worker moves the clock at its deadline; the page asks the server when it reaches 0.
    expect(row).to_have_class(re.compile(r"\bstate-time_up\b"), timeout=15_000)
    expect(row.locator("[data-clock-label]")).to_have_text("Time up")
    screenshot(page, "clock-dashboard-time-up")
    assert serious_violations(page) == []
    page.get_by_role("link", name="Table 1").click()
    expect(page.locator(".table-clock")).to_have_class(re.compile(r"\bstate-time_up\b"))
    screenshot(page, "clock-table-page-time-up")
    assert serious_violations(page) == []
    page.goto(f"{live_server.url}/rounds/{round_with_clocks.pk}/clocks/")
    page.get_by_role("link", name="Table 2").click()
    expect(page.locator(".table-clock")).to_have_class(re.compile(r"\bstate-running\b"))
    screenshot(page, "clock-table-page")
    assert serious_violations(page) == []


def test_phone_page_resyncs_when_it_becomes_visible(
    phone_page: Any, live_server: Any, head_judge: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    """The countdown follows the server's time even on a phone whose clock is 3 hours wrong;
    after the phone sleeps, the page fetches the clock again: an extension made meanwhile
    shows at once (visibilitychange), without a reload."""
    from datetime import UTC, datetime, timedelta

    round_ = seated(format="lolv", size=5, tables=1)
    table = round_.tables.get()
    services.start(table, user=head_judge)
    phone_page.clock.set_system_time(datetime.now(UTC) - timedelta(hours=3))
    sign_in(phone_page, head_judge.username, password)
    phone_page.goto(f"{live_server.url}/rounds/{round_.pk}/clocks/")
    countdown = phone_page.locator("#table-1 [data-clock-remaining]")
    expect(countdown).to_have_text(re.compile(r"\d:\d\d:\d\d"))
    expect(countdown).not_to_have_text(countdown.inner_text())  # the page's countdown ticks
    skew = datetime.now(UTC).timestamp() * 1000 - phone_page.evaluate("Date.now()")
    assert 2.9 * 3600_000 < skew < 3.1 * 3600_000  # the phone's clock really is wrong
    before = seconds(remaining(phone_page, 1))
    assert (
        4 * 3600 + 29 * 60 < before <= 4 * 3600 + 30 * 60
    )  # LoLV 4.01.08: 5 h for 5 players, last 30 at 4:30
    services.extend(table, minutes=10, reason="phone test", user=head_judge)
    phone_page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    phone_page.wait_for_function(
        "() => { const t = document.querySelector('#table-1 [data-clock-remaining]').textContent.split(':');"
        " return (+t[0]) * 3600 + (+t[1]) * 60 + (+t[2]) > 4 * 3600 + 35 * 60; }",
        timeout=5_000,
    )
    from django.utils import timezone

    from clocks.models import TableClock

    moved = timezone.localtime(TableClock.objects.get(table=table).last_30_at).strftime("%H:%M")
    expect(phone_page.locator('#table-1 [data-clock-deadline="last_30"] > span')).to_have_text(moved)
    screenshot(phone_page, "clock-dashboard-phone")
