"""Browser, phone (390×844): nothing typed is lost. The judge sends a shipment and, while its
answer is on the way, starts the next entry in the move form; the answer comes in around it:
what was typed, the caret and the focus stay, and the next keys land in the same field."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from gameplay.models import GameEvent
from tests.e2e.test_table_venue import open_table
from tests.gameplay.full_game import BEFORE_THE_STORM, final_table, record


def hold_posts(page: Any) -> list[Any]:
    """Hold every POST the page makes until the test lets it go (an answer in flight)."""
    held: list[Any] = []

    def handle(route: Any) -> None:
        if route.request.method == "POST":
            held.append(route)
        else:
            route.continue_()

    page.route("**/tables/**", handle)
    return held


def test_typing_while_an_answer_is_in_flight_keeps_the_text(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM[:3])  # turn 1, shipment and movement
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    live = page.locator("#table-live")
    seq = int(live.get_attribute("data-seq"))
    place = page.locator("form[data-action=place_forces]")
    place.get_by_label("Faction").select_option("harkonnen")
    place.get_by_label("Territory · sector").select_option("the_great_flat@14")
    place.get_by_label("Forces", exact=True).fill("3")
    held = hold_posts(page)
    place.get_by_role("button", name="Place forces", exact=True).click()
    while not held:
        page.wait_for_timeout(20)

    # The next entry, typed while the shipment's answer is on its way.
    move = page.locator("form[data-action=move_forces]")
    move.get_by_label("Faction").select_option("harkonnen")
    move.get_by_label("From").select_option("the_great_flat@14")
    move.get_by_label("To").select_option("the_great_flat@14")
    forces = move.get_by_label("Forces", exact=True)
    forces.click()
    page.keyboard.type("2")
    held[0].continue_()
    page.unroute("**/tables/**")
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq + 1}'")
    page.keyboard.type("1")  # the next key goes on in the same field

    move = page.locator("form[data-action=move_forces]")
    assert move.get_by_label("Forces", exact=True).input_value() == "21"
    assert move.get_by_label("From").input_value() == "the_great_flat@14"
    assert move.get_by_label("Faction").input_value() == "harkonnen"
    assert move.get_by_label("Forces", exact=True).evaluate("e => e === document.activeElement")
    screenshot(page, "table-typing-kept")
    # The shipment was recorded once and its form starts afresh.
    assert GameEvent.objects.filter(game__table=table, type="forces_placed").count() == 1
    assert page.locator("form[data-action=place_forces]").get_by_label("Forces", exact=True).input_value() == ""


def test_a_move_queued_behind_a_later_shipment_is_moved_earlier_and_nothing_is_voided(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM[:3])  # turn 1, shipment and movement
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    order = [c.split(". ", 1)[1] for c in page.locator(".storm-order .chip").all_inner_texts()]
    first, second = [f for f in order if f not in ("Fremen", "Guild")][:2]
    page.context.set_offline(True)
    page.locator("#offline-banner").wait_for()

    def ship(faction: str, piece: str) -> None:
        place = page.locator("form[data-action=place_forces]")
        place.get_by_label("Faction").select_option(label=faction)
        place.get_by_label("Territory · sector").select_option(piece)
        place.get_by_label("Forces", exact=True).fill("1")
        place.get_by_role("button", name="Place forces", exact=True).click()

    ship(first, "the_great_flat@14")
    ship(second, "funeral_plain@14")
    move = page.locator("form[data-action=move_forces]")
    move.get_by_label("Faction").select_option(label=first)
    move.get_by_label("From").select_option("the_great_flat@14")
    move.get_by_label("To").select_option("funeral_plain@14")
    move.get_by_label("Forces", exact=True).fill("1")
    move.get_by_role("button", name="Move forces", exact=True).click()
    page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '3'")

    # The move belongs before the second shipment: one tap moves it there, nothing is voided.
    pending = page.locator("#pending li")
    pending.nth(2).get_by_role("button", name="Move earlier").click()
    try:
        page.wait_for_function("() => document.querySelectorAll('#pending li')[1].textContent.includes('Move forces')")
    except PlaywrightTimeout:
        raise AssertionError(f"the move did not go second: {pending.all_inner_texts()}") from None
    screenshot(page, "table-outbox-earlier")
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    try:
        page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '0'")
    except PlaywrightTimeout:
        raise AssertionError(f"the queue did not empty: {pending.all_inner_texts()}") from None
    types = list(GameEvent.objects.filter(game__table=table, seq__gt=4).order_by("seq").values_list("type", flat=True))
    assert types == ["forces_placed", "forces_moved", "forces_placed"]
    assert not GameEvent.objects.filter(game__table=table, type="void").exists()


def test_a_move_refused_after_later_shipments_is_recorded_before_them(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any
) -> None:
    """The first faction's move is entered after the next faction's shipment was recorded: the
    engine refuses it as out of order, and finds where it holds. Next to the refused action the
    phone offers "Record it before #N"; one tap records it there as a logged correction (an
    insert, sent once), nothing is voided and the records keep their numbers."""
    from gameplay.services import read_game

    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM[:3])  # turn 1, shipment and movement
    order = [f for f in read_game(table).evaluation["storm_order"] if f not in ("fremen", "guild")]
    first, second = order[:2]
    record(table, judge, [
        {"type": "forces_placed", "faction": first, "territory": "the_great_flat", "sector": 14, "normal": 2},
    ])
    second_at = record(table, judge, [
        {"type": "forces_placed", "faction": second, "territory": "funeral_plain", "sector": 14, "normal": 1},
    ])
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    move = page.locator("form[data-action=move_forces]")
    move.get_by_label("Faction").select_option(first)
    move.get_by_label("From").select_option("the_great_flat@14")
    move.get_by_label("To").select_option("funeral_plain@14")
    move.get_by_label("Forces", exact=True).fill("1")
    move.get_by_role("button", name="Move forces", exact=True).click()

    # Offered twice: in the waiting list, with the refused action, and in the refusal the page
    # shows above the form the judge is at; the one in view is tapped.
    page.locator("#pending li").first.get_by_role("button", name=f"Record it before #{second_at}").wait_for()
    assert "rule WBC IX.1" in page.locator("#pending li").first.inner_text()  # refused in storm order
    offered = page.get_by_role("button", name=f"Record it before #{second_at}")
    in_view = [b for b in offered.all() if b.is_visible() and (box := b.bounding_box()) is not None
               and 0 <= box["y"] and box["y"] + box["height"] <= 844 and box["x"] + box["width"] <= 390]
    assert in_view, "no 'Record it before' button in view"
    screenshot(page, "table-outbox-record-before")
    before = in_view[0]
    before.click()
    page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '0'")
    notice = page.get_by_text(f"forces moved, before record #{second_at}")
    notice.wait_for()
    assert notice.is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390

    events = list(GameEvent.objects.filter(game__table=table, seq__gt=second_at).order_by("seq"))
    assert [e.type for e in events] == ["insert"]  # recorded once, at the end of the log
    assert events[0].body["before"] == second_at and events[0].body["event"]["faction"] == first
    assert events[0].reason.startswith("Entered late")
    assert not GameEvent.objects.filter(game__table=table, type="void").exists()
    stacks = {(s["faction"], s["territory"]): s["normal"] for s in read_game(table).position["forces"]}
    assert stacks[(first, "funeral_plain")] == 1 and stacks[(first, "the_great_flat")] == 1


def test_offline_the_next_entry_typed_while_the_last_is_queued_is_kept(
    phone_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any
) -> None:
    """Offline, a sent form is cleared at once: the judge's next entry in the same form, typed
    before the phone has finished queueing the last one, stays as typed and is sent as typed."""
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM[:3])  # turn 1, shipment and movement
    page = phone_page
    open_table(page, sign_in, live_server, password, table)
    page.context.set_offline(True)
    page.locator("#offline-banner").wait_for()
    place = page.locator("form[data-action=place_forces]")
    place.get_by_label("Faction").select_option("harkonnen")
    place.get_by_label("Territory · sector").select_option("the_great_flat@14")
    place.get_by_label("Forces", exact=True).fill("1")
    # The tap and the next entry in one go, before the phone's storage has answered.
    place.evaluate("""form => {
        form.querySelector("button[type=submit]:not([name=preview])").click();
        form.querySelector("select[name=faction]").value = "atreides";
    }""")
    page.wait_for_function("() => document.getElementById('outbox').dataset.queued === '1'")
    assert place.get_by_label("Faction").input_value() == "atreides"
    assert place.get_by_label("Forces", exact=True).input_value() == ""
