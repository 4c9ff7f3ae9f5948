"""API: tournaments, players, CSV import, rounds and check-in (their shapes and refusals)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tournament.models import CheckIn, Player, Round, Tournament

pytestmark = pytest.mark.django_db


def test_create_tournament_answers_id_and_makes_creator_head_judge(
    judge_client: Any, head_judge: Any
) -> None:
    response = judge_client.post("/api/tournaments/", {"name": "WBC 2026", "format": "wbc"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert set(body) >= {"id", "name", "format"} and body["format"] == "wbc"
    assert Tournament.objects.get(pk=body["id"]).head_judges.filter(pk=head_judge.pk).exists()


def test_create_tournament_refusals_name_the_field(
    judge_client: Any, api_client: Any, make_user: Any
) -> None:
    response = judge_client.post("/api/tournaments/", {"name": "X", "format": "chess"}, format="json")
    assert response.status_code == 400 and "format" in response.json()
    response = judge_client.post("/api/tournaments/", {"format": "wbc"}, format="json")
    assert response.status_code == 400 and "name" in response.json()
    api_client.force_authenticate(make_user("someone"))
    assert (
        api_client.post("/api/tournaments/", {"name": "X", "format": "wbc"}, format="json").status_code == 403
    )
    assert Tournament.objects.count() == 0


def test_players_add_list_and_refusals(judge_client: Any, tournament: Any) -> None:
    url = f"/api/tournaments/{tournament.pk}/players/"
    response = judge_client.post(
        url, {"name": "Alia Atreides", "email": "alia@example.org", "club": "Sietch"}, format="json"
    )
    assert response.status_code == 201 and response.json()["id"]
    for body, field in [
        ({"name": ""}, "name"),
        ({"name": "Bob", "email": "not-an-email"}, "email"),
        ({"name": "alia atreides"}, "name"),
    ]:
        refused = judge_client.post(url, body, format="json")
        assert refused.status_code == 400, body
        assert field in refused.json(), refused.json()
    assert Player.objects.filter(tournament=tournament).count() == 1
    public = APIClient().get(url).json()["players"]
    assert public == [
        {"id": response.json()["id"], "name": "Alia Atreides", "club": "Sietch", "status": "active"}
    ]
    assert judge_client.get(url).json()["players"][0]["email"] == "alia@example.org"


def test_players_write_needs_head_judge(api_client: Any, tournament: Any, make_user: Any) -> None:
    url = f"/api/tournaments/{tournament.pk}/players/"
    assert api_client.post(url, {"name": "X"}, format="json").status_code in (401, 403)
    api_client.force_authenticate(make_user("table_judge"))
    assert api_client.post(url, {"name": "X"}, format="json").status_code == 403


CSV_BROKEN = "name,email,club\nAlia,alia@example.org,Sietch\n,x@example.org,\nBijaz,nope,\nalia,,\nChani,c@example.org,Tabr\n"


def test_import_preview_lists_every_refused_row_and_saves_nothing(judge_client: Any, tournament: Any) -> None:
    url = f"/api/tournaments/{tournament.pk}/players/import/"
    response = judge_client.post(url, {"csv": CSV_BROKEN, "preview": True}, format="json")
    assert response.status_code == 200
    rows = response.json()["rows"]
    assert [(r["line"], r["ok"]) for r in rows] == [(2, True), (3, False), (4, False), (5, False), (6, True)]
    assert rows[1]["errors"] == ["empty name"]
    assert rows[2]["errors"] == ["bad email 'nope'"]
    assert rows[3]["errors"] == ["duplicate of line 2"]
    assert Player.objects.count() == 0


def test_import_with_broken_rows_refused_whole_nothing_half_written(
    judge_client: Any, tournament: Any
) -> None:
    url = f"/api/tournaments/{tournament.pk}/players/import/"
    response = judge_client.post(url, {"csv": CSV_BROKEN}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert "file" in body and "3 of 5 rows are refused" in body["detail"]
    assert len(body["rows"]) == 5
    assert Player.objects.count() == 0


def test_import_skipping_refused_rows_registers_the_others(judge_client: Any, tournament: Any) -> None:
    url = f"/api/tournaments/{tournament.pk}/players/import/"
    response = judge_client.post(url, {"csv": CSV_BROKEN, "skip_refused": True}, format="json")
    assert response.status_code == 201
    assert sorted(p["name"] for p in response.json()["created"]) == ["Alia", "Chani"]
    assert response.json()["refused"] == 3
    again = judge_client.post(url, {"csv": "Alia,,\n", "preview": True}, format="json").json()
    assert again["rows"][0]["errors"] == ["already registered"]


def test_import_from_uploaded_file(judge_client: Any, tournament: Any) -> None:
    upload = SimpleUploadedFile(
        "players.csv", b"Name,Club,Email\nDuncan,Ginaz,duncan@example.org\n", content_type="text/csv"
    )
    response = judge_client.post(
        f"/api/tournaments/{tournament.pk}/players/import/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 201
    player = Player.objects.get()
    assert (player.name, player.club, player.email) == ("Duncan", "Ginaz", "duncan@example.org")


def test_import_without_csv_names_the_field(judge_client: Any, tournament: Any) -> None:
    response = judge_client.post(f"/api/tournaments/{tournament.pk}/players/import/", {}, format="json")
    assert response.status_code == 400 and "file" in response.json()


def test_rounds_numbered_in_order_one_final(judge_client: Any, tournament: Any) -> None:
    url = f"/api/tournaments/{tournament.pk}/rounds/"
    first = judge_client.post(url, {"kind": "heat", "starts_at": "2026-07-22T13:00:00Z"}, format="json")
    assert first.status_code == 201 and first.json()["number"] == 1 and first.json()["id"]
    assert first.json()["starts_at"].startswith("2026-07-22T13:00")
    assert judge_client.post(url, {"kind": "final"}, format="json").json()["number"] == 2
    second_final = judge_client.post(url, {"kind": "final"}, format="json")
    assert second_final.status_code == 400 and "kind" in second_final.json()
    assert judge_client.post(url, {"kind": "semi"}, format="json").status_code == 400
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_check_in_withdraw_and_drop(judge_client: Any, tournament: Any, heat: Any) -> None:
    from tournament import services

    alia = services.add_player(tournament, name="Alia")
    url = f"/api/rounds/{heat.pk}/checkins/"
    assert judge_client.post(url, {"player": alia.pk}, format="json").json()["checked_in"] == [alia.pk]
    services.set_status(alia, "withdrawn")
    assert not CheckIn.objects.filter(player=alia).exists()
    refused = judge_client.post(url, {"player": alia.pk}, format="json")
    assert refused.status_code == 400 and "withdrawn" in refused.json()["detail"]
    services.set_status(alia, "active")
    judge_client.post(url, {"player": alia.pk}, format="json")
    assert (
        judge_client.post(url, {"player": alia.pk, "checked_in": False}, format="json").json()["checked_in"]
        == []
    )
