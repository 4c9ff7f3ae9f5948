"""A round as the room reads it, on a phone (390×844) and a laptop (1366×900): the projector
timer counts down to the room's time up and names the tables that end otherwise; the round
page's clocks say what they count down to."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from clocks import services as clocks
from clocks.models import TableClock
from tests.e2e.conftest import PHONE, _page
from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.e2e

DESK = {"width": 1366, "height": 900}

NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.fixture(params=[PHONE, DESK], ids=["phone", "laptop"])
def sized_page(request: Any, browser: Any, live_server: Any) -> Iterator[Any]:
    yield from _page(browser, request.param)


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
    sized_page: Any, live_server: Any, head_judge: Any, password: str, sign_in: Any
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
    sign_in(page, head_judge.username, password)
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
