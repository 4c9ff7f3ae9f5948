"""A judge appointed to "any table" of an event finds that event's unassigned tables under My
tables (and is sent there on signing in), as they may judge them; another judge's table is not
listed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, seat_table

pytestmark = pytest.mark.django_db


def test_any_table_judges_see_the_events_tables(client: Any, make_user: Any, tournament: Any) -> None:
    anyone = make_user("anytable")
    other = make_user("assigned")
    tournament.table_judges.add(anyone)
    players = make_players(tournament, 12)
    heat = make_round(tournament)
    free = seat_table(heat, players[:6], number=1)
    taken = seat_table(heat, players[6:], number=2, judge=other)
    client.force_login(anyone)
    page = client.get("/my/tables/")
    text = page.content.decode()
    assert f"/tables/{free.pk}/" in text
    assert f"/tables/{taken.pk}/" not in text
