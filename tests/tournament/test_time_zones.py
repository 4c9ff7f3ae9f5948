"""Every tournament has a time zone; its pages and sheets show local times with the zone named."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_time_zone_is_set_at_creation_and_read_back(judge_client: Any, settings: Any) -> None:
    body = judge_client.post(
        "/api/tournaments/",
        {"name": "Vegas", "format": "lolv", "time_zone": "America/Los_Angeles"},
        format="json",
    ).json()
    assert body["time_zone"] == "America/Los_Angeles"
    assert judge_client.get(f"/api/tournaments/{body['id']}/").json()["time_zone"] == "America/Los_Angeles"
    plain = judge_client.post("/api/tournaments/", {"name": "Home", "format": "wbc"}, format="json").json()
    assert plain["time_zone"] == settings.TIME_ZONE  # the platform's zone unless chosen


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "Pacific Time", "", "america/los angeles", 7])
def test_an_unknown_time_zone_is_refused_naming_the_field(judge_client: Any, zone: Any) -> None:
    response = judge_client.post(
        "/api/tournaments/", {"name": "Vegas", "format": "lolv", "time_zone": zone}, format="json"
    )
    if zone == "":  # no zone given: the platform's
        assert response.status_code == 201
        return
    assert response.status_code == 400 and "time_zone" in response.json()
    assert not Tournament.objects.filter(name="Vegas").exists()


def test_the_new_tournament_page_refuses_an_unknown_zone_next_to_the_field(client: Any, head_judge: Any) -> None:
    client.force_login(head_judge)
    page = client.post(
        "/tournaments/new/", {"name": "Vegas", "format": "lolv", "time_zone": "Nowhere/Here"}
    ).content.decode()
    assert 'id="time_zone-error"' in page and "unknown time zone" in page and 'value="Nowhere/Here"' in page
    assert not Tournament.objects.exists()


def test_pages_and_sheets_show_the_tournaments_local_time_with_the_zone(client: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    tournament.time_zone = "America/Los_Angeles"
    tournament.save()
    heat = make_round(tournament)
    heat.starts_at = datetime(2026, 6, 12, 17, 0, tzinfo=UTC)  # 10:00 in Las Vegas (PDT)
    heat.save()
    seat_table(heat, make_players(tournament, 5))
    client.force_login(head_judge)
    dashboard = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "10:00 PDT" in dashboard and "17:00" not in dashboard
    assert "America/Los Angeles" in dashboard
    sheet = client.get(f"/rounds/{heat.pk}/print/seating/").content.decode()
    assert "10:00 PDT" in sheet and "America/Los Angeles" in sheet
    clocks = client.get(f"/rounds/{heat.pk}/clocks/").content.decode()
    assert "10:00 PDT" in clocks and "(UTC)" not in clocks
    # The API keeps ISO 8601 with the offset.
    assert client.get(f"/api/rounds/{heat.pk}/").json()["starts_at"].startswith("2026-06-12T17:00:00")


def test_a_start_typed_on_the_dashboard_is_the_tournaments_local_time(client: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    tournament.time_zone = "America/Los_Angeles"
    tournament.save()
    client.force_login(head_judge)
    client.post(
        f"/tournaments/{tournament.pk}/", {"action": "add_round", "kind": "heat", "starts_at": "2026-06-12T10:00"}
    )
    assert tournament.rounds.get().starts_at == datetime(2026, 6, 12, 17, 0, tzinfo=UTC)
