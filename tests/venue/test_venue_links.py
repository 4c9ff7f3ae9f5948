"""In venue mode the QR codes on printed sheets and the self check-in links carry the address
phones can reach (VENUE_URL), whatever address the head judge's own browser used."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table

VENUE = "http://192.168.1.20:8000"


@pytest.fixture
def seated(head_judge: Any) -> tuple[Any, Any]:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    heat = make_round(tournament, number=1)
    table = seat_table(heat, make_players(tournament, 6), number=1)
    return tournament, table


def test_printed_sheets_and_badges_use_the_venue_address(client: Any, head_judge: Any, seated: Any,
                                                        settings: Any) -> None:
    tournament, table = seated
    settings.VENUE_URL = VENUE
    client.force_login(head_judge)
    for url in (f"/rounds/{table.round_id}/print/reports/", f"/rounds/{table.round_id}/print/seating/"):
        page = client.get(url, HTTP_HOST="127.0.0.1").content.decode()
        assert f"{VENUE}/tables/" in page and "http://127.0.0.1" not in page, url
    badges = client.get(f"/tournaments/{tournament.pk}/players/badges/", HTTP_HOST="127.0.0.1").content.decode()
    assert f"{VENUE}/me/" in badges
    assert "http://127.0.0.1" not in badges


def test_without_a_venue_address_links_follow_the_request(client: Any, head_judge: Any, seated: Any,
                                                          settings: Any) -> None:
    _, table = seated
    settings.VENUE_URL = ""
    client.force_login(head_judge)
    page = client.get(f"/rounds/{table.round_id}/print/reports/", HTTP_HOST="127.0.0.1").content.decode()
    assert "http://127.0.0.1/tables/" in page
