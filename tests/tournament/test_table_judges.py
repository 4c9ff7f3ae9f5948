"""A head judge puts one of the tournament's table judges at each table (their writes are limited to it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament import services
from tournament.permissions import can_judge_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(head_judge: Any) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    return seat_table(make_round(tournament), make_players(tournament, 6))


def test_assigned_judge_alone_writes_to_the_table(table: Any, make_user: Any) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    table.round.tournament.table_judges.add(alice, bob)
    assert can_judge_table(alice, table) and can_judge_table(bob, table)  # nobody assigned: any table judge

    services.assign_table_judge(table, "alice")
    table.refresh_from_db()
    assert table.judge == alice
    assert can_judge_table(alice, table) and not can_judge_table(bob, table)

    services.assign_table_judge(table, "")
    table.refresh_from_db()
    assert table.judge is None and can_judge_table(bob, table)


def test_only_a_table_judge_of_the_tournament_can_be_assigned(table: Any, make_user: Any) -> None:
    make_user("stranger")
    with pytest.raises(services.Refused, match="'stranger' is not a table judge") as refused:
        services.assign_table_judge(table, "stranger")
    assert refused.value.field == "judge"
    table.refresh_from_db()
    assert table.judge is None


def test_seat_page_assigns_and_shows_errors_next_to_the_field(client: Any, table: Any, head_judge: Any, make_user: Any) -> None:
    table.round.tournament.table_judges.add(make_user("carol"))
    client.force_login(head_judge)
    url = f"/rounds/{table.round_id}/seat/"
    response = client.post(url + "judge/", {"table": table.pk, "judge": "nobody"})
    assert response.status_code == 400
    assert b"&#x27;nobody&#x27; is not a table judge" in response.content
    response = client.post(url + "judge/", {"table": table.pk, "judge": "carol"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.judge.username == "carol"
    assert b"Table 1: carol" in client.get(url).content
