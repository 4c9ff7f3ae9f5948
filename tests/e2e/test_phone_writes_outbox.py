"""Browser, phone (390×844): the phone's other writes go through the same outbox rules as the
table page's events: filing the game report and a clock action made offline wait on the phone,
in view; a session lost meanwhile is signed in again on the page; each write is done once."""

from __future__ import annotations

from typing import Any

from clocks import services as clock_services
from clocks.models import TableClock
from scoring.models import GameReport
from tests.clocks.conftest import seated
from tests.e2e.test_table_outbox_sign_in import delete_sessions
from tests.e2e.test_table_venue import in_viewport, open_table, seeded_table


def outbox_panel(page: Any) -> Any:
    return page.locator("#page-outbox")


def wait_panel(page: Any, queued: int) -> None:
    page.wait_for_function(
        f"() => {{ const p = document.getElementById('page-outbox'); return p && p.dataset.queued === '{queued}'; }}"
    )


def sign_in_here(page: Any, username: str, password: str) -> None:
    sheet = outbox_panel(page).locator("form")
    sheet.get_by_label("Username").fill(username)
    sheet.get_by_label("Password").fill(password)
    sheet.get_by_role("button", name="Sign in and send").click()


def test_a_report_filed_offline_through_a_lost_session_is_filed_once(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="victory_claimed")
    page = phone_page
    url = open_table(page, sign_in, live_server, password, table)
    page.goto(url + "report/")
    page.context.set_offline(True)
    page.get_by_label("I checked every row with the players: file and lock this report.").check()
    page.get_by_role("button", name="File the report").click()
    wait_panel(page, 1)
    assert "waiting to be sent" in outbox_panel(page).inner_text()
    assert "File the report" in outbox_panel(page).inner_text()
    delete_sessions(page)

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_function("() => document.getElementById('page-outbox').dataset.summary === 'signin'")
    screenshot(page, "report-outbox-sign-in-again")
    assert "Sign in again to send 1 action" in outbox_panel(page).inner_text()
    assert in_viewport(outbox_panel(page).get_by_role("button", name="Sign in and send"))
    assert not GameReport.objects.filter(table=table).exists()

    sign_in_here(page, "judge1", password)
    page.wait_for_url(url)  # done: the page the form's answer points to
    assert "Filed." in page.locator(".messages").inner_text()
    report = GameReport.objects.get(table=table)
    assert report.version == 1 and report.filed_by == judge


def test_a_clock_pause_made_offline_is_sent_once_when_back_online(
    phone_page: Any, live_server: Any, head_judge: Any, password: str, sign_in: Any
) -> None:
    round_ = seated(format="wbc", size=6, tables=1)
    round_.tournament.head_judges.add(head_judge)
    table = round_.tables.get()
    clock_services.start(table, user=head_judge)
    page = phone_page
    sign_in(page, head_judge.username, password)
    page.goto(f"{live_server.url}/tables/{table.pk}/clock/")
    page.context.set_offline(True)
    page.get_by_role("button", name="Pause").first.click()
    wait_panel(page, 1)
    assert not TableClock.objects.get(table=table).paused_at

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_load_state()
    page.wait_for_function("() => !document.getElementById('page-outbox') || document.getElementById('page-outbox').dataset.queued === '0'")
    clock = TableClock.objects.get(table=table)
    assert clock.paused_at is not None
    assert "paused" in page.locator(".messages").inner_text()
