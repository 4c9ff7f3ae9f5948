"""Browser, phone (390×844): the next step leads every tap. Two whole quick-tracked turns,
tapped through the next step's control alone: after every tap that control is inside the
viewport with the keyboard focus on it, and no page is loaded. A refusal sits right above its
form, both in view and apart; the offline copy is the last record the judge saw, labelled;
an idle minute costs at most 10 KB; and nothing a judge or player reads is an id."""

from __future__ import annotations

from typing import Any

from gameplay.models import GameEvent
from tests.e2e.navigation import reload
from tests.e2e.phone_walk import Tap, Wire, next_control, snake_words, visible_text, walk_turns
from tests.e2e.test_table_venue import open_table, seeded_table, wait_queued

VIEW = {"width": 390, "height": 844}
IDLE_MINUTE_BYTES = 10_000
TAP_BYTES = 10_000


def inside(box: dict[str, float] | None) -> bool:
    return (box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEW["height"]
            and box["x"] >= 0 and box["x"] + box["width"] <= VIEW["width"])


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
                or a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"])


def focused_is_next_control(page: Any) -> bool:
    return bool(next_control(page).evaluate("c => document.activeElement === c"))


def test_two_whole_turns_keep_the_next_steps_control_in_view_and_focused(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=6)  # turn 7 opens
    seq = GameEvent.objects.filter(game__table=table).count()
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    wire = Wire(page)
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url))
    seen: list[str] = []

    def check(page: Any, tap: Tap) -> None:
        seen.append(tap.step)
        assert not page.locator("#refusal, #stale").count(), page.locator("#pinned").inner_text()
        control = next_control(page)
        assert inside(control.bounding_box()), (tap, control.bounding_box())
        assert focused_is_next_control(page), (tap, page.evaluate("() => document.activeElement.outerHTML"))
        assert tap.bytes <= TAP_BYTES, tap
        # The win-attempt step's big button confirms the attempt; Mentat Pause comes after it.
        if page.locator("#next").get_attribute("data-step") == "attempts":
            assert control.inner_text().strip() == "Confirm win attempt"
            buttons = page.locator("#next button").all_inner_texts()
            assert buttons.index("Confirm win attempt") < buttons.index("Mentat Pause"), buttons

    walk = walk_turns(page, wire, turns=2, after_tap=check)
    screenshot(page, "table-next-step-two-turns")
    assert len(walk.turns) == 2, [t.step for t in walk.taps]
    assert loads == []  # every tap answered in place
    # The pairs: the storm with no worm, the Mentat Pause with the next turn (the single steps:
    # tests/e2e/test_table_turn_taps.py).
    assert {"move_storm", "strongholds", "battle_done"} <= set(seen), seen
    assert len(walk.taps) <= 8, [t.control for t in walk.taps]
    recorded = [e.type for e in GameEvent.objects.filter(game__table=table, seq__gt=seq).order_by("seq")]
    assert recorded.count("turn_advanced") == 2 and recorded.count("quick_record") == 2
    assert page.locator("#turn").inner_text() == "9"


def test_a_refusal_sits_above_its_form_both_in_view(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="worm")  # turn 2's worm: a nexus is open
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    form = page.locator("form[data-event-type=alliance_formed]")
    allies = ("Atreides", "Fremen", "Emperor", "Harkonnen")  # WBC: three at most, at a table of six
    for name in allies:
        form.get_by_label(name).check()
    form.get_by_role("button", name="Form alliance").click()
    refusal = page.locator("#refusal")
    refusal.wait_for()
    page.wait_for_function("() => document.getElementById('refusal').nextElementSibling.matches('form')")
    screenshot(page, "table-next-step-refusal")
    form = page.locator("form[data-event-type=alliance_formed]")
    assert inside(refusal.bounding_box()) and inside(form.bounding_box()), (refusal.bounding_box(), form.bounding_box())
    assert not overlap(refusal.bounding_box(), form.bounding_box())
    assert refusal.bounding_box()["height"] < 200  # a short block, not a banner over the page
    assert form.evaluate("f => f.contains(document.activeElement)")
    for name in allies:
        assert form.get_by_label(name).is_checked()
    # Nothing covers the form: the element at its button's centre is the button.
    button = form.get_by_role("button", name="Form alliance").bounding_box()
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).textContent.trim()",
                        [button["x"] + button["width"] / 2, button["y"] + button["height"] / 2])
    assert hit == "Form alliance"


def test_the_break_form_lists_only_alliance_members(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="worm", occurrence=3)
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    allied = {f for a in GameEvent.objects.filter(game__table=table).last().game.position["alliances"] for f in a}
    select = page.locator("#break-faction")
    if not allied or not select.count():
        return  # no alliance to break in this position: the form is not offered at all
    offered = [o for o in select.locator("option").all_inner_texts() if o != "Choose a faction"]
    from dune.engine.names import faction_name

    assert sorted(offered) == sorted(faction_name(f) for f in allied)


def test_the_offline_copy_is_the_last_record_seen_and_queued_actions_are_pending_records(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced")  # turn 2, storm phase
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    reload(page)  # under the service worker from now on
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    page.locator("#storm-sectors").fill("3")
    page.locator("#next").get_by_role("button", name="Move storm", exact=True).click()  # recorded online: the
    # copy follows this answer, no second request
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 1}'")
    page.wait_for_function(
        "async () => { const r = await caches.match(location.pathname);"
        f" return !!r && (await r.text()).includes('data-offline-copy=\"record #{seq + 1},'); }}"
    )
    page.context.set_offline(True)
    reload(page)
    copy = page.locator("#offline-copy")
    copy.wait_for()
    assert f"Offline copy as of record #{seq + 1}, " in copy.inner_text()
    assert page.locator("#seq").inner_text() == str(seq + 1)
    next_control(page).click()  # "No worm: battle phase", queued on the phone
    wait_queued(page, 1)
    pending = page.locator("#next #pending li")
    assert f"Record #{seq + 2} (waiting, not sent yet)" in pending.inner_text()
    screenshot(page, "table-next-step-offline")
    # The offline line and the count are one line each and cover no control.
    for banner in ("#offline-banner", "#outbox"):
        assert page.locator(banner).bounding_box()["height"] <= 40
    assert inside(next_control(page).bounding_box())
    assert focused_is_next_control(page)
    page.context.set_offline(False)
    wait_queued(page, 0)
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 2}'")
    assert not page.locator("#pending").count() and page.locator("#offline-copy").is_hidden()


def test_an_idle_minute_costs_at_most_10_kb(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=3)
    page = phone_page
    page.clock.install()
    open_table(page, sign_in, live_server, password, table)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_load_state("networkidle")
    wire = Wire(page)
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith("/game/") else None)
    for _ in range(6):  # one minute, ten seconds at a time, every poll answered
        with page.expect_response(lambda r: r.url.endswith("/game/")):
            page.clock.run_for(10_000)
    print(f"idle minute: {wire.bytes} bytes in {wire.requests} requests")
    assert wire.bytes <= IDLE_MINUTE_BYTES, wire.bytes
    assert statuses and set(statuses) == {304}, statuses  # the game unchanged: no body at all


def test_the_table_page_its_log_and_the_filed_report_read_in_words(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    from gameplay import services
    from tests.gameplay.recorded_game import recorded_game

    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=8)  # turn 9 opens
    table.round.tournament.head_judges.add(judge)
    seq = GameEvent.objects.filter(game__table=table).count()
    rest = list(recorded_game())[seq - 1:]
    # A typo: the turn is voided with a reason and recorded again; then the game runs to its end.
    again = dict(GameEvent.objects.get(game__table=table, seq=seq).body)
    typo = seq
    services.append_event(table, {"type": "void", "seq": seq, "reason": "typo"}, expected_seq=seq, user=judge)
    seq += 1
    services.append_event(table, again, expected_seq=seq, user=judge)
    seq += 1
    for event in rest:
        services.append_event(table, event, expected_seq=seq, user=judge)
        seq += 1
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")  # every form, opened
    assert snake_words(visible_text(page)) == []
    assert "LoLV" not in visible_text(page)  # a WBC table cites the rules it plays (AH 1979, WBC)
    page.goto(f"{live_server.url}/tables/{table.pk}/history/")
    assert snake_words(visible_text(page)) == []
    voided = page.evaluate("() => [...document.querySelectorAll('tr')]"
                           ".find(tr => / was voided$/.test((tr.querySelector('strong') || {}).textContent)).innerText")
    assert f"Record #{typo} was voided" in voided and voided.count("typo") == 1, voided  # the reason once
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.locator("#next").get_by_role("link", name="File the game report").click()
    page.wait_for_load_state()
    assert snake_words(visible_text(page)) == []
    page.get_by_label("I checked every row with the players: file and lock this report.").check()
    page.get_by_role("button", name="File the report").click()
    page.wait_for_load_state()
    assert page.locator(".messages").inner_text().strip() == "Filed."
    next_step = page.locator("#next")
    assert "The game is over" in next_step.inner_text() and "Filed at" in next_step.inner_text()
    assert next_step.get_by_role("link", name="Reopen the report (head judge)").count() == 1
    page.goto(f"{live_server.url}/tables/{table.pk}/filed-report/")
    screenshot(page, "table-filed-report-words")
    assert snake_words(visible_text(page)) == []


def test_another_judges_record_is_told_in_a_line_and_shown_in_place(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    from gameplay import services

    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=6)  # turn 7 opens
    page = phone_page
    page.clock.install()
    open_table(page, sign_in, live_server, password, table)
    seq = int(page.locator("#table-live").get_attribute("data-seq"))
    services.append_event(table, {"type": "storm_moved", "sectors": 4}, expected_seq=seq, user=judge)
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url))
    page.clock.run_for(15_000)
    note = page.locator("#live-note")
    note.wait_for()
    assert f"The game moved on to record #{seq + 1}" in note.inner_text()
    assert note.bounding_box()["height"] <= 60  # a line, not a banner over the page
    note.get_by_role("button", name="Show it").click()
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 1}'")
    assert loads == []
    assert inside(next_control(page).bounding_box()) and focused_is_next_control(page)
