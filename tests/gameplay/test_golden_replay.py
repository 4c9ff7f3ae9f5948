"""The engine's golden replay (tests/engine/replays/): a full-tracking 10-turn, 6-player WBC
game of about 2,000 events, posted one by one through the API, ends in the position and
evaluation the engine recorded for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gameplay import services
from gameplay.models import Game, GameSnapshot

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[1] / "engine" / "replays" / "wbc_10_turns_6_players.jsonl"


def golden() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    lines = [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]
    return lines[:-1], lines[-1]


def test_golden_wbc_game_through_the_api(judge_api: Any, table: Any, table_judge: Any) -> None:
    events, final = golden()
    setup, rest = events[0], events[1:]
    services.start_game(table, setup, user=table_judge)
    seq = 1
    for event in rest:
        answer = judge_api.post(f"/api/tables/{table.pk}/game/events/", {"event": event, "expected_seq": seq},
                                format="json")
        assert answer.status_code == 201, (seq, event, answer.content[:500])
        seq += 1
    body = judge_api.get(f"/api/tables/{table.pk}/game/").json()
    assert body["seq"] == len(events)
    assert body["evaluation"] == final["expected"]
    assert body["position"] == final["snapshot"]
    assert GameSnapshot.objects.filter(game__table=table).count() == len(events) // 50
    report = services.prefill_report(table)
    rows = {r["faction"]: r for r in report["results"]}
    for faction, stat in final["expected"]["stats"].items():
        for key in ("strongholds", "forces", "tokens", "spice", "cards", "leaders"):
            assert rows[faction].get(key) == stat[key], (faction, key)
    outcome = final["expected"]["outcome"]
    if outcome:
        assert report["ended_by"] == outcome["ended_by"]
        assert {f for f, r in rows.items() if r["result"] not in ("loss", "dropout")} == set(outcome["winners"])
        for winner in outcome["winners"]:
            assert rows[winner]["result"] == outcome["kind"]


def test_start_game_refuses_factions_not_seated(table: Any, table_judge: Any) -> None:
    from django.core.exceptions import ValidationError

    events, _final = golden()
    setup = dict(events[0], factions=["atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "ixians"])
    with pytest.raises(ValidationError):
        services.start_game(table, setup, user=table_judge)
    assert not Game.objects.filter(table=table).exists()
