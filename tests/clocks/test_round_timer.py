"""The projector timer of a round (`/rounds/{id}/timer/`): one big countdown to the moment the
tables' time is up, that moment on the wall clock in the tournament's zone, the round's state in
words."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from clocks import services as clocks
from clocks.presenters import round_timer
from clocks.services import db_now
from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament.models import Table

pytestmark = pytest.mark.django_db


def _heat(head_judge: Any, zone: str = "America/New_York") -> tuple[Any, list[Any]]:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    tournament.time_zone = zone
    tournament.save()
    players = make_players(tournament, 12)
    heat = make_round(tournament)
    return heat, [seat_table(heat, players[:6], number=1), seat_table(heat, players[6:], number=2)]


def test_the_timer_counts_down_to_time_up_in_the_tournaments_zone(client: Any, head_judge: Any) -> None:
    heat, tables = _heat(head_judge)
    pending = client.get(f"/rounds/{heat.pk}/timer/")
    assert pending.status_code == 200 and "Not started" in pending.content.decode()
    for table in tables:
        clocks.start(table, user=head_judge)
    timer = round_timer(heat, now=db_now())
    assert timer["state"] == "running" and timer["others"] == 0
    ends = timer["ends_at"]
    assert abs((ends - db_now()) - timedelta(hours=5)) < timedelta(minutes=1)  # WBC heat: 5 hours
    html = client.get(f"/rounds/{heat.pk}/timer/").content.decode()
    local = timezone.localtime(ends, ZoneInfo("America/New_York"))
    assert f"Time is up at <time datetime=\"{local.isoformat()}\" data-timer-ends>{local:%H:%M}</time> {local.tzname()}" in html
    assert "America/New York" in html and "left until time is up" in html
    assert 'data-timer data-state="running"' in html and f'data-ends-at="{ends.isoformat()}"' in html


def test_a_table_with_its_own_end_is_counted_apart(head_judge: Any) -> None:
    heat, tables = _heat(head_judge)
    for table in tables:
        clocks.start(table, user=head_judge)
    clocks.extend(tables[1], minutes=10, reason="a ruling", user=head_judge)
    timer = round_timer(heat, now=db_now())
    assert timer["others"] == 1 and timer["playing"] == 2


def test_paused_and_over(client: Any, head_judge: Any) -> None:
    heat, tables = _heat(head_judge)
    for table in tables:
        clocks.start(table, user=head_judge)
        clocks.pause(table, user=head_judge, reason="a break")
    assert round_timer(heat, now=db_now())["state"] == "paused"
    assert "Paused: the clocks are stopped" in client.get(f"/rounds/{heat.pk}/timer/").content.decode()
    Table.objects.filter(round=heat).update(report_filed_at=timezone.now())
    assert round_timer(heat, now=db_now())["state"] == "over"
    assert "Round over" in client.get(f"/rounds/{heat.pk}/timer/").content.decode()


def test_the_dashboard_and_the_clocks_link_the_timer(client: Any, head_judge: Any) -> None:
    heat, _tables = _heat(head_judge)
    client.force_login(head_judge)
    assert f'href="/rounds/{heat.pk}/timer/"' in client.get(f"/tournaments/{heat.tournament_id}/").content.decode()
    assert f'href="/rounds/{heat.pk}/timer/"' in client.get(f"/rounds/{heat.pk}/clocks/").content.decode()


def _started_apart(round_: Any, user: Any, *, ms: int = 90) -> None:
    """Every table's clock started by one round-wide start, `ms` milliseconds after the last."""
    from clocks.models import TableClock
    from clocks.services import _reschedule

    clocks.start_round(round_, user=user)
    for i, clock in enumerate(TableClock.objects.filter(table__round=round_).order_by("table__number")):
        clock.started_at += timedelta(milliseconds=ms * i)
        _reschedule(clock)
        clock.save()


def _six_tables(head_judge: Any) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 30)
    heat = make_round(tournament)
    for n in range(6):
        seat_table(heat, players[n * 5 : (n + 1) * 5], number=n + 1)
    return heat


def test_clocks_of_one_start_all_end_together_on_the_timer(api_client: Any, head_judge: Any) -> None:
    heat = _six_tables(head_judge)
    _started_apart(heat, head_judge)
    body = api_client.get(f"/api/rounds/{heat.pk}/timer/").json()
    assert body["tables_ending_otherwise"] == [] and body["state"] == "running"
    assert body["counts_down_to"] == "time_up" and body["counts_down_to_label"] == "Time up"
    page = api_client.get(f"/rounds/{heat.pk}/timer/").content.decode()
    assert "another time" not in page


def test_the_big_countdown_is_the_rooms_when_one_table_is_extended(api_client: Any, head_judge: Any) -> None:
    heat = _six_tables(head_judge)
    _started_apart(heat, head_judge)
    table = heat.tables.get(number=4)
    before = datetime.fromisoformat(api_client.get(f"/api/rounds/{heat.pk}/timer/").json()["ends_at"])
    clocks.extend(table, minutes=15, reason="a ruling", user=head_judge)
    body = api_client.get(f"/api/rounds/{heat.pk}/timer/").json()
    assert datetime.fromisoformat(body["ends_at"]) == before
    [apart] = body["tables_ending_otherwise"]
    assert apart["table_number"] == 4 and apart["table"] == table.pk
    assert datetime.fromisoformat(apart["ends_at"]) - before > timedelta(minutes=14)
    page = api_client.get(f"/rounds/{heat.pk}/timer/").content.decode()
    assert "Table 4 ends at" in page


def test_every_countdown_says_what_it_counts_down_to(client: Any, head_judge: Any) -> None:
    heat = _six_tables(head_judge)
    _started_apart(heat, head_judge)
    client.force_login(head_judge)
    timer = client.get(f"/rounds/{heat.pk}/timer/").content.decode()
    # The projector counts to time up and names the moment no new turn may start (the round
    # page's countdown goes to that moment first).
    assert "left until time is up" in timer and "No new turn from" in timer
    round_page = client.get(f"/rounds/{heat.pk}/").content.decode()
    assert "to Last 30 minutes" in round_page


def test_the_timer_api_of_a_round_that_does_not_exist(api_client: Any) -> None:
    assert api_client.get("/api/rounds/99999999/timer/").status_code == 404


def test_a_table_clock_says_in_words_what_it_counts_down_to(api_client: Any, head_judge: Any) -> None:
    heat, tables = _heat(head_judge)
    clocks.start(tables[0], user=head_judge)
    body = api_client.get(f"/api/tables/{tables[0].pk}/clock/").json()
    assert body["next"]["words"] == "to Last 30 minutes"
