"""Browser, phone (390×844): the table page on venue Wi-Fi. Refusals stay in view with what was
entered, actions wait on the phone while offline and land exactly once and in order, another
judge's write shows as a conflict the judge decides, and one action on slow 3G is quick."""

from __future__ import annotations

import time
from typing import Any

from gameplay import services
from gameplay.models import GameEvent
from tests.e2e.navigation import reload
from tests.e2e.session import sign_in_by_session
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.recorded_game import recorded_game

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
VIEW_HEIGHT = 844


def seeded_table(judge: Any, *, until: str, occurrence: int = 1, round_: Any = None, number: int = 1) -> Any:
    """A WBC heat table recorded up to (and including) the `occurrence`-th event of type `until`
    (table `number` of `round_`, or of a new tournament's first heat)."""
    round_ = round_ or make_round(make_tournament(format="wbc"))
    tournament = round_.tournament
    tournament.table_judges.add(judge)
    players = make_players(tournament, 6, prefix="Player" if number == 1 else f"Table {number}")
    table = seat_table(round_, players, number=number, factions=SIX, judge=judge)
    services.game_for(table)
    seq, seen = 1, 0
    for event in recorded_game():
        services.append_event(table, event, expected_seq=seq, user=judge)
        seq += 1
        if event["type"] == until:
            seen += 1
            if seen == occurrence:
                break
    return table


def log_after(table: Any, seq: int) -> list[tuple[int, str, dict[str, Any]]]:
    return [(e.seq, e.type, e.body) for e in GameEvent.objects.filter(game__table=table, seq__gt=seq).order_by("seq")]


def in_viewport(locator: Any) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEW_HEIGHT


def queued(page: Any) -> int:
    return int(page.locator("#outbox").get_attribute("data-queued"))


def wait_queued(page: Any, n: int) -> None:
    page.wait_for_function(f"() => document.getElementById('outbox').dataset.queued === '{n}'")


def open_table(page: Any, sign_in: Any, live_server: Any, password: str, table: Any, user: str = "judge1") -> str:
    """The table page, signed in as `user` (by session: the sign-in form is not what is looked at)."""
    sign_in_by_session(page, live_server.url, user, password)
    url = f"{live_server.url}/tables/{table.pk}/"
    page.goto(url)
    return url


def test_a_refused_alliance_stays_in_view_with_its_checkboxes(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="worm")  # turn 2's worm: a nexus is open
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    nexus = page.locator("form[data-event-type=alliance_formed]")
    # Four in one alliance: more than the WBC house rules allow (three, at a table of six).
    for name in ("Atreides", "Fremen", "Emperor", "Guild"):
        nexus.get_by_label(name).check()
    nexus.get_by_role("button", name="Form alliance").click()
    refusal = page.locator("#refusal")
    refusal.wait_for()
    screenshot(page, "table-venue-refusal")
    assert in_viewport(refusal), refusal.bounding_box()
    assert refusal.get_attribute("role") == "alert"
    assert in_viewport(page.locator("#err-form_alliance-factions, #err-form_alliance-form").first)
    nexus = page.locator("form[data-event-type=alliance_formed]")
    for name in ("Atreides", "Fremen", "Emperor", "Guild"):
        assert nexus.get_by_label(name).is_checked()
    assert not nexus.get_by_label("Harkonnen").is_checked()
    assert page.locator("#table-live").get_attribute("data-seq") == str(seq)
    assert log_after(table, seq) == []
    assert "Recorded" not in page.locator("#pinned").inner_text()
    # The refused action stays on the phone, not sent, with its rule, until the judge decides.
    assert queued(page) == 1
    held = page.locator("#pending li[data-state=refused]")
    assert "not sent" in held.inner_text() and "Form alliance" in held.inner_text()
    assert "Refused:" in held.inner_text()
    assert "Refused" in page.locator("#outbox").inner_text()
    held.get_by_role("button", name="Discard").click()
    wait_queued(page, 0)
    assert page.locator("#pending").count() == 0
    assert log_after(table, seq) == []


def test_a_corrected_form_takes_the_place_of_its_refused_action(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="worm")
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    nexus = page.locator("form[data-event-type=alliance_formed]")
    for name in ("Atreides", "Fremen", "Emperor", "Guild"):
        nexus.get_by_label(name).check()
    nexus.get_by_role("button", name="Form alliance").click()
    page.locator("#refusal").wait_for()
    wait_queued(page, 1)
    nexus = page.locator("form[data-event-type=alliance_formed]")
    nexus.get_by_label("Guild").uncheck()
    nexus.get_by_label("Three allies: all agreed at the start of the game").check()  # WBC house rules
    nexus.get_by_role("button", name="Form alliance").click()
    wait_queued(page, 0)
    assert [t for _, t, _ in log_after(table, seq)] == ["alliance_formed"]


def test_offline_actions_survive_a_reload_and_land_once_in_order(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")  # turn 2, storm phase
    page = phone_page
    url = open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    reload(page)  # now under the service worker, which keeps a copy of the page
    # (Functions, not expressions: the page's Content-Security-Policy forbids evaluating strings.)
    page.wait_for_function("async () => !!(await caches.match(location.pathname, {ignoreVary: true}))")

    page.context.set_offline(True)
    page.locator("#offline-banner").wait_for()
    page.get_by_label("Move storm by (sectors)").fill("3")
    page.locator("form[data-event-type=storm_moved]").get_by_role("button").click()
    wait_queued(page, 1)
    page.locator("#phase-select").select_option("spice_blow")
    page.locator("form[data-action=advance_phase]").get_by_role("button").click()
    wait_queued(page, 2)
    page.locator("#phase-select").select_option("battle")
    page.locator("form[data-action=advance_phase]").get_by_role("button").click()
    wait_queued(page, 3)
    assert log_after(table, seq) == []

    reload(page)  # offline: the service worker answers with the kept page
    page.locator("#table-live").wait_for()
    wait_queued(page, 3)
    assert page.locator("#offline-banner").is_visible()
    screenshot(page, "table-venue-offline")
    assert page.url == url

    page.context.set_offline(False)
    wait_queued(page, 0)
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 3}'")
    landed = log_after(table, seq)
    assert [(s, t) for s, t, _ in landed] == [(seq + 1, "storm_moved"), (seq + 2, "phase_advanced"),
                                             (seq + 3, "phase_advanced")]
    assert landed[0][2]["sectors"] == 3
    assert [b["phase"] for _, _, b in landed[1:]] == ["spice_blow", "battle"]
    assert page.locator("#phase").inner_text() == "Battle"


def test_another_judges_write_meanwhile_is_a_visible_conflict_not_a_lost_action(
    phone_page: Any, live_server: Any, make_user: Any, head_judge: Any, password: str, sign_in: Any,
    screenshot: Any,
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    page.context.set_offline(True)
    page.get_by_label("Move storm by (sectors)").fill("3")
    page.locator("form[data-event-type=storm_moved]").get_by_role("button").click()
    wait_queued(page, 1)
    # Meanwhile the head judge records the Atreides' spice from another phone.
    services.append_event(table, {"type": "spice_set", "faction": "atreides", "amount": 7}, expected_seq=seq,
                          user=head_judge)

    page.context.set_offline(False)
    conflict = page.locator("#conflict")
    conflict.wait_for()
    screenshot(page, "table-venue-conflict")
    assert in_viewport(conflict)
    assert "Move storm" in page.locator("#conflict-mine").inner_text()
    assert "3" in page.locator("#conflict-mine").inner_text()
    theirs = page.locator("#conflict-theirs").inner_text()
    assert "Spice Set" in theirs and "Atreides" in theirs and "head" in theirs
    assert queued(page) == 1  # kept until the judge decides
    assert len(log_after(table, seq)) == 1

    page.get_by_role("button", name="Send it on the new position").click()
    wait_queued(page, 0)
    assert conflict.is_hidden()
    landed = log_after(table, seq)
    assert [t for _, t, _ in landed] == ["spice_set", "storm_moved"] and landed[1][2]["sectors"] == 3


def test_an_action_on_slow_3g_is_small_and_quick(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 2000, "downloadThroughput": 50 * 1024, "uploadThroughput": 50 * 1024,
    })
    page.get_by_label("Move storm by (sectors)").fill("3")
    started = time.monotonic()
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.locator("form[data-event-type=storm_moved]").get_by_role("button").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 1}'")
    took = time.monotonic() - started
    sizes = answer.value.request.sizes()
    transferred = sizes["responseBodySize"] + sizes["responseHeadersSize"]
    assert transferred < 10 * 1024, sizes
    assert took < 3.0, took
    assert log_after(table, seq)[0][1] == "storm_moved"


def test_a_half_filled_report_survives_a_reload_and_filing_happens_once(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    from scoring.models import GameReport

    judge = make_user("judge1")
    table = seeded_table(judge, until="victory_claimed")
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.get_by_role("link", name="Game report").first.click()
    page.wait_for_load_state()
    first_spice = page.locator("input[name$='_spice']").first
    first_spice.fill("17")
    page.reload()
    assert page.locator("input[name$='_spice']").first.input_value() == "17"
    assert "restored" in page.locator("#report-form").inner_text()

    page.get_by_role("button", name="File the report").click()  # not confirmed: the browser asks
    assert not GameReport.objects.filter(table=table).exists()
    page.get_by_label("I checked every row with the players: file and lock this report.").check()
    page.get_by_role("button", name="File the report").click()
    page.wait_for_load_state()
    assert "Filed." in page.locator(".messages").inner_text()
    page.reload()
    page.go_back()
    page.reload()
    report = GameReport.objects.get(table=table)
    assert report.version == 1
    assert 17 in [r.get("spice") for r in report.data["results"]]
