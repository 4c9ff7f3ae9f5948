"""The table page records a battle in full tracking as the engine's `battle` event (LoLV
1.07.06, AH X.C-D, WBC X): the battle phase's next step lists the battles the engine sees, one
form each with both plans; the engine's resolution is shown first (nothing recorded), then
the battle is recorded in one request with every loss the engine derives."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import Game, GameEvent
from tests.gameplay.full_game import final_table, record
from tests.gameplay.table_page import form_of, seq_of, url, web
from tests.gameplay.test_battle_api import TO_BATTLE

pytestmark = pytest.mark.django_db

#: The Atreides call Feyd-Rautha a traitor (AH X.D.2: the caller wins and loses nothing).
FORM = {"action": "battle", "territory": "arrakeen",
        "a_faction": "harkonnen", "a_leader": "harkonnen|feyd_rautha", "a_dial": "2", "a_spice": "2",
        "d_faction": "atreides", "d_leader": "atreides|duncan_idaho", "d_dial": "1", "d_spice": "1",
        "d_traitor": "1"}


def battle_table(judge: Any) -> Any:
    table = final_table(judge)
    record(table, judge, TO_BATTLE)
    return table


def test_x_d_2_the_battle_form_shows_the_resolution_then_records_it_in_one_request(make_user: Any) -> None:
    judge = make_user("judge1")
    table = battle_table(judge)
    client = web(judge)
    html = client.get(url(table)).content.decode()
    form = form_of(html, "battle")
    assert "Arrakeen: Harkonnen (3) against Atreides (10)" in form
    assert 'value="harkonnen|feyd_rautha"' in form and 'name="preview"' in form
    seq = seq_of(table)
    shown = client.post(url(table), {**FORM, "preview": "1", "expected_seq": str(seq), "idempotency_key": "b-1"})
    assert shown.status_code == 200
    page = shown.content.decode()
    assert "Atreides win (traitor called); Harkonnen lose" in page
    assert "Harkonnen lose 3 forces in Arrakeen" in page and "AH X.D.2" in page
    assert seq_of(table) == seq  # nothing recorded yet
    confirm = form_of(page, "battle")
    assert 'name="preview"' not in confirm and "Record the battle" in confirm
    assert 'value="atreides|duncan_idaho" selected' in confirm  # what the judge chose stays
    answer = client.post(url(table), {**FORM, "expected_seq": str(seq), "idempotency_key": "b-1"})
    assert answer.status_code == 302
    events = list(GameEvent.objects.filter(game__table=table, seq__gt=seq))
    assert [e.type for e in events] == ["battle"]
    forces = {(f["faction"], f["territory"]) for f in Game.objects.get(table=table).position["forces"]}
    assert ("harkonnen", "arrakeen") not in forces
    assert 'data-action="battle"' not in client.get(url(table)).content.decode()  # fought


def test_x_13_a_dial_beyond_the_forces_is_reduced_with_its_rule_and_nothing_recorded(make_user: Any) -> None:
    """WBC X.13: the dial is reduced to the most the forces and spice support; the preview says
    so with its rule and records nothing."""
    judge = make_user("judge1")
    table = battle_table(judge)
    client = web(judge)
    seq = seq_of(table)
    wrong = {**FORM, "d_dial": "11", "d_spice": "10", "preview": "1", "expected_seq": str(seq)}
    answer = client.post(url(table), wrong)
    assert answer.status_code == 200
    assert "WBC X.13" in answer.content.decode()
    assert seq_of(table) == seq


def test_a_spice_payment_beyond_the_forces_is_refused_with_its_rule_and_nothing_recorded(make_user: Any) -> None:
    judge = make_user("judge1")
    table = battle_table(judge)
    client = web(judge)
    seq = seq_of(table)
    wrong = {**FORM, "d_dial": "1", "d_spice": "40", "preview": "1", "expected_seq": str(seq)}
    answer = client.post(url(table), wrong)
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "battle")
    assert "WBC Rule Set (AH Advanced rules)" in form and 'value="40"' in form
    assert seq_of(table) == seq
