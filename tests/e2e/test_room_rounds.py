"""A round as the room reads it, on a phone (390×844) and a laptop (1366×900): the projector
timer counts down to the room's time up and names the tables that end otherwise; the round
page's clocks say what they count down to."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from clocks import services as clocks
from clocks.models import TableClock
from tests.e2e.conftest import PHONE
from tests.e2e.session import sign_in_by_session
from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.e2e

DESK = {"width": 1366, "height": 900}

NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.fixture(params=[PHONE, DESK], ids=["phone", "laptop"])
def sized_page(request: Any, new_page: Any) -> Any:
    return new_page(request.param, locale="en-US", timezone_id="UTC", timeout=10_000)


@pytest.mark.django_db(transaction=True)
def test_the_timer_and_the_round_page_say_what_they_count_down_to(
    sized_page: Any, live_server: Any, head_judge: Any
) -> None:
    from django.core.cache import cache

    cache.clear()
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Timer open")
    players = make_players(tournament, 30)
    heat = make_round(tournament)
    for n in range(6):
        seat_table(heat, players[n * 5 : (n + 1) * 5], number=n + 1)
    clocks.start_round(heat, user=head_judge)
    for i, clock in enumerate(TableClock.objects.filter(table__round=heat).order_by("table__number")):
        clock.started_at += timedelta(milliseconds=90 * i)  # one Start all, 90 ms apart
        clocks._reschedule(clock)  # noqa: SLF001 - the services' own arithmetic
        clock.save()
    clocks.extend(heat.tables.get(number=4), minutes=15, reason="a ruling", user=head_judge)

    page = sized_page
    page.goto(f"{live_server.url}/rounds/{heat.pk}/timer/")
    text = page.inner_text("#timer-live")
    assert "left until time is up" in text and "No new turn from" in text
    assert text.count("ends at") == 1 and "Table 4 ends at" in text
    assert page.evaluate(NO_SIDEWAYS)

    page.goto(f"{live_server.url}/rounds/{heat.pk}/")
    clocks_list = page.locator(".round-clocks")
    assert clocks_list.locator("text=to Last 30 minutes").count() == 6
    assert page.evaluate(NO_SIDEWAYS)


@pytest.mark.django_db(transaction=True)
def test_the_desk_marks_a_no_show_who_leaves_a_short_table(
    sized_page: Any, live_server: Any, head_judge: Any, password: str
) -> None:
    from tournament import services
    from tournament.models import Seat

    tournament = make_tournament(format="wbc", head_judge=head_judge, name="No-show open")
    heat = make_round(tournament, state="planned")
    for player in make_players(tournament, 10):
        services.check_in(heat, player)
    services.seat_round(heat, user=head_judge, seed=3)
    services.publish_round(heat, user=head_judge)
    gone = Seat.objects.get(round=heat, table__number=2, seat=1).player

    page = sized_page
    sign_in_by_session(page, live_server.url, head_judge.username, password)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/?round={heat.pk}")
    row = page.locator(f"#player-{gone.pk}")
    row.locator("summary", has_text="No-show").click()
    row.get_by_label("Reason").fill("not at the table at 9:15")
    row.get_by_role("button", name=f"Mark {gone.name} a no-show").click()
    row = page.locator(f"#player-{gone.pk}")
    row.locator("[data-no-show]").wait_for()
    text = row.inner_text()
    assert "Table 2 now has 4 players" in text and "latecomer" in text
    assert "Disqualified" not in text and "Dropped" not in text
    assert page.evaluate(NO_SIDEWAYS)


@pytest.mark.django_db(transaction=True)
def test_closed_filed_and_early_pages_tell_the_truth(
    sized_page: Any, live_server: Any, head_judge: Any, password: str
) -> None:
    """A closed heat's seat page offers no change, a filed table's page no control of a game in
    play, the desk the round's one count, and the clocks page asks before an early start."""
    from clocks.services import db_now
    from scoring import services as scoring
    from tests.scoring.db.conftest import report_for

    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Truth open")
    players = make_players(tournament, 12)
    heat = make_round(tournament)
    tables = [seat_table(heat, players[:6], number=1), seat_table(heat, players[6:], number=2)]
    for table in tables:
        scoring.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    later = make_round(tournament, number=2)
    later.starts_at = db_now() + timedelta(hours=12)
    later.save()
    seat_table(later, players[:6], number=1)

    page = sized_page
    sign_in_by_session(page, live_server.url, head_judge.username, password)
    base = live_server.url
    page.goto(f"{base}/rounds/{heat.pk}/seat/")
    assert page.locator("[data-round-closed]").is_visible()
    assert page.get_by_role("button", name="Reseat with a new draw").count() == 0
    assert page.get_by_role("button", name="Swap").count() == 0
    assert page.evaluate(NO_SIDEWAYS)

    page.goto(f"{base}/tables/{tables[0].pk}/")
    assert "Game over" in page.locator(".glance").inner_text()
    assert page.get_by_role("button", name="Place storm").count() == 0

    page.goto(f"{base}/tournaments/{tournament.pk}/players/?round={heat.pk}")
    assert page.locator("#checked-count").inner_text() == "12"
    assert page.evaluate(NO_SIDEWAYS)

    page.goto(f"{base}/rounds/{later.pk}/clocks/")
    assert "scheduled to start in 12 hours" in page.locator("[data-early-start]").inner_text()
    page.get_by_role("button", name="Start all clocks").first.click()
    assert "is scheduled to start at" in page.locator("#round-error").inner_text()
    page.get_by_role("button", name="Start all clocks now anyway").click()
    page.wait_for_load_state()
    assert page.locator("#round-error").count() == 0
    assert page.evaluate(NO_SIDEWAYS)


@pytest.mark.django_db(transaction=True)
def test_the_desk_and_the_import_flag_probable_duplicates(
    sized_page: Any, live_server: Any, head_judge: Any, password: str
) -> None:
    from tournament.models import Player

    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Duplicates open")
    first = Player.objects.create(tournament=tournament, name="José Núñez", club="Arrakis")
    page = sized_page
    sign_in_by_session(page, live_server.url, head_judge.username, password)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/import/")
    page.locator("textarea[name=csv]").fill("name,email,club\nJose Nunez,jn@example.org,Arrakis\n")
    page.get_by_role("button", name="Preview").click()
    assert "probably the same person as José Núñez (Arrakis)" in page.locator("[data-name-warning]").inner_text()
    page.get_by_role("button", name="Register 1 player").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/")
    panel = page.locator("#probable-duplicates")
    assert "José Núñez and Jose Nunez (Arrakis)" in panel.inner_text()
    assert page.locator(f"#player-{first.pk} [data-probable-duplicate]").is_visible()
    assert page.evaluate(NO_SIDEWAYS)
