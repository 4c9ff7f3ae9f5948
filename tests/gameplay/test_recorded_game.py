"""A whole recorded 10-turn WBC heat played through the API: final position and report."""

from __future__ import annotations

from typing import Any

import pytest

import dune.engine as engine
from gameplay import services
from gameplay.models import Game, GameEvent, GameSnapshot
from tests.gameplay.conftest import post_event
from tests.gameplay.recorded_game import recorded_game

pytestmark = pytest.mark.django_db


def play(client: Any, table: Any) -> int:
    client.get(f"/api/tables/{table.pk}/game/")
    seq = 1
    for event in recorded_game():
        answer = post_event(client, table, event, seq)
        assert answer.status_code == 201, (event, answer.content)
        seq = answer.json()["seq"]
    return seq


def test_wbc_allied_victory_after_ten_turns(judge_api: Any, table: Any) -> None:
    """WBC house rules: a two-faction alliance wins with 4 strongholds at the Mentat Pause.
    The Atreides-Fremen alliance (formed in turn 4's nexus) holds Arrakeen, Tuek's Sietch,
    Sietch Tabr and Habbanya Sietch at the end of turn 10."""
    last = play(judge_api, table)
    assert last == 1 + len(recorded_game())
    body = judge_api.get(f"/api/tables/{table.pk}/game/").json()
    assert body["seq"] == last
    position, evaluation = body["position"], body["evaluation"]
    assert position["turn"] == 10 and position["worms"] == 4
    assert [sorted(a) for a in position["alliances"]] == [["atreides", "fremen"]]
    assert evaluation["outcome"]["winners"] == ["atreides", "fremen"]
    assert evaluation["outcome"]["kind"] == "allied_stronghold"
    assert evaluation["control"]["tueks_sietch"] == "atreides"
    # The cached position is the replay of the log.
    log = list(GameEvent.objects.filter(game__table=table).order_by("seq").values_list("body", flat=True))
    assert engine.evaluate(engine.replay(log)).to_dict() == evaluation
    # Periodic snapshots every 50 events, each a prefix of the log.
    snapshots = list(GameSnapshot.objects.filter(game__table=table).order_by("seq"))
    assert [s.seq for s in snapshots] == [50]
    assert engine.evaluate(engine.replay(log[:50])).turn == snapshots[0].position["turn"]


def test_wbc_report_prefilled_from_the_recorded_game(judge_api: Any, table: Any) -> None:
    """Issue 6 report shape; WBC adjudication statistics and PP (Best Faction Awards): Arrakeen
    and Carthag 1 PP a turn, other strongholds 1 for the Fremen and 0.5 for others."""
    play(judge_api, table)
    report = services.prefill_report(table)
    assert report["turns"] == 10 and report["ended_by"] == "victory"
    rows = {r["faction"]: r for r in report["results"]}
    seats = {s.faction: s.player_id for s in table.seats.all()}
    assert {r["player"] for r in report["results"]} == set(seats.values())
    assert rows["atreides"]["result"] == rows["fremen"]["result"] == "allied_stronghold"
    for loser in ("bene_gesserit", "emperor", "harkonnen", "guild"):
        assert rows[loser]["result"] == "loss"
    assert rows["atreides"]["win_attempts"] == rows["fremen"]["win_attempts"] == 1
    assert rows["harkonnen"]["win_attempts"] == 0
    assert rows["atreides"]["strongholds"] == 2 and rows["fremen"]["strongholds"] == 2
    # Atreides: Arrakeen 1 PP a turn for 10 turns plus Tuek's Sietch 0.5 in turn 10.
    assert rows["atreides"]["pp"] == "10.5"
    assert rows["harkonnen"]["pp"] == "10"
    assert report["alliances"] == [[seats["atreides"], seats["fremen"]]]


def test_concession_report(judge_api: Any, table: Any) -> None:
    """WBC Concessions: everyone concedes to an unallied player; the report records the
    stronghold victory conceded with ended_by 'concession'."""
    judge_api.get(f"/api/tables/{table.pk}/game/")
    seq = 1
    for event in recorded_game()[:12]:
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    answer = post_event(judge_api, table, {"type": "concession", "to_factions": ["harkonnen"], "unanimous": True}, seq)
    assert answer.status_code == 201, answer.content
    report = services.prefill_report(table)
    assert report["ended_by"] == "concession"
    rows = {r["faction"]: r["result"] for r in report["results"]}
    assert rows["harkonnen"] == "solo_stronghold"
    assert sorted(set(rows.values())) == ["loss", "solo_stronghold"]


def test_game_over_refuses_further_play(judge_api: Any, table: Any) -> None:
    last = play(judge_api, table)
    answer = post_event(judge_api, table, {"type": "turn_advanced", "turn": 11}, last)
    assert answer.status_code == 400
    assert "over" in answer.json()["message"]
    assert Game.objects.get(table=table).seq == last


def test_time_out_adjudication_proposed_and_confirmed(judge_api: Any, table: Any) -> None:
    """WBC adjudication: when time runs out without a winner, the engine ranks the sides by the
    criteria (strongholds, tokens, spice, cards, leaders, die); the judge confirms the first.
    The report says `adjudicated` for the winner and `time_limit` for how the game ended."""
    judge_api.get(f"/api/tables/{table.pk}/game/")
    seq = 1
    for event in recorded_game()[:30]:
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    # The table's clock records time_up (as clocks.game_log does: no user).
    recorded = services.append_event(table, {"type": "time_up", "clock": "wbc_heat"}, expected_seq=seq, user=None)
    seq = recorded.game.seq
    proposed = recorded.game.evaluation["adjudication"][0]
    confirmed = post_event(judge_api, table, {"type": "adjudication_confirmed", "winners": proposed}, seq)
    assert confirmed.status_code == 201, confirmed.content
    report = services.prefill_report(table)
    assert report["ended_by"] == "time_limit"
    winners = {r["faction"] for r in report["results"] if r["result"] == "adjudicated"}
    assert winners == set(proposed)


def test_dropout_is_reported_and_the_game_goes_on(judge_api: Any, table: Any) -> None:
    """WBC Dropouts: the player's tokens and leaders leave, the game goes on; the report keeps
    the player who started, marked as a dropout."""
    judge_api.get(f"/api/tables/{table.pk}/game/")
    seq = 1
    for event in recorded_game()[:8]:
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    answer = post_event(judge_api, table, {"type": "dropout", "faction": "emperor", "reason": "unwell"}, seq)
    assert answer.status_code == 201, answer.content
    seq = answer.json()["seq"]
    assert post_event(judge_api, table, {"type": "spice_set", "faction": "emperor", "amount": 3}, seq).status_code == 400
    report = services.prefill_report(table)
    rows = {r["faction"]: r["result"] for r in report["results"]}
    assert rows["emperor"] == "dropout" and len(rows) == 6


def test_concession_to_one_member_of_an_alliance_is_refused(judge_api: Any, table: Any) -> None:
    """WBC Concessions: players may concede to an unallied player or to a whole alliance, never
    to a single allied player; the refusal names the rule and the log stays as it was."""
    judge_api.get(f"/api/tables/{table.pk}/game/")
    seq = 1
    for event in recorded_game():
        seq = post_event(judge_api, table, event, seq).json()["seq"]
        if event["type"] == "alliance_formed":
            break
    answer = post_event(judge_api, table, {"type": "concession", "to_factions": ["atreides"], "unanimous": True}, seq)
    assert answer.status_code == 400
    assert answer.json()["rule"] and "allian" in answer.json()["message"]
    assert Game.objects.get(table=table).seq == seq
    whole = post_event(judge_api, table, {"type": "concession", "to_factions": ["atreides", "fremen"],
                                          "unanimous": True}, seq)
    assert whole.status_code == 201, whole.content
    report = services.prefill_report(table)
    assert {r["faction"] for r in report["results"] if r["result"] == "allied_stronghold"} == {"atreides", "fremen"}


def _timed_out(client: Any, table: Any) -> tuple[int, list[str], list[str]]:
    client.get(f"/api/tables/{table.pk}/game/")
    seq = 1
    for event in recorded_game()[:30]:
        seq = post_event(client, table, event, seq).json()["seq"]
    recorded = services.append_event(table, {"type": "time_up", "clock": "wbc_heat"}, expected_seq=seq, user=None)
    ranking = recorded.game.evaluation["adjudication"]
    return recorded.game.seq, ranking[0], ranking[1]


def test_only_a_head_judge_overrides_the_adjudication(judge_api: Any, table: Any, head_judge: Any) -> None:
    """The table judge confirms the engine's ranking; the head judge may set it aside with a reason."""
    seq, _first, second = _timed_out(judge_api, table)
    override = {"type": "adjudication_confirmed", "winners": second, "override_reason": "miscounted spice"}
    refused = post_event(judge_api, table, override, seq)
    assert refused.status_code == 403
    assert "only a head judge may override" in refused.json()["detail"]
    assert Game.objects.get(table=table).seq == seq

    from rest_framework.test import APIClient

    head = APIClient()
    head.force_authenticate(head_judge)
    accepted = post_event(head, table, override, seq)
    assert accepted.status_code == 201, accepted.content
    winners = {r["faction"] for r in services.prefill_report(table)["results"] if r["result"] == "adjudicated"}
    assert winners == set(second)


def test_override_refusal_is_shown_next_to_the_field(client: Any, table: Any, table_judge: Any) -> None:
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(table_judge)
    seq, _first, second = _timed_out(api, table)
    client.force_login(table_judge)
    form = {"action": "confirm_adjudication", "expected_seq": seq, "winners": second, "override_reason": "I think so"}
    response = client.post(f"/tables/{table.pk}/", form)
    assert response.status_code == 403
    assert b"only a head judge may override" in response.content
    assert Game.objects.get(table=table).seq == seq
