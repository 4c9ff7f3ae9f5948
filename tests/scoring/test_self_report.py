"""Player self-report: where the format allows it, a player files the report of their table
without a judge from their private link; the others confirm or dispute it. Refused, changing
nothing, where the format does not allow it, at a judge's table, or for another table."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from scoring.models import GameReport, ResultConfirmation
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament import private_links, services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters() -> None:
    cache.clear()


def _table(head_judge: Any, *, self_report: bool) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Self Report Open")
    if self_report:  # before the first round is seated, when the format is fixed
        services.change_format(tournament, {"players.self_report": True})
    return seat_table(make_round(tournament), make_players(tournament, 6))


@pytest.fixture
def table(head_judge: Any) -> Any:
    return _table(head_judge, self_report=False)


@pytest.fixture
def own_table(head_judge: Any) -> Any:
    return _table(head_judge, self_report=True)


def _send(table: Any, seat: int, report: dict[str, Any]) -> Any:
    player = table.seats.get(seat=seat).player
    token = private_links.link_for(player).token
    return APIClient().post(f"/api/me/{token}/report/", {"table": table.pk, "report": report}, format="json")


def test_the_presets_let_only_a_judge_file(table: Any) -> None:
    answer = _send(table, 1, report_for(table, {0: "solo_stronghold"}))
    assert answer.status_code == 409 and "only a judge" in answer.json()["detail"]
    assert answer.json()["rule"].startswith("not in the WBC 2018 format")
    assert not GameReport.objects.exists()


def test_a_player_files_and_the_others_confirm_or_dispute(own_table: Any) -> None:
    table = own_table
    token = private_links.link_for(table.seats.get(seat=1).player).token
    assert APIClient().get(f"/api/me/{token}/").json()["self_report"]["table"] == table.pk
    bad = _send(table, 1, {"turns": 7, "ended_by": "victory", "results": []})
    assert bad.status_code == 400 and not GameReport.objects.exists()
    filed = _send(table, 1, report_for(table, {0: "solo_stronghold"}))
    assert filed.status_code == 201, filed.json()
    report = GameReport.objects.get(table=table)
    assert report.filed_by is None
    assert list(ResultConfirmation.objects.values_list("player__name", "agree")) == [("Player 001", True)]
    again = _send(table, 2, report_for(table, {1: "solo_stronghold"}))
    assert again.status_code == 409 and GameReport.objects.get(table=table).data == report.data
    other = private_links.link_for(table.seats.get(seat=2).player).token
    disputed = APIClient().post(f"/api/me/{other}/confirmations/",
                                {"table": table.pk, "agree": False, "reason": "I won"}, format="json")
    assert disputed.status_code == 200
    assert APIClient().get(f"/api/me/{token}/").json()["self_report"] is None


def test_a_judge_s_table_or_another_table_is_refused(own_table: Any, make_user: Any) -> None:
    table = own_table
    outsider = make_players(table.round.tournament, 1, prefix="Outsider")[0]
    token = private_links.link_for(outsider).token
    answer = APIClient().post(f"/api/me/{token}/report/",
                              {"table": table.pk, "report": report_for(table, {0: "solo_stronghold"})}, format="json")
    assert answer.status_code == 403 and "did not play" in answer.json()["detail"]
    table.judge = make_user("tj")
    table.save(update_fields=["judge"])
    judged = _send(table, 1, report_for(table, {0: "solo_stronghold"}))
    assert judged.status_code == 403 and "has a judge" in judged.json()["detail"]
    assert not GameReport.objects.exists()


def test_the_private_page_files_the_report_from_its_form(own_table: Any) -> None:
    table = own_table
    player = table.seats.get(seat=1).player
    token = private_links.link_for(player).token
    page = APIClient().get(f"/me/{token}/").content.decode()
    assert 'id="me-self-report"' in page
    seats = list(table.seats.order_by("seat").values_list("player_id", flat=True))
    form = {"action": "self_report", "table": str(table.pk), "turns": "seven", "ended_by": "victory",
            **{f"result_{pk}": "loss" for pk in seats}}
    refused = APIClient().post(f"/me/{token}/", form)
    assert refused.status_code == 400 and 'id="self-report-error"' in refused.content.decode()
    assert not GameReport.objects.exists()
    form.update({"turns": "7", f"result_{seats[0]}": "solo_stronghold"})
    assert APIClient().post(f"/me/{token}/", form).status_code == 302
    assert GameReport.objects.get(table=table).data["results"][0]["result"] == "solo_stronghold"
