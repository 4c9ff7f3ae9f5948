"""The public pages an event day's phones read: an unchanged poll is answered before the
session and the view, a first visit without a session is rendered once per version for
everyone, and a version changes with everything the page shows."""

from __future__ import annotations

import threading
import time
import types
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.test.signals import template_rendered

from clocks.models import TableClock
from clocks.services import clock_for
from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament import desk
from web import live

pytestmark = pytest.mark.django_db

ROUND_LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "round-live"}


@pytest.fixture(autouse=True)
def clean_cache(db: Any) -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def rendered() -> Iterator[list[Any]]:
    seen: list[Any] = []

    def record(sender: Any, template: Any, **kwargs: Any) -> None:
        seen.append(template)

    template_rendered.connect(record, weak=False)
    yield seen
    template_rendered.disconnect(record)


@pytest.fixture
def heat(head_judge: Any) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    heat = make_round(tournament)
    seat_table(heat, make_players(tournament, 6))
    seat_table(heat, make_players(tournament, 6, prefix="Guest"), number=2)
    return heat


def test_two_requests_for_one_version_render_it_once() -> None:
    made: list[int] = []

    def make() -> str:
        made.append(1)
        time.sleep(0.3)  # a slow render: the others arrive while it runs
        return "<p>the tables</p>"

    answers: list[str] = []
    threads = [
        threading.Thread(target=lambda: answers.append(live.once_per_version("live:test-version", make, str)))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == ["<p>the tables</p>"] * 4 and len(made) == 1


def test_a_renderer_that_never_finishes_does_not_hold_the_others(monkeypatch: Any) -> None:
    """The wait is counted on a clock of the test's own: it ends after RENDER_WAIT_SECONDS of
    waiting, not after the dead renderer's lock (30 s) runs out."""
    clock = {"now": 0.0}

    def sleep(seconds: float) -> None:
        clock["now"] += seconds

    monkeypatch.setattr(live, "time", types.SimpleNamespace(monotonic=lambda: clock["now"], sleep=sleep))
    cache.add("live:stuck:rendering", 1, 30)  # a renderer that died holding the lock
    assert live.once_per_version("live:stuck", lambda: "rendered here", str) == "rendered here"
    assert live.RENDER_WAIT_SECONDS <= clock["now"] <= live.RENDER_WAIT_SECONDS + live.RENDER_WAIT_STEP


def test_first_visits_without_a_session_share_one_page_per_version(heat: Any, rendered: list[Any]) -> None:
    url = f"/rounds/{heat.pk}/"
    first = Client().get(url)
    assert first.status_code == 200 and "Player 001" in first.content.decode() and rendered
    rendered.clear()
    second = Client().get(url)
    assert second.content == first.content and not rendered  # nothing rendered for the second phone
    assert "Cookie" in second["Vary"]


def test_a_signed_in_visitor_gets_a_page_of_their_own(heat: Any, head_judge: Any) -> None:
    url = f"/rounds/{heat.pk}/"
    Client().get(url)  # the shared page exists
    judge = Client()
    judge.force_login(head_judge)
    page = judge.get(url).content.decode()
    assert "Sign out" in page and "Seat this round" in page


def test_a_shared_page_follows_a_renamed_player(heat: Any, head_judge: Any) -> None:
    url = f"/rounds/{heat.pk}/"
    assert "Player 001" in Client().get(url).content.decode()
    player = heat.tournament.players.get(name="Player 001")
    desk.update_player(player, name="Alia Atreides", email=player.email, club="", household="", user=head_judge)
    page = Client().get(url).content.decode()
    assert "Alia Atreides" in page and "Player 001" not in page


def test_an_unchanged_poll_is_answered_before_the_session_and_the_view(
    heat: Any, rendered: list[Any], django_assert_num_queries: Any, monkeypatch: Any
) -> None:
    url = f"/rounds/{heat.pk}/"
    etag = Client().get(url, **ROUND_LIVE)["ETag"]
    rendered.clear()
    from django.contrib.sessions.backends import base

    def no_session(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the session was read")

    monkeypatch.setattr(base.SessionBase, "_get_session", no_session)
    client = Client()
    client.cookies["sessionid"] = "a-phone-that-once-signed-in"
    with django_assert_num_queries(1):
        answer = client.get(url, HTTP_IF_NONE_MATCH=etag, **ROUND_LIVE)
    assert answer.status_code == 304 and answer["ETag"] == etag and not rendered
    assert answer["Cache-Control"] == "no-cache" and "HX-Request" in answer["Vary"]


def test_a_poll_of_a_round_not_published_yet_goes_to_the_view(head_judge: Any) -> None:
    """Before publication only head judges see the tables: the answer depends on who asks."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    planned = make_round(tournament, state="planned")
    seat_table(planned, make_players(tournament, 6))
    judge = Client()
    judge.force_login(head_judge)
    etag = judge.get(f"/rounds/{planned.pk}/", **ROUND_LIVE)["ETag"]
    assert judge.get(f"/rounds/{planned.pk}/", HTTP_IF_NONE_MATCH=etag, **ROUND_LIVE).status_code == 304
    # A visitor holding the head judge's ETag is not answered "unchanged": they see no tables.
    visitor = Client().get(f"/rounds/{planned.pk}/", HTTP_IF_NONE_MATCH=etag, **ROUND_LIVE)
    assert visitor.status_code == 200 and "not published yet" in visitor.content.decode()


def test_a_clock_written_before_another_but_committed_after_still_changes_the_version(heat: Any) -> None:
    """Two tables' clocks: the later write carries the earlier moment (its transaction began
    first). A maximum of the moments would not move; the version must."""
    first, second = heat.tables.order_by("number")
    now = clock_for(first).updated_at
    clock_for(second)
    TableClock.objects.filter(table=first).update(updated_at=now + timedelta(seconds=10))
    before = live.round_facts(heat.pk)
    TableClock.objects.filter(table=second).update(updated_at=now + timedelta(seconds=5))
    assert live.round_facts(heat.pk).version != before.version


def test_reassigning_judges_between_tables_changes_the_version(heat: Any, make_user: Any) -> None:
    first, second = heat.tables.order_by("number")
    alice, bob = make_user("alice"), make_user("bob")
    first.judge, second.judge = alice, bob
    first.save(), second.save()
    before = live.round_facts(heat.pk).version
    first.judge, second.judge = bob, alice
    first.save(), second.save()
    assert live.round_facts(heat.pk).version != before
