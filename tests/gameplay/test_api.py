"""The table game's API: the position, the log, writes checked by the engine, who may write."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import Game, GameEvent
from tests.gameplay.conftest import SIX, post_event
from tests.gameplay.recorded_game import recorded_game

pytestmark = pytest.mark.django_db


def game_url(table: Any) -> str:
    return f"/api/tables/{table.pk}/game/"


def events_url(table: Any) -> str:
    return f"/api/tables/{table.pk}/game/events/"


def test_0_07_game_created_from_the_seating(judge_api: Any, table: Any) -> None:
    """LoLV 0.07/0.10: seat 1 sits nearest Tuek's Sietch (sector 4) and each next seat to the
    right; each marker goes on the nearest dot. The setup event carries the tournament's
    ruleset (WBC -> wbc2018), the factions in seat order and the heat's 10 turns."""
    answer = judge_api.get(game_url(table))
    assert answer.status_code == 200
    body = answer.json()
    assert body["seq"] == 1 and body["ruleset"] == "wbc2018"
    # Reading records nothing: the setup is the one the seating implies until a judge's first event.
    assert not GameEvent.objects.filter(game__table=table).exists()
    setup = judge_api.get(events_url(table)).json()["events"][0]
    assert setup["seq"] == 1 and setup["type"] == "game_setup"
    assert setup["event"]["factions"] == list(SIX)
    assert setup["event"]["markers"] == {"atreides": 4, "bene_gesserit": 7, "emperor": 10, "fremen": 13,
                                         "harkonnen": 16, "guild": 1}
    assert setup["event"]["turns"] == 10
    assert body["position"]["factions"]["atreides"]["marker"] == 4
    assert set(body["evaluation"]) >= {"storm_order", "control", "win_attempts", "victory", "stats", "pp"}


def test_event_appended_with_author_and_new_position(judge_api: Any, table: Any, table_judge: Any) -> None:
    judge_api.get(game_url(table))
    answer = post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 1)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["seq"] == 2 and body["position"]["storm"] == 5
    assert body["event"]["author"] == "judge1"
    recorded = GameEvent.objects.get(game__table=table, seq=2)
    assert recorded.author == table_judge and recorded.body["sector"] == 5


def test_engine_refusal_comes_back_with_the_rule_and_changes_nothing(judge_api: Any, table: Any) -> None:
    """AH VII.A.3 / WBC: no nexus, so no alliance, in turn 1; the refused event is not logged."""
    post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 1)
    before = list(GameEvent.objects.filter(game__table=table).values_list("seq", "body"))
    game_before = Game.objects.get(table=table)
    answer = post_event(judge_api, table, {"type": "alliance_formed", "factions": ["atreides", "fremen"]}, 2)
    assert answer.status_code == 400
    body = answer.json()
    assert body["rule"] == "AH VII.A.3"
    assert "alliance" in body["message"]
    assert list(GameEvent.objects.filter(game__table=table).values_list("seq", "body")) == before
    game_after = Game.objects.get(table=table)
    assert (game_after.seq, game_after.position) == (game_before.seq, game_before.position)


def test_malformed_event_names_the_field(judge_api: Any, table: Any) -> None:
    judge_api.get(game_url(table))
    answer = post_event(judge_api, table, {"type": "storm_placed", "sector": "north"}, 1)
    assert answer.status_code == 400
    assert "sector" in answer.json()["message"]
    assert not GameEvent.objects.filter(game__table=table).exists()  # a refusal records nothing, not even the setup


@pytest.mark.parametrize(
    "payload, field",
    [({"expected_seq": 1}, "event"), ({"event": {"type": "worm"}}, "expected_seq"),
     ({"event": {"type": "worm"}, "expected_seq": "1"}, "expected_seq")],
)
def test_missing_fields_are_named(judge_api: Any, table: Any, payload: dict[str, Any], field: str) -> None:
    answer = judge_api.post(events_url(table), payload, format="json")
    assert answer.status_code == 400
    assert field in answer.json()


def test_stale_write_is_409_with_the_current_position_and_what_changed(judge_api: Any, table: Any) -> None:
    """Two judges write against #1: the second is refused, told what changed, nothing lost."""
    judge_api.get(game_url(table))
    first = post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 1)
    assert first.status_code == 201
    second = post_event(judge_api, table, {"type": "storm_placed", "sector": 9}, 1)
    assert second.status_code == 409
    body = second.json()
    assert body["seq"] == 2 and body["expected_seq"] == 1
    assert body["position"]["storm"] == 5
    assert [c["seq"] for c in body["changes"]] == [2]
    assert body["changes"][0]["event"]["sector"] == 5
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_write_ahead_of_the_log_is_stale_too(judge_api: Any, table: Any) -> None:
    judge_api.get(game_url(table))
    answer = post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 7)
    assert answer.status_code == 409
    assert answer.json()["changes"] == []


def test_void_is_a_new_event_and_the_original_stays(judge_api: Any, table: Any) -> None:
    """Corrections never edit the log: the void is event #3, event #2 is still there, marked voided."""
    judge_api.get(game_url(table))
    post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 1)
    answer = post_event(judge_api, table, {"type": "void", "seq": 2, "reason": "misread the dial"}, 2)
    assert answer.status_code == 201, answer.content
    assert answer.json()["position"]["storm"] is None
    log = judge_api.get(events_url(table)).json()
    assert [(e["seq"], e["type"], e["voided"]) for e in log["events"]] == [
        (1, "game_setup", False), (2, "storm_placed", True), (3, "void", False)]
    assert log["events"][2]["reason"] == "misread the dial"
    again = post_event(judge_api, table, {"type": "storm_placed", "sector": 6}, 3)
    assert again.status_code == 201 and again.json()["position"]["storm"] == 6


def test_void_without_reason_is_refused(judge_api: Any, table: Any) -> None:
    judge_api.get(game_url(table))
    post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 1)
    answer = post_event(judge_api, table, {"type": "void", "seq": 2, "reason": "  "}, 2)
    assert answer.status_code == 400
    assert answer.json()["rule"] == "correction"
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_void_of_an_unknown_event_is_refused(judge_api: Any, table: Any) -> None:
    judge_api.get(game_url(table))
    post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 1)
    answer = post_event(judge_api, table, {"type": "void", "seq": 9, "reason": "typo"}, 2)
    assert answer.status_code == 400
    assert "no event 9" in answer.json()["message"]
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_void_that_breaks_a_later_event_is_refused(judge_api: Any, table: Any) -> None:
    """AH VII.A.3 / XII.C: an alliance forms only in a nexus, and the nexus follows a worm.
    Voiding turn 4's worm after the alliance was formed in its nexus would leave the alliance
    illegal, so the engine refuses the void and the log stays as it was."""
    judge_api.get(game_url(table))
    seq = 1
    for event in recorded_game():
        assert post_event(judge_api, table, event, seq).status_code == 201, event
        seq += 1
        if event["type"] == "alliance_formed":
            break
    worm_seq = seq - 1  # the alliance follows its worm directly
    assert GameEvent.objects.get(game__table=table, seq=worm_seq).type == "worm"
    answer = post_event(judge_api, table, {"type": "void", "seq": worm_seq, "reason": "no worm after all"}, seq)
    assert answer.status_code == 400
    assert answer.json()["rule"]
    assert GameEvent.objects.filter(game__table=table).count() == seq


def test_events_after_a_sequence_number(judge_api: Any, table: Any) -> None:
    judge_api.get(game_url(table))
    post_event(judge_api, table, {"type": "storm_placed", "sector": 5}, 1)
    post_event(judge_api, table, {"type": "phase_advanced", "phase": "storm"}, 2)
    log = judge_api.get(events_url(table) + "?after=2").json()
    assert [e["seq"] for e in log["events"]] == [3] and log["seq"] == 3
    assert judge_api.get(events_url(table) + "?after=x").status_code == 400


def test_unpublished_round_has_no_game_yet(judge_api: Any, table: Any) -> None:
    table.round.state = "planned"
    table.round.save()
    answer = judge_api.get(game_url(table))
    assert answer.status_code == 400
    assert "not published" in str(answer.json())
    assert not Game.objects.filter(table=table).exists()


def test_unknown_table_is_404(judge_api: Any) -> None:
    assert judge_api.get("/api/tables/999999/game/").status_code == 404
