"""Full tracking on a phone: a phase's own record and the move to the next phase in one request
(phases may be skipped, never gone back to: LoLV 1.00.00, AH V), the later phases one tap away,
and forms that start from the likely answer (the one faction in the tanks revives its free
forces, LoLV 1.05.01, AH IX.B; the faction that has just shipped moves next, AH IX.A; a
battle side's strongest leader)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gameplay.models import GameEvent
from tests.gameplay.full_game import BEFORE_THE_STORM, STORM, final_table, record
from tests.gameplay.table_page import form_of, seq_of, url, web
from tests.gameplay.test_battle_api import TO_BATTLE
from tests.gameplay.test_battle_page import FORM

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

#: The storm has taken the three Harkonnen forces in The Great Flat to the tanks (WBC VI.8).
TO_REVIVAL = [*BEFORE_THE_STORM, STORM, {"type": "phase_advanced", "phase": "revival"}]


def types_after(table: Any, seq: int) -> list[str]:
    return list(GameEvent.objects.filter(game__table=table, seq__gt=seq).order_by("seq").values_list("type", flat=True))


def test_rule_ah_v_a_revival_then_the_next_phase_is_two_records_in_one_request(make_user: Any) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_REVIVAL)
    client = web(judge)
    seq = seq_of(table)
    form = form_of(client.get(url(table)).content.decode(), "revive_forces")
    assert 'name="then" value="shipment_movement"' in form and "Revive, then Shipment and movement" in form
    body = {"action": "revive_forces", "faction": "harkonnen", "normal": "2", "then": "shipment_movement",
            "expected_seq": str(seq), "idempotency_key": "rv-1"}
    answer = client.post(url(table), body, **HTMX)
    assert answer.status_code == 200 and answer["X-Record"] == str(seq + 1)
    assert types_after(table, seq) == ["forces_revived", "phase_advanced"]
    assert "then Shipment and movement (record #" in answer.content.decode()
    again = client.post(url(table), body, **HTMX)  # the same key: recorded once
    assert again.status_code == 200 and types_after(table, seq) == ["forces_revived", "phase_advanced"]


def test_rule_ah_v_a_then_to_an_earlier_phase_records_neither(make_user: Any) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_REVIVAL)
    client = web(judge)
    seq = seq_of(table)
    answer = client.post(url(table), {"action": "revive_forces", "faction": "harkonnen", "normal": "2",
                                      "then": "storm", "expected_seq": str(seq), "idempotency_key": "rv-2"}, **HTMX)
    assert answer.status_code == 400 and 'id="refusal"' in answer.content.decode()
    assert types_after(table, seq) == []


def test_the_next_step_offers_the_later_phases_in_one_tap_and_starts_the_revival_from_the_tanks(
    make_user: Any,
) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_REVIVAL)
    html = web(judge).get(url(table)).content.decode()
    later = form_of(html, "later-advance_phase")
    assert re.findall(r'name="phase" value="(\w+)"', later) == ["battle", "spice_collection", "mentat_pause"]
    revive = form_of(html, "revive_forces")
    assert '<option value="harkonnen" selected>' in revive  # the only faction with forces in the tanks
    assert 'id="rv-normal" name="normal" type="number" min="0" inputmode="numeric" value="2"' in revive  # free


def test_rule_ah_ix_a_after_a_shipment_the_move_form_comes_first_with_that_faction(make_user: Any) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, [*BEFORE_THE_STORM, STORM, {"type": "phase_advanced", "phase": "shipment_movement"},
                          {"type": "forces_placed", "faction": "fremen", "territory": "the_great_flat",
                           "sector": 14, "normal": 2}])
    html = web(judge).get(url(table)).content.decode()
    assert html.index('data-action="move_forces"') < html.index('data-action="place_forces"')
    assert '<option value="fremen" selected>' in form_of(html, "move_forces")
    # The Fremen were the last in storm order: no faction is left whose turn has not begun.
    assert "selected" not in form_of(html, "place_forces").split('id="pf-piece"')[0].split("<select")[1]


def test_rule_1_06_01_the_shipment_form_starts_from_the_first_faction_in_storm_order(make_user: Any) -> None:
    from dune.engine.storm import played_order
    from gameplay.models import Game
    from gameplay.services import position_of

    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, [*BEFORE_THE_STORM, STORM, {"type": "phase_advanced", "phase": "shipment_movement"}])
    order = played_order(position_of(Game.objects.get(table=table)))
    html = web(judge).get(url(table)).content.decode()
    shipper = form_of(html, "place_forces").split('id="pf-piece"')[0].split("<select")[1]
    assert re.findall(r'<option value="(\w+)" selected>', shipper) == [order[0]]
    # The first ships; the form then starts from the second (the first moves next).
    record(table, judge, [{"type": "forces_placed", "faction": order[0], "territory": "habbanya_sietch",
                           "sector": 16, "normal": 1}])
    html = web(judge).get(url(table)).content.decode()
    shipper = form_of(html, "place_forces").split('id="pf-piece"')[0].split("<select")[1]
    assert re.findall(r'<option value="(\w+)" selected>', shipper) == [order[1]]
    assert f'<option value="{order[0]}" selected>' in form_of(html, "move_forces")


def test_a_battle_is_recorded_at_once_its_sides_leaders_start_from_the_strongest(make_user: Any) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_BATTLE)
    client = web(judge)
    form = form_of(client.get(url(table)).content.decode(), "battle")
    assert 'value="harkonnen|feyd_rautha" selected' in form and 'value="atreides|thufir_hawat" selected' in form
    # No spice lies on the board: nothing to collect, the battle's "then" goes to the Mentat Pause.
    assert 'name="then" value="mentat_pause"' in form
    seq = seq_of(table)
    answer = client.post(url(table), {**FORM, "then": "mentat_pause", "expected_seq": str(seq),
                                      "idempotency_key": "bt-1"}, **HTMX)
    assert answer.status_code == 200
    assert types_after(table, seq) == ["battle", "phase_advanced"]
    assert 'data-phase="mentat_pause"' in answer.content.decode()


def test_an_in_place_answer_does_not_set_the_csrf_cookie_the_phone_has(make_user: Any) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    client = web(judge)
    client.get(url(table))  # the page sets the cookie
    assert "csrftoken" in client.cookies
    seq = seq_of(table)
    answer = client.post(url(table), {"action": "advance_phase", "phase": "storm", "expected_seq": str(seq),
                                      "idempotency_key": "ph-1"}, **HTMX)
    assert answer.status_code == 200 and "csrftoken" not in answer.cookies
