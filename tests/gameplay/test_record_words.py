"""A game record reads as what happened, in words, with factions, territories and phases by
their names: on the table page's latest records, the history, and the API's events."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from gameplay import services
from gameplay.models import Game
from gameplay.record_words import said
from tests.e2e.test_table_venue import seeded_table


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ({"type": "phase_advanced", "phase": "battle"}, "The battle phase began"),
        ({"type": "phase_advanced", "phase": "shipment_movement"}, "The shipment and movement phase began"),
        ({"type": "turn_advanced", "turn": 3}, "Turn 3 began"),
        ({"type": "storm_moved", "sectors": 1}, "The storm moved 1 sector"),
        ({"type": "storm_moved", "sectors": 4}, "The storm moved 4 sectors"),
        ({"type": "storm_placed", "sector": 5}, "The storm was placed in sector 5"),
        ({"type": "worm", "territory": "habbanya_erg", "karama": False}, "A worm appeared in Habbanya Erg"),
        ({"type": "worm", "territory": None, "karama": False}, "A worm appeared"),
        ({"type": "alliance_formed", "factions": ["atreides", "bene_gesserit", "fremen"]},
         "Atreides, Bene Gesserit and Fremen formed an alliance"),
        ({"type": "bg_prediction_made", "faction": "harkonnen", "turn": 9},
         "The Bene Gesserit predicted Harkonnen to win in turn 9"),
        ({"type": "quick_record", "occupants": {"arrakeen": ["atreides"], "carthag": []}},
         "The strongholds were recorded: Arrakeen: Atreides"),
        ({"type": "victory_claimed", "winners": ["atreides", "fremen"]}, "Atreides and Fremen claimed victory"),
        ({"type": "void", "seq": 12, "reason": "typo"}, "Record #12 was voided"),
    ],
)
def test_a_record_reads_as_what_happened(event: dict[str, Any], words: str) -> None:
    with translation.override("en"):
        assert said(event) == words


def test_a_record_kind_without_a_sentence_is_left_to_its_fields() -> None:
    assert said({"type": "forces_placed", "faction": "atreides"}) is None
    assert said(None) is None


@pytest.mark.django_db
def test_the_table_page_the_history_and_the_api_say_what_happened(client: Any, django_user_model: Any) -> None:
    judge = django_user_model.objects.create_user("judge1", password="x")
    table = seeded_table(judge, until="turn_advanced")
    seq = Game.objects.get(table=table).seq
    services.append_event(table, {"type": "phase_advanced", "phase": "battle"}, expected_seq=seq, user=judge)
    client.force_login(judge)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "The battle phase began" in page and "Phase Advanced" not in page
    assert "Turn 2 began" in page
    events = client.get(f"/api/tables/{table.pk}/game/events/?after={seq}").json()["events"]
    assert [e["said"] for e in events] == ["The battle phase began"]
    assert events[0]["event"]["phase"] == "battle"  # the record itself, unchanged
