"""A shipment with its payment and a revival with its cost, each one form and one request: the
cost left empty is the rules' price (LoLV 1.06.02.01, AH IX.C.1.b: 1 spice a force into a
stronghold, paid to the Guild; AH IX.B.1: 2 a force beyond the free revival, paid to the bank),
a typed cost is checked against it and against the spice the faction holds."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import GameEvent
from gameplay.services import read_game
from tests.gameplay.full_game import BEFORE_THE_STORM, STORM, final_table, record
from tests.gameplay.table_page import form_of, seq_of, url, web

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TO_SHIPMENT = [*BEFORE_THE_STORM, STORM, {"type": "phase_advanced", "phase": "shipment_movement"}]
TO_REVIVAL = [*BEFORE_THE_STORM, STORM, {"type": "phase_advanced", "phase": "revival"}]


def _spice(table: Any) -> dict[str, int]:
    factions = read_game(table).position["factions"]
    return {f: sheet["spice"] for f, sheet in factions.items()}


def _last_body(table: Any) -> dict[str, Any]:
    return GameEvent.objects.filter(game__table=table).order_by("-seq").values_list("body", flat=True)[0]


def _ship(client: Any, table: Any, key: str, seq: int | None = None, **extra: str) -> Any:
    seq = seq_of(table) if seq is None else seq
    body = {"action": "place_forces", "faction": "harkonnen", "piece": "carthag@10", "normal": "2",
            "source": "reserves", "expected_seq": str(seq), "idempotency_key": key, **extra}
    return client.post(url(table), body, **HTMX)


def test_1_06_02_01_a_shipment_form_pays_the_rules_price_in_the_same_request(make_user: Any) -> None:
    """AH IX.C.1.b: two forces into Carthag cost 2 spice, paid to the Guild."""
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_SHIPMENT)
    client = web(judge)
    form = form_of(client.get(url(table)).content.decode(), "place_forces")
    assert 'id="pf-cost" name="cost"' in form and "rules' price" in form
    before, seq = _spice(table), seq_of(table)
    answer = _ship(client, table, "sh-1")
    assert answer.status_code == 200 and answer["X-Record"] == str(seq + 1)
    assert _last_body(table)["cost"] == 2
    after = _spice(table)
    assert after["harkonnen"] == before["harkonnen"] - 2 and after["guild"] == before["guild"] + 2
    assert _ship(client, table, "sh-1", seq).status_code == 200 and _spice(table) == after  # recorded once


def test_1_06_02_01_a_typed_cost_other_than_the_price_is_refused_naming_the_field(make_user: Any) -> None:
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_SHIPMENT)
    client = web(judge)
    seq = seq_of(table)
    answer = _ship(client, table, "sh-2", cost="5")
    text = answer.content.decode()
    assert answer.status_code == 400 and "costs 2 spice, not 5" in text and "AH IX.C.1.b" in text
    assert seq_of(table) == seq
    too_much = _ship(client, table, "sh-3", normal="5", cost="99")
    assert too_much.status_code == 400 and "cannot pay 99" in too_much.content.decode()
    assert seq_of(table) == seq


def test_ah_ix_b_1_the_revival_form_starts_from_its_cost_and_pays_it(make_user: Any) -> None:
    """The Harkonnen revive 2 for free (their sheet), so the form shows 0; a third costs 2."""
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, TO_REVIVAL)
    client = web(judge)
    form = form_of(client.get(url(table)).content.decode(), "revive_forces")
    # The engine's price shows in the empty field, which sends it; typing another cost overrides.
    assert 'id="rv-cost" name="cost"' in form and "placeholder=\"0 · rules' price\" value=\"\"" in form
    before, seq = _spice(table), seq_of(table)
    answer = client.post(url(table), {"action": "revive_forces", "faction": "harkonnen", "normal": "3",
                                      "expected_seq": str(seq), "idempotency_key": "rv-1"}, **HTMX)
    assert answer.status_code == 200
    assert _last_body(table)["cost"] == 2
    assert _spice(table) == {**before, "harkonnen": before["harkonnen"] - 2}


def test_ah_ix_b_1_an_allys_revival_without_a_cost_pays_its_sheets_price(make_user: Any) -> None:
    """An alliance changes who may help pay (AH Emperor: Alliance), not the price: the Harkonnen,
    allied with the Atreides, revive 3 with 2 free (their sheet), so the empty cost charges 2."""
    judge = make_user("judge1")
    table = final_table(judge)
    record(table, judge, [*BEFORE_THE_STORM, STORM, {"type": "phase_advanced", "phase": "spice_blow"},
                          {"type": "worm", "territory": None, "karama": False},
                          {"type": "alliance_formed", "factions": ["atreides", "harkonnen"]},
                          {"type": "phase_advanced", "phase": "revival"}])
    client = web(judge)
    before, seq = _spice(table), seq_of(table)
    answer = client.post(url(table), {"action": "revive_forces", "faction": "harkonnen", "normal": "3",
                                      "expected_seq": str(seq), "idempotency_key": "rv-ally"}, **HTMX)
    assert answer.status_code == 200
    assert _last_body(table)["cost"] == 2
    assert _spice(table) == {**before, "harkonnen": before["harkonnen"] - 2}
