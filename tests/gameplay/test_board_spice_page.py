"""Spice on the board from the table page: the judge records a Spice Blow (LoLV 1.02.04,
AH VII.A.1) and a collection (AH XI.A), sees the spice the storm destroyed (WBC VI.8) beside
the forces, and puts it back with a reason; refusals stand next to their field with what was
typed, and nothing is recorded twice."""

from __future__ import annotations

import html as entities
import re
from typing import Any

import pytest

from gameplay.models import Game, GameEvent
from tests.gameplay.full_game import BEFORE_THE_STORM, STORM, final_table, record
from tests.gameplay.table_page import form_of, seq_of, url, web

pytestmark = pytest.mark.django_db

#: Turn 1's spice blow puts the Great Flat's 10 spice in sector 14 (the storm stands in 10).
BLOW = [{"type": "phase_advanced", "phase": "spice_blow"}, {"type": "spice_blow", "territory": "the_great_flat"}]








def board_spice(table: Any) -> dict[str, int]:
    return Game.objects.get(table=table).position.get("spice_on_board", {})




def test_1_02_04_the_judge_records_a_spice_blow_from_the_page(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, [{"type": "phase_advanced", "phase": "storm"}, {"type": "storm_placed", "sector": 10},
                                {"type": "phase_advanced", "phase": "spice_blow"}])
    judge = web(table_judge)
    html = judge.get(url(table)).content.decode()
    assert "The Great Flat (10 spice)" in form_of(html, "spice_blow")
    seq = seq_of(table)
    form = {"action": "spice_blow", "territory": "the_great_flat", "amount": "", "expected_seq": str(seq),
            "idempotency_key": "blow-1"}
    assert judge.post(url(table), form).status_code == 302
    judge.post(url(table), form)  # a retry of the same tap
    assert board_spice(table) == {"the_great_flat": 10}
    assert GameEvent.objects.filter(game__table=table, seq__gt=seq).count() == 1
    assert "The Great Flat: 10 spice" in judge.get(url(table)).content.decode()


def test_1_02_04_spice_blown_into_the_storm_is_refused_at_its_amount(table_judge: Any) -> None:
    """The card in the storm is still turned up (AH VII.A.1): what is refused is the spice,
    at the amount, keeping what was typed."""
    table = final_table(table_judge)
    record(table, table_judge, [{"type": "phase_advanced", "phase": "storm"}, {"type": "storm_placed", "sector": 14},
                                {"type": "phase_advanced", "phase": "spice_blow"}])
    seq = seq_of(table)
    answer = web(table_judge).post(url(table), {"action": "spice_blow", "territory": "the_great_flat", "amount": "7",
                                                "expected_seq": str(seq)})
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "spice_blow")
    error = re.search(r'id="err-spice_blow-amount">(.*?)</p>', form)
    assert error and "The Great Flat is in the storm" in error.group(1) and "record 0 spice" in error.group(1)
    assert re.search(r'<option value="the_great_flat" selected>', form) and 'value="7"' in form
    assert seq_of(table) == seq


def test_wbc_vi_8_spice_the_storm_destroyed_is_listed_and_put_back(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, BEFORE_THE_STORM[:2] + BLOW + BEFORE_THE_STORM[2:] + [STORM])
    assert board_spice(table) == {}
    judge = web(table_judge)
    html = judge.get(url(table)).content.decode()
    assert "10 spice in The Great Flat" in html and "rule WBC VI.8" in html
    form = form_of(html, "set_board_spice")
    assert 'name="territory" value="the_great_flat"' in form and re.search(r'name="amount"[^>]*value="10"', form)

    seq = seq_of(table)
    refused = judge.post(url(table), {"action": "set_board_spice", "territory": "the_great_flat", "amount": "10",
                                      "reason": "", "expected_seq": str(seq)})
    assert refused.status_code == 400
    error = re.search(r'id="err-set_board_spice-reason">(.*?)</p>', form_of(refused.content.decode(), "set_board_spice"))
    assert error and "a correction needs a reason" in error.group(1)
    assert seq_of(table) == seq

    done = judge.post(url(table), {"action": "set_board_spice", "territory": "the_great_flat", "amount": "10",
                                   "reason": "the storm moved 3", "expected_seq": str(seq), "idempotency_key": "s-1"})
    assert done.status_code == 302
    assert board_spice(table) == {"the_great_flat": 10}
    # The correction's reason is in the log, as a void's is.
    assert GameEvent.objects.get(game__table=table, type="board_spice_set").reason == "the storm moved 3"
    # The Harkonnen forces the same storm took are still listed, with their own form.
    assert 'data-action="correct_loss"' in judge.get(url(table)).content.decode()


def test_ah_xi_a_collection_is_held_to_three_spice_per_force_with_carthag(table_judge: Any) -> None:
    """The Harkonnen start in Carthag, so their three forces in The Great Flat collect 3 each."""
    table = final_table(table_judge)
    record(table, table_judge, BEFORE_THE_STORM[:2] + BLOW + [
        {"type": "phase_advanced", "phase": "shipment_movement"},
        {"type": "forces_placed", "faction": "harkonnen", "territory": "the_great_flat", "sector": 14, "normal": 3},
        {"type": "phase_advanced", "phase": "spice_collection"},
    ])
    judge = web(table_judge)
    seq = seq_of(table)
    form = {"action": "collect_spice", "faction": "harkonnen", "territory": "the_great_flat", "amount": "10",
            "expected_seq": str(seq)}
    refused = judge.post(url(table), form)
    assert refused.status_code == 400
    error = re.search(r'id="err-collect_spice-amount">(.*?)</p>', form_of(refused.content.decode(), "collect_spice"))
    assert error and "Harkonnen's forces in The Great Flat collect at most 9 spice" in entities.unescape(error.group(1))
    assert seq_of(table) == seq
    spice_before = Game.objects.get(table=table).position["factions"]["harkonnen"]["spice"]
    assert judge.post(url(table), {**form, "amount": "9", "idempotency_key": "c-1"}).status_code == 302
    position = Game.objects.get(table=table).position
    assert position["spice_on_board"] == {"the_great_flat": 1}
    assert position["factions"]["harkonnen"]["spice"] == spice_before + 9


def test_a_control_character_in_the_reason_is_refused_at_the_field(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, BEFORE_THE_STORM[:2] + BLOW + BEFORE_THE_STORM[2:] + [STORM])
    seq = seq_of(table)
    answer = web(table_judge).post(url(table), {"action": "set_board_spice", "territory": "the_great_flat",
                                                "amount": "10", "reason": "storm\x07 moved 3",
                                                "expected_seq": str(seq)})
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "set_board_spice")
    error = re.search(r'id="err-set_board_spice-reason">(.*?)</p>', form, re.S)
    assert error and "U+0007" in error.group(1)
    assert 'value="storm moved 3"' in form  # what was typed, the invisible character taken out
    assert seq_of(table) == seq and board_spice(table) == {}
