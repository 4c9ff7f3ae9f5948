"""Browser, phone (390×844): actions waiting on the phone through a lost session, a stale
security token and the wrong account. Nothing leaves the phone unrecorded: the actions stay in
view as not sent with the reason, the judge signs in again on the page itself (no navigation,
the queue stays), and each action is then recorded once, in order, under its own key."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings

from foundation.models import IdempotencyRecord
from tests.e2e.test_table_venue import in_viewport, log_after, open_table, queued, seeded_table, wait_queued


def queue_two_offline(page: Any) -> list[str]:
    """Offline: move the storm by 3 and advance to the spice blow; the keys the phone made."""
    page.get_by_label("Move storm by (sectors)").fill("3")
    page.locator("form[data-event-type=storm_moved]").get_by_role("button").click()
    wait_queued(page, 1)
    page.locator("#phase-select").select_option("spice_blow")
    page.locator("form[data-action=advance_phase]").get_by_role("button").click()
    wait_queued(page, 2)
    return page.evaluate("async () => (await window.tableOutbox.waiting()).map(i => i.key)")


def assert_landed_once_in_order(page: Any, table: Any, seq: int, keys: list[str], user: Any) -> None:
    wait_queued(page, 0)
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 2}'")
    landed = log_after(table, seq)
    assert [(s, t) for s, t, _ in landed] == [(seq + 1, "storm_moved"), (seq + 2, "phase_advanced")]
    assert landed[0][2]["sectors"] == 3 and landed[1][2]["phase"] == "spice_blow"
    # Sent under the keys the phone made while offline, each recorded once.
    stored = IdempotencyRecord.objects.filter(key__in=keys)
    assert sorted(stored.values_list("key", flat=True)) == sorted(keys)
    assert {r.user_id for r in stored} == {user.pk}
    assert page.locator("#pending").count() == 0


def mark_page(page: Any) -> None:
    """A mark that a navigation or reload would wipe: the page must stay the same page."""
    page.evaluate("() => { window.__stayed = true; }")


def stayed(page: Any) -> bool:
    return bool(page.evaluate("() => window.__stayed === true"))


def delete_sessions(page: Any) -> None:
    engine = import_module(settings.SESSION_ENGINE)
    for cookie in page.context.cookies():
        if cookie["name"] == settings.SESSION_COOKIE_NAME:
            engine.SessionStore(session_key=cookie["value"]).delete()


def sign_in_in_place(page: Any, username: str, password: str) -> None:
    sheet = page.locator("#sign-in-sheet")
    sheet.get_by_label("Username").fill(username)
    sheet.get_by_label("Password").fill(password)
    sheet.get_by_role("button", name="Sign in and send").click()


def test_a_session_deleted_while_offline_keeps_the_actions_until_the_judge_signs_in_in_place(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")  # turn 2, storm phase
    page = phone_page
    url = open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    mark_page(page)
    page.context.set_offline(True)
    keys = queue_two_offline(page)
    delete_sessions(page)  # the session ran out on the server meanwhile

    page.context.set_offline(False)
    sheet = page.locator("#sign-in-sheet")
    sheet.wait_for()
    page.wait_for_function("() => document.getElementById('outbox').dataset.summary === 'signin'")
    screenshot(page, "table-outbox-sign-in-again")
    assert "Sign in again to send 2 actions" in page.locator("#outbox").inner_text()
    assert in_viewport(sheet.get_by_role("button", name="Sign in and send"))
    assert in_viewport(page.locator("#outbox"))
    pending = page.locator("#pending li")
    assert pending.count() == 2 and queued(page) == 2
    assert "not sent" in pending.nth(0).inner_text() and "Move storm" in pending.nth(0).inner_text()
    assert "Sign in again" in pending.nth(0).inner_text()
    assert log_after(table, seq) == []

    sign_in_in_place(page, "judge1", "not the password")
    page.locator("#sign-in-error").wait_for()
    assert "correct username and password" in page.locator("#sign-in-error").inner_text()
    assert queued(page) == 2 and log_after(table, seq) == []

    sign_in_in_place(page, "judge1", password)
    assert_landed_once_in_order(page, table, seq, keys, judge)
    assert sheet.is_hidden()
    assert stayed(page) and page.url == url  # signed in on the page: no navigation
    assert page.locator("#phase").inner_text() == "Spice blow"


def test_a_token_rotated_by_a_sign_in_in_another_tab_is_renewed_and_the_actions_sent(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")
    page = phone_page
    url = open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    old_token = next(c["value"] for c in page.context.cookies() if c["name"] == settings.CSRF_COOKIE_NAME)
    mark_page(page)
    # This tab only goes offline (the other tab of the same browser stays online).
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", offline)
    keys = queue_two_offline(page)

    other = page.context.new_page()
    sign_in(other, "judge1", password)  # a new session, and a new CSRF secret for the browser
    other.close()
    new_token = next(c["value"] for c in page.context.cookies() if c["name"] == settings.CSRF_COOKIE_NAME)
    assert new_token != old_token

    with page.expect_response(lambda r: r.request.method == "POST" and r.status == 403) as refused:
        cdp.send("Network.emulateNetworkConditions", {**offline, "offline": False})
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
    assert refused.value.headers.get("x-refused") == "csrf"
    assert_landed_once_in_order(page, table, seq, keys, judge)
    assert stayed(page) and page.url == url
    assert page.locator("#sign-in-sheet").is_hidden()


def test_not_this_tables_judge_keeps_the_actions_for_a_head_judge_to_send(
    phone_page: Any, live_server: Any, make_user: Any, head_judge: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")
    table.round.tournament.head_judges.add(head_judge)
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    page.context.set_offline(True)
    keys = queue_two_offline(page)
    # Meanwhile the desk gave the table to another judge.
    table.judge = make_user("judge2")
    table.save(update_fields=["judge"])
    table.round.tournament.table_judges.remove(judge)

    page.context.set_offline(False)
    page.wait_for_function("() => document.getElementById('outbox').dataset.summary === 'signin'")
    assert "Not this table's judge" in page.locator("#outbox").inner_text()
    first = page.locator("#pending li").nth(0)
    assert "not this table's judge" in first.inner_text() and "not sent" in first.inner_text()
    assert queued(page) == 2 and log_after(table, seq) == []

    sign_in_in_place(page, "head", password)
    assert_landed_once_in_order(page, table, seq, keys, head_judge)
