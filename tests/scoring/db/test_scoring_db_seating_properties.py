"""Property: seating changes and report filing in any order never break the standings.

Whatever a head judge does to a published heat (swap players across or within tables, trade
factions, file, reopen and re-file reports) in whatever order: the standings endpoint never
answers 5xx, and every filed report names exactly the players seated at its table.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.models import GameReport
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db

SIX = ["atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild"]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("swap"), st.integers(0, 11), st.integers(0, 11)),
        st.tuples(st.just("trade"), st.integers(0, 11), st.integers(0, 11)),
        st.tuples(st.just("file"), st.integers(0, 1), st.integers(0, 5)),
        st.tuples(st.just("reopen"), st.integers(0, 1), st.just(0)),
    ),
    min_size=1,
    max_size=8,
)


class _Rollback(Exception):
    """Ends an example's transaction: every example starts from the same empty database."""


def _play(head_judge: Any, actions: list[tuple[str, int, int]]) -> None:
    client = APIClient()
    client.force_authenticate(head_judge)
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 12)
    heat = make_round(tournament)
    tables = [seat_table(heat, players[:6], number=1, factions=SIX), seat_table(heat, players[6:], number=2, factions=SIX)]
    for action, a, b in actions:
        if action == "swap":
            answer = client.post(
                f"/api/rounds/{heat.pk}/seating/swap/",
                {"first": players[a].pk, "second": players[b].pk, "reason": "households apart"},
                format="json",
            )
        elif action == "trade":
            answer = client.post(
                f"/api/rounds/{heat.pk}/seating/factions/",
                {"action": "trade", "player": players[a].pk, "other": players[b].pk,
                 "consenting": [players[a].pk, players[b].pk]},
                format="json",
            )
        elif action == "file":
            answer = client.post(f"/api/tables/{tables[a].pk}/report/", report_for(tables[a], {b: "solo_stronghold"}), format="json")
        else:
            answer = client.post(f"/api/tables/{tables[a].pk}/report/reopen/", {"reason": "wrong winner"}, format="json")
        assert answer.status_code < 500, (action, answer.content)
        standings = client.get(f"/api/tournaments/{tournament.pk}/standings/")
        assert standings.status_code == 200, standings.content
        for report in GameReport.objects.filter(tournament=tournament, state=GameReport.State.FILED).select_related("table"):
            reported = sorted(row["player"] for row in report.data["results"])
            seated = sorted(report.table.seats.values_list("player_id", flat=True))
            assert reported == seated, f"{action}: the report of table {report.table.number} no longer matches its seats"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], database=None)
@given(actions=steps)
def test_seating_changes_and_filing_in_any_order_keep_standings_up(head_judge: Any, actions: list[Any]) -> None:
    from django.core.cache import cache

    cache.clear()
    try:
        with transaction.atomic():
            _play(head_judge, actions)
            raise _Rollback
    except _Rollback:
        pass
