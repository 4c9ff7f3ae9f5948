"""Series have owners: a head judge creates and edits their own, and only they add editions."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tournament import people
from tournament.models import Series, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(make_user: Any) -> Any:
    return make_user("ana", is_staff=True)


@pytest.fixture
def rival(make_user: Any) -> Any:
    return make_user("ben", is_staff=True)


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_post_series_makes_the_creator_its_owner(organiser: Any) -> None:
    created = _api(organiser).post("/api/series/", {"name": "WBC Dune", "format": "wbc"}, format="json")
    assert created.status_code == 201 and created.json()["owner"] == "ana"
    assert _api(organiser).get(f"/api/series/{created.json()['id']}/").json()["owner"] == "ana"
    assert Series.objects.get().owner == organiser


def test_a_tournament_joins_only_a_series_its_creator_owns(organiser: Any, rival: Any) -> None:
    series = people.create_series(name="WBC Dune", format="wbc", owner=organiser)
    refused = _api(rival).post(
        "/api/tournaments/", {"name": "WBC 2027", "format": "wbc", "series": series.pk}, format="json"
    )
    assert refused.status_code == 403 and "series" in refused.json()
    assert "another organiser" in refused.json()["detail"]
    assert not Tournament.objects.exists()
    ok = _api(organiser).post(
        "/api/tournaments/", {"name": "WBC 2027", "format": "wbc", "series": series.pk}, format="json"
    )
    assert ok.status_code == 201 and ok.json()["series"] == series.pk


def test_the_series_page_creates_and_renames_only_ones_own(client: Any, organiser: Any, rival: Any) -> None:
    client.force_login(organiser)
    client.post("/series/", {"action": "create", "name": "LoLV season", "format": "lolv"})
    mine = Series.objects.get(name="LoLV season")
    assert mine.owner == organiser
    page = client.post("/series/", {"action": "create", "name": "  ", "format": "lolv"}).content.decode()
    assert 'id="name-error"' in page and Series.objects.count() == 1
    client.post("/series/", {"action": "rename", "series": mine.pk, "name": "LoLV 2027 season"})
    mine.refresh_from_db()
    assert mine.name == "LoLV 2027 season"
    assert 'value="LoLV 2027 season"' in client.get("/series/").content.decode()
    client.force_login(rival)
    assert "LoLV 2027 season" not in client.get("/series/").content.decode()
    answer = client.post("/series/", {"action": "rename", "series": mine.pk, "name": "Mine now"})
    assert answer.status_code == 403
    mine.refresh_from_db()
    assert mine.name == "LoLV 2027 season"
    new_page = client.get("/tournaments/new/").content.decode()
    assert "LoLV 2027 season" not in new_page  # another organiser's series is not offered


def test_people_list_is_paginated_with_counts(client: Any, api_client: Any) -> None:
    from tournament.models import Person

    Person.objects.bulk_create(Person(name=f"Person {i:03d}") for i in range(120))
    first = api_client.get("/api/people/").json()
    assert first["count"] == 120 and len(first["results"]) == 50 and first["previous"] is None
    third = api_client.get(first["next"]).json() and api_client.get("/api/people/?page=3").json()
    assert len(third["results"]) == 20 and third["next"] is None and third["previous"]
    page = client.get("/people/?page=3").content.decode()
    assert "120 people: page 3 of 3." in page and "Person 119" in page and 'rel="prev"' in page
