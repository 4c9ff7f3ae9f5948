"""Filing, locking and reopening game reports through the API and the service."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from dune.refusals import Refusal
from scoring import services
from scoring.models import GameReport, ReportEntry, ReportRevision
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db


def url(table: Any) -> str:
    return f"/api/tables/{table.pk}/report/"


def test_file_report_stores_validated_json_and_locks(judge_client: Any, wbc_heat: Any) -> None:
    _, players, _, (table, _) = wbc_heat
    data = report_for(table, {0: "solo_stronghold"}, **{"0": {"tokens": 9.5, "pp": 4.5, "spice": 12}})
    response = judge_client.post(url(table), data, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["locked"] is True and body["version"] == 1 and body["state"] == "filed"
    first = body["report"]["results"][0]
    assert first == {
        "player": players[0].pk,
        "faction": "atreides",
        "result": "solo_stronghold",
        "win_attempts": 0,
        "strongholds": 0,
        "forces": 0,
        "spice": 12,
        "cards": 0,
        "leaders": 0,
        "die": 0,
        "tokens": "9.5",
        "pp": "4.5",
    }
    assert ReportEntry.objects.filter(report__table=table).count() == 6
    assert ReportRevision.objects.get().action == "filed"
    got = judge_client.get(url(table))
    assert got.status_code == 200 and got.json()["report"] == body["report"]


def test_get_without_report_is_404(api_client: Any, wbc_heat: Any) -> None:
    table = wbc_heat[3][0]
    assert api_client.get(url(table)).status_code == 404


def test_filed_report_is_locked_until_head_judge_reopens_with_reason(
    judge_client: Any, api_client: Any, make_user: Any, head_judge: Any, wbc_heat: Any
) -> None:
    """A filed report is locked; only a head judge reopens it, and must give a reason.
    (`judge_client` is `api_client` signed in as the head judge.)"""
    tournament, _, _, (table, _) = wbc_heat
    assert (
        judge_client.post(url(table), report_for(table, {0: "solo_stronghold"}), format="json").status_code
        == 201
    )
    again = judge_client.post(url(table), report_for(table, {1: "bg_prediction"}), format="json")
    assert again.status_code == 409 and "reopen" in again.json()["detail"]

    judge = make_user("tj")
    tournament.table_judges.add(judge)
    api_client.force_authenticate(judge)
    assert api_client.post(url(table) + "reopen/", {"reason": "typo"}, format="json").status_code == 403
    api_client.force_authenticate(head_judge)

    no_reason = judge_client.post(url(table) + "reopen/", {"reason": "  "}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    reopened = judge_client.post(url(table) + "reopen/", {"reason": "wrong winner"}, format="json")
    assert reopened.status_code == 200 and reopened.json()["state"] == "reopened"

    refiled = judge_client.post(url(table), report_for(table, {1: "bg_prediction"}), format="json")
    assert refiled.status_code == 201 and refiled.json()["version"] == 2
    assert [r.action for r in ReportRevision.objects.order_by("id")] == ["filed", "reopened", "filed"]
    assert set(ReportEntry.objects.filter(report__table=table).values_list("result", flat=True)) == {
        "bg_prediction",
        "loss",
    }


def test_only_the_tables_judge_or_head_judge_may_file(api_client: Any, make_user: Any, wbc_heat: Any) -> None:
    tournament, _, _, (table, other) = wbc_heat
    data = report_for(table, {0: "solo_stronghold"})
    assert api_client.post(url(table), data, format="json").status_code == 403
    stranger = make_user("stranger")
    api_client.force_authenticate(stranger)
    assert api_client.post(url(table), data, format="json").status_code == 403
    other.judge = stranger
    other.save()
    assert api_client.post(url(table), data, format="json").status_code == 403
    table.judge = stranger
    table.save()
    assert api_client.post(url(table), data, format="json").status_code == 201
    assert GameReport.objects.count() == 1


@pytest.mark.parametrize(
    ("fmt", "winners", "rule", "field", "seat"),
    [
        # LoLV 4.01.12: two solo winners are refused; the row of the second is named.
        ("lolv", {0: "solo_stronghold", 2: "solo_stronghold"}, "4.01.12", "result", 2),
        # LoLV 1.10.01.03: an alliance joins two players, so no three-faction alliance victory.
        ("lolv", {0: "three_alliance", 2: "three_alliance", 4: "three_alliance"}, "1.10.01.03", "result", 0),
        # AH IV.C.1: the most-strongholds end game needs Guild and Fremen absent (never at a WBC six).
        ("wbc", {0: "end_game_solo"}, "AH IV.C.1", "result", 0),
        # AH IV.A: a BG prediction is won by the Bene Gesserit (seat 1 here is the BG).
        ("wbc", {2: "bg_prediction"}, "AH IV.A", "result", 2),
        # WBC house rules: a 2-faction alliance win has two winners.
        ("wbc", {0: "allied_stronghold"}, "WBC house rules (4/5 strongholds)", "result", 0),
    ],
)
def test_bad_report_is_400_naming_row_field_rule_and_saves_nothing(
    judge_client: Any, head_judge: Any, fmt: str, winners: dict[int, str], rule: str, field: str, seat: int
) -> None:
    tournament = make_tournament(format=fmt, head_judge=head_judge)
    players = make_players(tournament, 6)
    table = seat_table(make_round(tournament), players)
    ended = "turn_limit" if "end_game" in str(winners) else "victory"
    response = judge_client.post(url(table), report_for(table, winners, ended_by=ended), format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["rule"] == rule and body["field"] == field and body["player"] == players[seat].pk
    assert f"row {players[seat].name}" in body["detail"] and rule in body["detail"]
    assert not GameReport.objects.exists() and not ReportEntry.objects.exists()


def test_malformed_report_is_400_not_500(judge_client: Any, wbc_heat: Any) -> None:
    table = wbc_heat[3][0]
    for data in ({}, {"turns": 7}, {"turns": 7, "ended_by": "victory", "results": [{"player": "x"}]}, []):
        response = judge_client.post(url(table), data, format="json")
        assert response.status_code == 400, (data, response.content)
        assert response.json()["field"]
    assert not GameReport.objects.exists()


def test_service_refusal_is_a_refusal_naming_the_field_for_the_table_page(head_judge: Any, wbc_heat: Any) -> None:
    """The table page calls file_report and shows the refusal next to the field it names."""
    table = wbc_heat[3][0]
    with pytest.raises(Refusal) as err:
        services.file_report(table, report_for(table, {0: "solo_stronghold"}) | {"turns": 0}, user=head_judge)
    assert err.value.field == "turns" and "turns" in err.value.form_errors("report")
    with pytest.raises(PermissionDenied):
        services.file_report(table, report_for(table, {0: "solo_stronghold"}), user=None)


def test_wbc_dropout_is_barred_from_later_heats(judge_client: Any, wbc_heat: Any) -> None:
    """WBC Dropouts: a player who dropped out is disqualified from all further games."""
    tournament, players, _, (table, _) = wbc_heat
    filed = judge_client.post(
        url(table), report_for(table, {0: "solo_stronghold", 3: "dropout"}), format="json"
    )
    assert filed.status_code == 201
    heat2 = make_round(tournament, number=2)
    later = seat_table(heat2, [players[3], *players[6:11]], number=1)
    response = judge_client.post(url(later), report_for(later, {1: "solo_stronghold"}), format="json")
    assert response.status_code == 400
    assert response.json()["rule"] == "WBC Dropouts" and response.json()["player"] == players[3].pk
    assert services.disqualified_players(tournament) == {players[3].pk}


def test_wbc_dropout_filed_after_a_later_heat_is_refused(judge_client: Any, wbc_heat: Any) -> None:
    tournament, players, _, (table, _) = wbc_heat
    heat2 = make_round(tournament, number=2)
    later = seat_table(heat2, [players[3], *players[6:11]], number=1)
    assert (
        judge_client.post(url(later), report_for(later, {1: "solo_stronghold"}), format="json").status_code
        == 201
    )
    response = judge_client.post(
        url(table), report_for(table, {0: "solo_stronghold", 3: "dropout"}), format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "result"


def test_0_02_a_lolv_report_of_12_turns_is_400_citing_0_02(judge_client: Any, head_judge: Any) -> None:
    """LoLV 0.02: a game lasts at most 10 turns; a report claiming 12 is refused, names the
    field and the rule of the LoLV ruleset, saves nothing, and the report page offers 10 at most."""
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    table = seat_table(make_round(tournament), make_players(tournament, 6))
    response = judge_client.post(url(table), report_for(table, {0: "solo_stronghold"}) | {"turns": 12}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "turns" and body["rule"] == "0.02" and "from 1 to 10" in body["detail"]
    assert not GameReport.objects.exists()
    assert judge_client.post(url(table), report_for(table, {0: "solo_stronghold"}) | {"turns": 10}, format="json").status_code == 201


def test_the_report_page_offers_the_rounds_turn_limit(client: Any, head_judge: Any) -> None:
    """The report form's turns field stops at the round's limit (LoLV 0.02: 10; WBC final 15)."""
    client.force_login(head_judge)
    for fmt, kind, most in (("lolv", "heat", 10), ("wbc", "heat", 10), ("wbc", "final", 15)):
        tournament = make_tournament(format=fmt, head_judge=head_judge)
        table = seat_table(make_round(tournament, kind=kind), make_players(tournament, 6))
        html = client.get(f"/tables/{table.pk}/report/").content.decode()
        assert f'name="turns" type="number" min="1" max="{most}"' in html, fmt
