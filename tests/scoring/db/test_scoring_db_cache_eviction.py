"""A cache only remembers; the database says whether an answer is current (DESIGN.md
principle 10). The file cache of the embedded default culls entries when it is full, Redis
evicts, a local memory cache forgets: whatever it drops, the standings, the room screen and
the player pages count every filed report."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings

from insights import services as insights
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db

TABLES = 9


@pytest.fixture(params=["filebased", "locmem"])
def small_cache(request: Any, tmp_path: Any) -> Iterator[None]:
    """The embedded default's file cache (config/settings.py) or a local memory cache, made
    small enough to cull often."""
    backend = {
        "BACKEND": f"django.core.cache.backends.{request.param}.{'FileBasedCache' if request.param == 'filebased' else 'LocMemCache'}",
        "LOCATION": str(tmp_path / "cache"),
        "OPTIONS": {"MAX_ENTRIES": 12, "CULL_FREQUENCY": 3},
    }
    # The rate counters stay as they are (a throttle reads them when it is first imported).
    with override_settings(CACHES={"default": backend, "counters": settings.CACHES["counters"]}):
        yield


def _fill(n: int) -> None:
    """Other pages' entries: push the cache past its limit so it culls."""
    for i in range(n):
        cache.set(f"other-page:{random.random()}:{i}", "x" * 50, 600)


def _lede_count(html: str) -> int:
    found = re.search(r"(\d+) game reports? filed", html)
    assert found, html[:2000]
    return int(found.group(1))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_standings_room_screen_and_player_pages_count_every_filed_report_while_the_cache_culls(
    small_cache: None, judge_client: Any, head_judge: Any, seed: int
) -> None:
    random.seed(seed)  # the file cache culls at random: each seed is one reproducible run
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    players = make_players(tournament, TABLES * 5)
    heat = make_round(tournament)
    tables = [seat_table(heat, players[n * 5 : (n + 1) * 5], number=n + 1) for n in range(TABLES)]
    browser = Client()
    winners = []
    for filed, table in enumerate(tables, start=1):
        response = judge_client.post(
            f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
        )
        assert response.status_code == 201, response.json()
        winners.append(players[(filed - 1) * 5])
        _fill(8)
        assert insights.report_for(tournament).games == filed
        for rep in range(3):
            _fill(8)
            page = browser.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
            assert _lede_count(page) == filed
            live = browser.get(f"/tournaments/{tournament.pk}/standings/", HTTP_HX_REQUEST="true")
            assert _lede_count(live.content.decode()) == filed
            body = judge_client.get(f"/api/tournaments/{tournament.pk}/standings/").json()
            assert sum(1 for row in body["standings"] if row["points"]) == filed
            _fill(8)
            screen = browser.get(f"/tournaments/{tournament.pk}/screen/", HTTP_HX_REQUEST="true")
            shown = screen.content.decode().split('data-panel="standings"')[1]
            # Every winner so far is on the screen's standings with points (5 or fewer per game).
            assert all(w.name in shown for w in winners), (filed, shown[-3000:])
            # Every player page reads the one cached scoring of the tournament (hit or culled, as
            # the culls fall): each winner's page is read once per filing, a third of them after
            # each round of culls, so every page still meets every filed count.
            for winner in winners[rep::3]:
                _fill(4)
                mine = browser.get(f"/tournaments/{tournament.pk}/players/{winner.pk}/").content.decode()
                assert "No filed game yet" not in mine, (filed, winner.name)
                assert "from 1 game " in mine, (filed, winner.name)
