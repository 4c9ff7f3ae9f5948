"""The table judge's page: server-rendered forms that work without JavaScript."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from gameplay.models import GameEvent
from tests.gameplay.conftest import post_event
from tests.gameplay.recorded_game import recorded_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge_web(table_judge: Any) -> Client:
    client = Client()
    client.force_login(table_judge)
    return client


def url(table: Any) -> str:
    return f"/tables/{table.pk}/"


def test_page_shows_the_game_at_a_glance(judge_web: Client, table: Any) -> None:
    answer = judge_web.get(url(table))
    assert answer.status_code == 200
    html = answer.content.decode()
    for text in ("Turn", "Phase", "Storm", "Arrakeen", "Atreides", "Bene Gesserit", 'name="expected_seq" value="1"',
                 "Place storm", "Record prediction", "Advance phase"):
        assert text in html, text


def test_page_offers_the_forms_the_engine_allows_now(judge_web: Client, judge_api: Any, table: Any) -> None:
    """AH VII.A / WBC: a worm is recorded in the spice blow; the nexus it opens is the only time
    alliances form; quick records start with turn 1 (the engine's choices decide the forms)."""
    html = judge_web.get(url(table)).content.decode()
    assert "Record worm" not in html and "Form alliance" not in html and "Move storm" not in html
    seq = 1
    for event in recorded_game():
        seq = post_event(judge_api, table, event, seq).json()["seq"]
        if event == {"type": "phase_advanced", "phase": "spice_blow"} and seq > 10:
            break
    html = judge_web.get(url(table)).content.decode()
    assert "Record worm" in html and "Move storm" not in html
    assert '<option value="bidding" selected>' in html


def test_storm_form_records_and_redirects(judge_web: Client, table: Any) -> None:
    judge_web.get(url(table))
    answer = judge_web.post(url(table), {"action": "place_storm", "expected_seq": "1", "sector": "5"})
    assert answer.status_code == 302
    assert GameEvent.objects.get(game__table=table, seq=2).body["sector"] == 5
    page = judge_web.get(answer["Location"]).content.decode()
    assert "Recorded: storm placed (record #2)." in page and "sector 5" in page


def test_engine_refusal_shown_next_to_the_form_with_the_rule(judge_web: Client, table: Any) -> None:
    """AH VI.A / WBC VI.11: in turn 1 the storm is placed, not moved."""
    judge_web.get(url(table))
    judge_web.post(url(table), {"action": "place_storm", "expected_seq": "1", "sector": "5"})
    judge_web.post(url(table), {"action": "advance_phase", "expected_seq": "2", "phase": "storm"})
    answer = judge_web.post(url(table), {"action": "move_storm", "expected_seq": "3", "sectors": "4"})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'id="err-move_storm-form"' in html
    assert "rule AH VI.A" in html and "placed, not moved" in html
    assert GameEvent.objects.filter(game__table=table).count() == 3


def test_form_field_error_next_to_the_field(judge_web: Client, table: Any) -> None:
    judge_web.get(url(table))
    answer = judge_web.post(url(table), {"action": "move_storm", "expected_seq": "1", "sectors": "lots"})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'id="err-move_storm-sectors"' in html and "whole number" in html
    assert 'value="lots"' in html  # the refused value is kept


def test_stale_form_shows_what_changed(judge_web: Client, judge_api: Any, table: Any) -> None:
    judge_web.get(url(table))
    post_event(judge_api, table, {"type": "storm_placed", "sector": 7}, 1)
    answer = judge_web.post(url(table), {"action": "place_storm", "expected_seq": "1", "sector": "5"})
    assert answer.status_code == 409
    html = answer.content.decode()
    assert "Not recorded: the game moved on" in html and "record #1, the table is at #2" in html
    assert "The storm was placed in sector 7" in html and "judge1" in html
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_void_form_needs_a_reason_and_records_it(judge_web: Client, table: Any) -> None:
    judge_web.get(url(table))
    judge_web.post(url(table), {"action": "place_storm", "expected_seq": "1", "sector": "5"})
    refused = judge_web.post(url(table), {"action": "void", "expected_seq": "2", "seq": "2", "reason": ""})
    assert refused.status_code == 400 and "needs a reason" in refused.content.decode()
    done = judge_web.post(url(table), {"action": "void", "expected_seq": "2", "seq": "2", "reason": "wrong dial"})
    assert done.status_code == 302
    void = GameEvent.objects.get(game__table=table, seq=3)
    assert void.type == "void" and void.reason == "wrong dial"


def test_nexus_forms_only_when_a_nexus_is_open(judge_web: Client, judge_api: Any, table: Any) -> None:
    judge_web.get(url(table))
    assert "Form alliance" not in judge_web.get(url(table)).content.decode()
    seq = 1
    for event in recorded_game():
        if event["type"] == "alliance_formed":
            break
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    html = judge_web.get(url(table)).content.decode()
    assert "Form alliance" in html
    answer = judge_web.post(url(table), {"action": "form_alliance", "expected_seq": str(seq),
                                         "factions": ["atreides", "fremen"]})
    assert answer.status_code == 302
    assert GameEvent.objects.get(game__table=table, seq=seq + 1).body["factions"] == ["atreides", "fremen"]


def test_quick_grid_records_strongholds(judge_web: Client, judge_api: Any, table: Any) -> None:
    judge_web.get(url(table))
    seq = 1
    for event in recorded_game()[:5]:  # up to the battle phase of turn 1
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    answer = judge_web.post(url(table), {
        "action": "quick_record", "expected_seq": str(seq), "places": ["arrakeen", "carthag"],
        "occ": ["arrakeen|atreides", "carthag|harkonnen"], "coex": ["arrakeen"], "storm": "", "worms": "0"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    body = GameEvent.objects.get(game__table=table, seq=seq + 1).body
    assert body["occupants"]["arrakeen"] == ["atreides", "bene_gesserit"]
    assert body["coexisting"] == ["arrakeen"]


def test_win_attempt_proposed_and_confirmed(judge_web: Client, judge_api: Any, table: Any) -> None:
    """LoLV 4.01.04: at the battle phase the page shows the attempts the engine sees."""
    judge_web.get(url(table))
    seq = 1
    for event in recorded_game():
        if event["type"] == "win_attempt_confirmed":
            break
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    html = judge_web.get(url(table)).content.decode()
    assert "The engine sees a win attempt" in html
    answer = judge_web.post(url(table), {"action": "confirm_win_attempt", "expected_seq": str(seq),
                                         "factions": ["atreides", "fremen"], "note": "Tuek's taken"})
    assert answer.status_code == 302
    assert GameEvent.objects.get(game__table=table, seq=seq + 1).body["note"] == "Tuek's taken"


def test_other_users_cannot_post_forms(table: Any, make_user: Any) -> None:
    client = Client()
    client.force_login(make_user("someone"))
    assert client.get(url(table)).status_code == 200
    answer = client.post(url(table), {"action": "place_storm", "expected_seq": "1", "sector": "5"})
    assert answer.status_code == 403
    assert "Move storm" not in client.get(url(table)).content.decode()


def test_history_is_for_head_judges(table: Any, judge_web: Client, head_judge: Any) -> None:
    judge_web.get(url(table))
    judge_web.post(url(table), {"action": "place_storm", "expected_seq": "1", "sector": "5"})
    assert judge_web.get(f"/tables/{table.pk}/history/").status_code == 403
    head = Client()
    head.force_login(head_judge)
    html = head.get(f"/tables/{table.pk}/history/").content.decode()
    assert "judge1" in html and "The storm was placed in sector 5" in html and "from the seating" in html


def test_report_page_prefilled(judge_web: Client, judge_api: Any, table: Any) -> None:
    judge_web.get(url(table))
    seq = 1
    for event in recorded_game():
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    html = judge_web.get(f"/tables/{table.pk}/report/").content.decode()
    assert 'value="allied_stronghold" selected' in html
    assert 'value="victory" selected' in html


def test_report_filed_through_scoring_and_locked(judge_web: Client, judge_api: Any, table: Any) -> None:
    """LoLV 4.01.02: the judge confirms the prefilled report; scoring stores and locks it."""
    from gameplay import services
    from scoring.models import GameReport

    judge_web.get(url(table))
    seq = 1
    for event in recorded_game():
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    draft = services.prefill_report(table)
    form: dict[str, Any] = {"turns": str(draft["turns"]), "ended_by": draft["ended_by"], "confirm": "yes"}
    for row in draft["results"]:
        form[f"p{row['player']}_result"] = row["result"]
        for key in ("win_attempts", "strongholds", "spice", "cards", "leaders", "pp"):
            form[f"p{row['player']}_{key}"] = str(row.get(key, ""))
    answer = judge_web.post(f"/tables/{table.pk}/report/", form)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    report = GameReport.objects.get(table=table)
    assert report.locked
    results = {r["player"]: r["result"] for r in report.data["results"]}
    seats = {s.faction: s.player_id for s in table.seats.all()}
    assert results[seats["atreides"]] == results[seats["fremen"]] == "allied_stronghold"
    again = judge_web.post(f"/tables/{table.pk}/report/", form)
    # The same refusal the API answers: 409, the report is filed and locked.
    assert again.status_code == 409 and "locked" in again.content.decode()


def test_report_refusal_names_the_row(judge_web: Client, judge_api: Any, table: Any) -> None:
    judge_web.get(url(table))
    seq = 1
    for event in recorded_game():
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    from gameplay import services

    draft = services.prefill_report(table)
    form: dict[str, Any] = {"turns": "10", "ended_by": "victory", "confirm": "yes"}
    for row in draft["results"]:
        form[f"p{row['player']}_result"] = "solo_stronghold"  # everyone a solo winner: impossible
    answer = judge_web.post(f"/tables/{table.pk}/report/", form)
    assert answer.status_code == 400
    assert 'id="report-errors"' in answer.content.decode()
    from scoring.models import GameReport

    assert not GameReport.objects.filter(table=table).exists()


def test_setup_records_what_the_table_decided(judge_web: Client, table: Any, make_user: Any) -> None:
    """AH III / LoLV 0.xx: the storm's start, the Fremen's chosen starting forces and the BG
    prediction are recorded at setup; the prediction stays off the public page (LoLV 2.02.03)."""
    html = judge_web.get(url(table)).content.decode()
    assert 'id="setup-h"' in html
    assert judge_web.post(url(table), {"action": "make_prediction", "expected_seq": "1", "faction": "emperor",
                                       "turn": "6"}).status_code == 302
    answer = judge_web.post(url(table), {"action": "place_forces", "expected_seq": "2", "faction": "fremen",
                                         "piece": "sietch_tabr@13", "normal": "10"})
    assert answer.status_code == 302, answer.content.decode()[:500]
    assert judge_web.post(url(table), {"action": "place_storm", "expected_seq": "3", "sector": "11"}).status_code == 302
    judged = judge_web.get(url(table)).content.decode()
    assert "Bene Gesserit prediction (judges only until revealed): Emperor, turn 6" in judged
    public = Client()
    public.force_login(make_user("player1"))
    assert "Emperor, turn 6" not in public.get(url(table)).content.decode()


def test_prediction_turn_outside_the_game_is_refused_with_the_rule(judge_web: Client, table: Any) -> None:
    answer = judge_web.post(url(table), {"action": "make_prediction", "expected_seq": "1", "faction": "emperor",
                                         "turn": "12"})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'id="err-make_prediction-form"' in html and "rule AH" in html


def test_final_is_tracked_in_full(table_judge: Any, judge_web: Client) -> None:
    """A final is followed move by move: the game starts in full tracking (forces, reserves
    and tanks known), the page offers the force forms and counts the forces on the board."""
    from tests.factories import make_players, make_round, make_tournament, seat_table

    tournament = make_tournament(format="wbc")
    tournament.table_judges.add(table_judge)
    final = seat_table(make_round(tournament, number=4, kind="final"), make_players(tournament, 6),
                       factions=("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild"),
                       judge=table_judge)
    html = judge_web.get(url(final)).content.decode()
    assert "Place forces" in html and "Record strongholds" not in html
    answer = judge_web.post(url(final), {"action": "place_forces", "expected_seq": "1", "faction": "fremen",
                                         "piece": "sietch_tabr@13", "normal": "10"})
    assert answer.status_code == 302, answer.content.decode()[:800]
    page = judge_web.get(url(final)).content.decode()
    row = page[page.index('<tr class="f-fremen'):]
    row = row[:row.index("</tr>")]
    assert '<td class="num">10</td>' in row  # on the board
    from gameplay.models import Game

    game = Game.objects.get(table=final)
    assert game.tracking == "full" and game.events.get(seq=1).body["turns"] == 15
