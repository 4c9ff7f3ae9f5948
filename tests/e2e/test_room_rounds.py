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
