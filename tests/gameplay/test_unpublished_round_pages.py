"""A table's history and report pages of a round whose seating is not published yet answer a
page saying so (the seating may still change), never a server error."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["", "history/", "report/"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_table_page_of_an_unpublished_round_says_the_seating_is_not_published(
    client: Any, head_judge: Any, page: str, method: str
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    table = seat_table(make_round(tournament, state="planned"), make_players(tournament, 6))
    client.force_login(head_judge)
    response = getattr(client, method)(f"/tables/{table.pk}/{page}")
    assert response.status_code == 409, response.status_code
    html = response.content.decode()
    assert "the seating of this round is not published yet" in html
    assert f"Table {table.number}" in html
