"""`POST /api/engine/evaluate/`: the engine's answer for a snapshot; refusals are 400 with the rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from web.gameplay.engine_api import EXAMPLE_SNAPSHOT

URL = "/api/engine/evaluate/"


def post(client: Any, body: Any) -> Any:
    return client.post(URL, body, format="json")


@pytest.mark.django_db
def test_evaluate_answers_every_key(api_client: Any) -> None:
    response = post(api_client, EXAMPLE_SNAPSHOT)
    assert response.status_code == 200, response.content
    body = response.json()
    for key in ("storm_order", "first_player", "control", "battles", "win_attempts", "victory",
                "end_of_game", "stats", "pp", "adjudication"):
        assert key in body
    assert body["control"]["arrakeen"] == "atreides"
    assert body["control"]["carthag"] == "harkonnen"
    assert body["victory"] is None


@pytest.mark.django_db
def test_three_strongholds_win_for_an_unallied_faction(api_client: Any) -> None:
    snapshot = copy.deepcopy(EXAMPLE_SNAPSHOT)
    snapshot["forces"] = [
        {"faction": "atreides", "territory": "arrakeen", "sector": 9, "normal": 4},
        {"faction": "atreides", "territory": "carthag", "sector": 10, "normal": 3},
        {"faction": "atreides", "territory": "tueks_sietch", "sector": 4, "normal": 3},
    ]
    snapshot["factions"]["harkonnen"]["reserves"] = 20  # forces on board + reserves + tanks = 20
    body = post(api_client, snapshot).json()
    assert body["victory"]["winners"] == ["atreides"]
    assert body["victory"]["kind"] == "solo_stronghold"
    assert body["victory"]["rule"]


@pytest.mark.django_db
def test_unknown_territory_is_refused_with_the_rule(api_client: Any) -> None:
    snapshot = copy.deepcopy(EXAMPLE_SNAPSHOT)
    snapshot["forces"][0]["territory"] = "caladan"
    response = post(api_client, snapshot)
    assert response.status_code == 400
    body = response.json()
    assert "caladan" in (body["input"] or "") or "caladan" in body["message"]
    assert body["rule"]


@pytest.mark.django_db
def test_more_forces_than_owned_is_refused(api_client: Any) -> None:
    snapshot = copy.deepcopy(EXAMPLE_SNAPSHOT)
    snapshot["forces"][0]["normal"] = 25
    response = post(api_client, snapshot)
    assert response.status_code == 400
    assert response.json()["rule"]


@pytest.mark.django_db
@pytest.mark.parametrize("body", [[1, 2], "text", 5])
def test_body_must_be_an_object(api_client: Any, body: Any) -> None:
    response = post(api_client, body)
    assert response.status_code == 400
    assert "JSON object" in response.json()["message"]


@pytest.mark.django_db
def test_unknown_ruleset_is_refused(api_client: Any) -> None:
    snapshot = dict(EXAMPLE_SNAPSHOT, ruleset="dune2099")
    response = post(api_client, snapshot)
    assert response.status_code == 400
    assert "dune2099" in response.json()["detail"] or "dune2099" in (response.json()["input"] or "")


@pytest.mark.django_db
def test_a_snapshot_without_edition_is_evaluated_under_the_current_rulings(api_client: Any) -> None:
    """LoLV 1.07.01.00, WBC VI.10: the storm inside the Imperial Basin separates its two sides
    for battle; a client naming no `edition` gets that ruling, one naming `edition: 1` the old."""
    snapshot = copy.deepcopy(EXAMPLE_SNAPSHOT)
    snapshot.pop("edition", None)
    snapshot["storm"] = 9
    snapshot["forces"] = [
        *snapshot["forces"],
        {"faction": "atreides", "territory": "imperial_basin", "sector": 8, "normal": 2},
        {"faction": "harkonnen", "territory": "imperial_basin", "sector": 10, "normal": 2},
    ]
    snapshot["factions"]["atreides"]["reserves"] = 8
    snapshot["factions"]["harkonnen"]["reserves"] = 8
    current = post(api_client, snapshot)
    assert current.status_code == 200, current.content
    assert not [b for b in current.json()["battles"] if b["territory"] == "imperial_basin"]
    old = post(api_client, {**snapshot, "edition": 1})
    assert old.status_code == 200, old.content
    assert [sorted(b["factions"]) for b in old.json()["battles"] if b["territory"] == "imperial_basin"] == [
        ["atreides", "harkonnen"]
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("coexisting", [["x"]], "coexisting"),
        ("attempts", [["atreides"]], "attempts"),
        ("turn", None, "turn"),
        ("ruleset", [], "ruleset"),
        ("options", [{"a": 1}], "options"),
        ("alliances", [5], "alliances"),
        ("forces", [7], "forces"),
        ("factions", [], "factions"),
    ],
)
def test_a_malformed_field_is_a_400_naming_it(api_client: Any, field: str, value: Any, named: str) -> None:
    """The snapshot's declaration checks every field's shape before the engine reads it."""
    snapshot = copy.deepcopy(EXAMPLE_SNAPSHOT)
    snapshot[field] = value
    response = post(api_client, snapshot)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == named


@pytest.mark.django_db
def test_a_malformed_sheet_field_is_a_400_naming_it(api_client: Any) -> None:
    snapshot = copy.deepcopy(EXAMPLE_SNAPSHOT)
    snapshot["factions"]["atreides"]["spice"] = "ten"
    response = post(api_client, snapshot)
    assert response.status_code == 400 and response.json()["field"] == "factions.atreides.spice"
