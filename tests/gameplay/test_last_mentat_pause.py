"""The last turn's Mentat Pause with nobody winning: the next step is the end of the last turn,
in view and first (LoLV 1.09.04: the game ends after the last turn's Mentat Pause; WBC: ten
turns in a heat), never a box with no control."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gameplay import services
from tests.e2e.test_table_venue import seeded_table
from tests.gameplay.table_page import seq_of, url, web

pytestmark = pytest.mark.django_db


def test_rule_1_09_04_the_last_mentat_pause_offers_the_end_of_the_last_turn_as_its_next_step(make_user: Any) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="quick_record", occurrence=9)  # turn 9, battle phase recorded
    seq = seq_of(table)
    for event in (
        {"type": "phase_advanced", "phase": "mentat_pause"},
        {"type": "turn_advanced", "turn": 10},
        {"type": "storm_moved", "sectors": 2},
        {"type": "phase_advanced", "phase": "battle"},
        {"type": "quick_record", "occupants": {"arrakeen": ["atreides"], "carthag": ["harkonnen"]},
         "coexisting": [], "storm": None, "worms": None},
        {"type": "phase_advanced", "phase": "mentat_pause"},
    ):
        services.append_event(table, event, expected_seq=seq, user=judge)
        seq += 1
    html = web(judge).get(url(table)).content.decode()
    step = re.search(r'<section id="next".*?</section>', html, re.S)
    assert step is not None
    box = step.group(0)
    assert 'data-step="next_turn"' in box and "of the last turn" in box
    control = re.search(r'<form[^>]*data-action="end_last_turn"[^>]*>.*?</form>', box, re.S)
    assert control is not None, box[:2000]
    assert "data-next-control" in control.group(0) and "End of the last turn" in control.group(0)
