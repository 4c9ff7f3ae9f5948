"""Inputs that used to answer 500 now answer 4xx naming the field, and change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db

NUL = "Duncan\x00Idaho"
SURROGATE = "Duncan\ud800Idaho"
LONG_EMAIL = "d" * 250 + "@" + "example.org"  # 262 characters: past the model's 254


@pytest.fixture
def heat(head_judge: Any) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    table = seat_table(make_round(tournament, number=1), players)
    return tournament, players, table


def _post(client: Any, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body, ensure_ascii=True), content_type="application/json")


@pytest.mark.parametrize("bad", [NUL, SURROGATE], ids=["nul", "surrogate"])
@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("/api/tournaments/", {"name": "{bad}", "format": "wbc"}, "name"),
        ("/api/tournaments/{t}/players/", {"name": "{bad}"}, "name"),
        ("/api/tables/{table}/game/events/", {"event": {"type": "void", "seq": 1}, "expected_seq": 1, "reason": "{bad}"}, "reason"),
        ("/api/tables/{table}/clock/extend/", {"minutes": 5, "reason": "{bad}"}, "reason"),
        ("/api/tables/{table}/report/reopen/", {"reason": "{bad}"}, "reason"),
    ],
)
def test_control_characters_and_lone_surrogates_are_refused_naming_the_field(
    client: Any, head_judge: Any, heat: Any, bad: str, url: str, body: dict[str, Any], field: str
) -> None:
    tournament, _, table = heat
    client.force_login(head_judge)
    filed = _post(client, f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}))
    assert filed.status_code == 201
    text = json.dumps(body).replace("{bad}", json.dumps(bad)[1:-1])
    response = client.post(url.format(t=tournament.pk, table=table.pk), text, content_type="application/json")
    assert response.status_code == 400, response.content
    assert field in response.content.decode()


@pytest.mark.parametrize("bad", [NUL], ids=["nul"])
def test_adding_a_judge_on_the_page_refuses_a_nul(client: Any, head_judge: Any, heat: Any, bad: str) -> None:
    tournament, _, _ = heat
    client.force_login(head_judge)
    response = client.post(f"/tournaments/{tournament.pk}/", {"action": "add_judge", "username": bad})
    assert response.status_code in (200, 400)
    assert "username" in response.content.decode()


def test_a_list_where_the_reopen_endpoint_expects_an_object(client: Any, head_judge: Any, heat: Any) -> None:
    _, _, table = heat
    client.force_login(head_judge)
    assert _post(client, f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"})).status_code == 201
    response = _post(client, f"/api/tables/{table.pk}/report/reopen/", ["reason"])
    assert response.status_code == 400


@pytest.mark.parametrize("url", ["/api/engine/evaluate/", "/api/tournaments/", "/api/tables/{table}/game/events/"])
def test_json_nested_a_thousand_levels_is_refused(client: Any, head_judge: Any, heat: Any, url: str) -> None:
    _, _, table = heat
    if "engine" not in url:
        client.force_login(head_judge)
    body = "[" * 1000 + "]" * 1000
    response = client.post(url.format(table=table.pk), body, content_type="application/json")
    assert response.status_code == 400, response.content


def test_an_over_long_email_is_refused_by_the_api(client: Any, head_judge: Any, heat: Any) -> None:
    tournament, _, _ = heat
    client.force_login(head_judge)
    response = _post(client, f"/api/tournaments/{tournament.pk}/players/", {"name": "Gurney", "email": LONG_EMAIL})
    assert response.status_code == 400 and "email" in response.json()


def test_an_over_long_email_is_refused_by_the_import_preview(client: Any, head_judge: Any, heat: Any) -> None:
    tournament, _, _ = heat
    client.force_login(head_judge)
    csv_text = f"name,email,club\nGurney,{LONG_EMAIL},Ginaz\n"
    preview = _post(client, f"/api/tournaments/{tournament.pk}/players/import/", {"csv": csv_text})
    assert preview.status_code in (200, 400)
    assert "email" in preview.content.decode() and "254" in preview.content.decode()
    imported = _post(client, f"/api/tournaments/{tournament.pk}/players/import/", {"csv": csv_text, "commit": True})
    assert imported.status_code == 400


def test_an_over_long_email_is_refused_by_the_form(client: Any, head_judge: Any, heat: Any) -> None:
    tournament, _, _ = heat
    client.force_login(head_judge)
    response = client.post(f"/tournaments/{tournament.pk}/players/", {"action": "add", "name": "Gurney", "email": LONG_EMAIL})
    assert response.status_code in (200, 400)
    assert "254" in response.content.decode()


def test_a_seed_past_the_largest_stored_number_is_refused(client: Any, head_judge: Any, heat: Any) -> None:
    tournament, players, _ = heat
    client.force_login(head_judge)
    final = make_round(tournament, number=2, kind="final", state="planned")
    response = _post(client, f"/api/rounds/{final.pk}/seating/", {"seed": 2**63, "players": [p.pk for p in players]})
    assert response.status_code == 400 and "seed" in response.json()


def test_a_csv_field_over_128_kb_is_refused(client: Any, head_judge: Any, heat: Any) -> None:
    tournament, _, _ = heat
    client.force_login(head_judge)
    csv_text = 'name,email,club\n"' + "x" * 140_000 + '",a@example.org,Ginaz\n'
    response = _post(client, f"/api/tournaments/{tournament.pk}/players/import/", {"csv": csv_text})
    assert response.status_code == 400 and "csv" in response.content.decode()


def test_an_impossible_date_on_the_add_round_form(client: Any, head_judge: Any, heat: Any) -> None:
    tournament, _, _ = heat
    client.force_login(head_judge)
    response = client.post(f"/tournaments/{tournament.pk}/", {"action": "add_round", "kind": "heat", "starts_at": "2026-02-30T10:00"})
    assert response.status_code in (200, 400)
    assert "starts_at" in response.content.decode() or "start" in response.content.decode()
    assert tournament.rounds.count() == 1
