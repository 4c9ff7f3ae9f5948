"""Forces from the table page beyond placing, moving and removing: the revival (LoLV 1.05.01,
AH IX.B) with the Emperor's Karama revival (1.14.02), the Bene Gesserit flip between advisors
and fighters (2.02.10) and Family Atomics (LoLV 3.01.07, WBC VI.6). Each form records once,
and a refusal stands next to its field with what was typed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from dune.engine.editions import LIMITED
from gameplay.models import Game, GameEvent
from tests.gameplay.full_game import BEFORE_THE_STORM, final_table, record, storm_took_forces
from tests.gameplay.table_page import form_of, seq_of, url, web
from web.gameplay import actions

pytestmark = pytest.mark.django_db








def faction(table: Any, name: str) -> dict[str, Any]:
    return dict(Game.objects.get(table=table).position["factions"][name])




def post(client: Client, table: Any, action: str, key: str | None = None, **fields: str) -> Any:
    form = {"action": action, "expected_seq": str(seq_of(table)), **fields}
    if key:
        form["idempotency_key"] = key
    return client.post(url(table), form)


def test_1_05_01_the_judge_revives_forces_from_the_page_once(table_judge: Any) -> None:
    table = storm_took_forces(table_judge)  # three Harkonnen forces went to the tanks
    record(table, table_judge, [{"type": "phase_advanced", "phase": "revival"}])
    judge = web(table_judge)
    html = judge.get(url(table)).content.decode()
    assert "Revive (tanks to reserves)" in form_of(html, "revive_forces")
    before, seq = faction(table, "harkonnen"), seq_of(table)
    tap = {"action": "revive_forces", "faction": "harkonnen", "normal": "2", "expected_seq": str(seq),
           "idempotency_key": "revive-1"}
    assert judge.post(url(table), tap).status_code == 302
    assert judge.post(url(table), tap).status_code == 302  # a retry of the same tap: its first answer
    after = faction(table, "harkonnen")
    assert (after["tanks"], after["reserves"]) == (before["tanks"] - 2, before["reserves"] + 2)
    assert GameEvent.objects.filter(game__table=table, seq__gt=seq).count() == 1


def test_1_05_01_reviving_more_than_the_tanks_hold_is_refused_next_to_the_form(table_judge: Any) -> None:
    table = storm_took_forces(table_judge)
    record(table, table_judge, [{"type": "phase_advanced", "phase": "revival"}])
    seq = seq_of(table)
    answer = post(web(table_judge), table, "revive_forces", faction="atreides", normal="2")
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "revive_forces")
    assert "Atreides has only 0 normal and 0 special forces in the tanks" in form
    assert 'value="2"' in form and re.search(r'<option value="atreides" selected>', form)
    assert seq_of(table) == seq


def bg_in_polar_sink(table: Any) -> dict[str, Any]:
    rows = Game.objects.get(table=table).position["forces"]
    return next(r for r in rows if r["faction"] == "bene_gesserit" and r["territory"] == "polar_sink")


def test_wbc_xv_5_no_flip_form_under_the_wbc_from_the_sixth_edition(table_judge: Any) -> None:
    """WBC XV.5, AH XV.A: the tokens have no advisor side; the page offers no flip, and a
    crafted one is refused next to its form, citing the table's own rule."""
    table = final_table(table_judge)
    record(table, table_judge, BEFORE_THE_STORM[:3])
    judge = web(table_judge)
    assert 'data-action="flip_forces"' not in judge.get(url(table)).content.decode()
    seq = seq_of(table)
    answer = post(judge, table, "flip_forces", piece="polar_sink", side="advisors", count="1")
    assert answer.status_code == 400
    assert "WBC XV.5" in answer.content.decode()
    assert seq_of(table) == seq and bg_in_polar_sink(table)["normal"] == 1


def test_2_02_10_the_judge_flips_a_bene_gesserit_fighter_to_an_advisor(table_judge: Any) -> None:
    """A game of the fifth edition keeps its flips (its WBC tokens could show advisors)."""
    table = final_table(table_judge, edition=LIMITED)  # one BG fighter starts in the Polar Sink (AH III.E)
    record(table, table_judge, BEFORE_THE_STORM[:3])
    judge = web(table_judge)
    html = judge.get(url(table)).content.decode()
    assert "Flip advisors and fighters" in form_of(html, "flip_forces")
    answer = post(judge, table, "flip_forces", "flip-1", piece="polar_sink", side="advisors", count="1")
    assert answer.status_code == 302
    row = bg_in_polar_sink(table)
    assert (row["normal"], row["advisors"]) == (0, 1)


def test_ah_xv_a_flipping_advisors_that_are_not_there_is_refused_with_the_rule(table_judge: Any) -> None:
    table = final_table(table_judge, edition=LIMITED)
    record(table, table_judge, BEFORE_THE_STORM[:3])
    seq = seq_of(table)
    answer = post(web(table_judge), table, "flip_forces", piece="polar_sink", side="fighters", count="1")
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "flip_forces")
    assert "AH XV.A" in form and "only 0 advisors there to flip" in form
    assert re.search(r'<option value="fighters" selected>', form) and 'value="1"' in form
    assert seq_of(table) == seq and bg_in_polar_sink(table)["normal"] == 1


def test_2_02_10_a_flip_with_no_side_is_refused_at_the_side(table_judge: Any) -> None:
    table = final_table(table_judge, edition=LIMITED)
    record(table, table_judge, BEFORE_THE_STORM[:3])
    seq = seq_of(table)
    answer = post(web(table_judge), table, "flip_forces", piece="polar_sink", side="", count="1")
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "flip_forces")
    error = re.search(r'id="err-flip_forces-side">(.*?)</p>', form)
    assert error and "advisors or fighters" in error.group(1)
    assert re.search(r'<option value="polar_sink" selected>', form)
    assert seq_of(table) == seq


def test_wbc_vi_2_family_atomics_in_the_first_turn_is_refused_with_its_rule(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, BEFORE_THE_STORM[:2])  # turn 1's storm phase: the card's phase
    judge = web(table_judge)
    assert "Play Family Atomics" in form_of(judge.get(url(table)).content.decode(), "play_family_atomics")
    seq = seq_of(table)
    answer = post(judge, table, "play_family_atomics", faction="fremen")
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "play_family_atomics")
    assert "WBC VI.2" in form and "may not be played in the first turn" in form
    assert re.search(r'<option value="fremen" selected>', form)
    assert seq_of(table) == seq


def test_wbc_vi_5_family_atomics_needs_forces_at_the_shield_wall(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, BEFORE_THE_STORM)  # turn 2's storm phase; the Fremen are in Sietch Tabr
    seq = seq_of(table)
    answer = post(web(table_judge), table, "play_family_atomics", faction="fremen")
    assert answer.status_code == 400
    assert "WBC VI.5" in form_of(answer.content.decode(), "play_family_atomics")
    assert seq_of(table) == seq


def test_wbc_vi_6_family_atomics_from_the_page_sends_the_shield_walls_forces_to_the_tanks(table_judge: Any) -> None:
    table = final_table(table_judge)
    onto_the_wall = {"type": "forces_placed", "faction": "harkonnen", "territory": "shield_wall", "sector": 8, "normal": 4}
    record(table, table_judge, BEFORE_THE_STORM[:3] + [onto_the_wall] + BEFORE_THE_STORM[4:])
    before, seq = faction(table, "harkonnen"), seq_of(table)
    tap = {"action": "play_family_atomics", "faction": "harkonnen", "expected_seq": str(seq), "idempotency_key": "atomics"}
    judge = web(table_judge)
    assert judge.post(url(table), tap).status_code == 302
    assert judge.post(url(table), tap).status_code == 302  # a retry of the same tap: its first answer
    rows = Game.objects.get(table=table).position["forces"]
    assert not any(r["territory"] == "shield_wall" for r in rows)
    assert faction(table, "harkonnen")["tanks"] == before["tanks"] + 4
    assert GameEvent.objects.filter(game__table=table, seq__gt=seq).count() == 1


@pytest.mark.parametrize(
    "action, form, field",
    [("revive_forces", {"faction": "emperor", "normal": "x"}, "normal"),
     ("revive_forces", {"faction": "emperor", "normal": "-1"}, "normal"),
     ("revive_forces", {"normal": "1"}, "faction"), ("flip_forces", {"side": "fighters", "count": "1"}, "piece"),
     ("flip_forces", {"piece": "arrakeen@9", "side": "sideways", "count": "1"}, "side"),
     ("flip_forces", {"piece": "arrakeen@9", "side": "advisors", "count": "0"}, "count"),
     ("play_family_atomics", {}, "faction"),
     ("bribe", {"from_faction": "harkonnen", "faction": "atreides", "amount": "0"}, "amount"),
     ("bribe", {"faction": "atreides", "amount": "2"}, "from_faction")],
)
def test_bad_fields_of_the_forces_forms_are_named(action: str, form: dict[str, str], field: str) -> None:
    with pytest.raises(actions.ActionError) as caught:
        actions.build(action, form)
    assert caught.value.field == field


def emperor_forces_in_the_tanks(judge: Any) -> Any:
    """A final's table at turn 2's revival phase with three Emperor forces in the tanks."""
    table = final_table(judge)
    shipped = {"type": "forces_placed", "faction": "emperor", "territory": "the_great_flat", "sector": 14, "normal": 3}
    lost = {"type": "forces_removed", "faction": "emperor", "territory": "the_great_flat", "sector": 14, "normal": 3,
            "to": "tanks"}
    record(table, judge, BEFORE_THE_STORM[:3] + [shipped, lost] + BEFORE_THE_STORM[4:]
           + [{"type": "phase_advanced", "phase": "revival"}])
    return table


def test_wbc_xvii_9_the_emperors_karama_revival_is_recorded_with_its_card(table_judge: Any) -> None:
    table = emperor_forces_in_the_tanks(table_judge)
    judge = web(table_judge)
    assert "Emperor's free revival with a Karama card" in form_of(judge.get(url(table)).content.decode(), "revive_forces")
    tap = {"action": "revive_forces", "faction": "emperor", "normal": "3", "karama": "1",
           "expected_seq": str(seq_of(table)), "idempotency_key": "karama-revival"}
    assert judge.post(url(table), tap).status_code == 302
    event = GameEvent.objects.filter(game__table=table).order_by("-seq").first()
    assert event is not None and event.type == "forces_revived" and event.body["karama"] is True
    assert faction(table, "emperor")["tanks"] == 0


def test_wbc_xvii_9_a_karama_revival_for_another_faction_is_refused_with_the_rule(table_judge: Any) -> None:
    table = storm_took_forces(table_judge)
    record(table, table_judge, [{"type": "phase_advanced", "phase": "revival"}])
    seq = seq_of(table)
    answer = post(web(table_judge), table, "revive_forces", faction="harkonnen", normal="2", karama="1")
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "revive_forces")
    assert "WBC XVII.9" in form and 'name="karama" value="1" checked' in form
    assert seq_of(table) == seq


def test_wbc_xiii_1_a_bribe_in_the_collection_round_goes_in_front_of_the_receivers_shield(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, BEFORE_THE_STORM[:2] + [{"type": "phase_advanced", "phase": "spice_collection"}])
    judge = web(table_judge)
    assert "Bribe (spice in front of the receiver" in form_of(judge.get(url(table)).content.decode(), "bribe")
    payer = faction(table, "harkonnen")["spice"]
    tap = {"action": "bribe", "from_faction": "harkonnen", "faction": "atreides", "amount": "2",
           "expected_seq": str(seq_of(table)), "idempotency_key": "bribe-1"}
    assert judge.post(url(table), tap).status_code == 302
    assert judge.post(url(table), tap).status_code == 302  # a retry of the same tap: its first answer
    assert faction(table, "harkonnen")["spice"] == payer - 2
    assert faction(table, "atreides")["spice_front"] == 2


def test_wbc_xiii_1_a_bribe_outside_the_collection_round_is_refused_with_the_rule(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, BEFORE_THE_STORM[:3])  # the shipment and movement phase
    seq = seq_of(table)
    answer = post(web(table_judge), table, "bribe", from_faction="harkonnen", faction="atreides", amount="2")
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "bribe")
    assert "WBC XIII.1" in form and "not in the shipment and movement phase" in form and 'value="2"' in form
    assert seq_of(table) == seq


@pytest.mark.parametrize(
    "fields, words",
    [({"faction": "harkonnen", "normal": "", "special": ""}, "no forces given"),
     ({"from_faction": "harkonnen", "faction": "harkonnen", "amount": "2"}, "from one faction to another")],
    ids=["revive_nothing", "bribe_oneself"],
)
def test_what_the_engine_refuses_is_refused_beside_the_form_with_its_rule(
    table_judge: Any, fields: dict[str, str], words: str
) -> None:
    """The forms only read what was typed; an empty revival (LoLV 1.05.01) or a bribe to the
    payer itself (1.12.02) is the engine's to refuse, and its rule stands beside the form."""
    table = storm_took_forces(table_judge)
    record(table, table_judge, [{"type": "phase_advanced", "phase": "revival"}])
    action = "revive_forces" if "normal" in fields else "bribe"
    seq = seq_of(table)
    answer = post(web(table_judge), table, action, **fields)
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), action)
    assert words in form and re.search(r"rule [A-Z0-9.]", form)
    assert seq_of(table) == seq


def _reserve_cells(html: str) -> dict[str, int]:
    """The Factions table's Reserve column, by faction (the fifth number of each row)."""
    cells: dict[str, int] = {}
    for faction, row in re.findall(r'<tr class="f-([a-z_]+)[^"]*">(.*?)</tr>', html, re.S):
        numbers = re.findall(r'<td class="num">([^<]*)</td>', row)
        cells[faction] = int(numbers[4])
    return cells


def test_ah_iii_e_the_reserve_column_counts_special_forces_once(table_judge: Any) -> None:
    """Each faction owns 20 forces (AH II.B): the Emperor's five Sardaukar and the Fremen's
    three Fedaykin are part of the reserve the snapshot counts, not added to it again."""
    table = final_table(table_judge)
    cells = _reserve_cells(web(table_judge).get(url(table)).content.decode())
    assert cells["emperor"] == 20 and cells["guild"] == 15  # five start in Tuek's Sietch
    assert cells["fremen"] == 10  # ten placed on the board at the start (AH III.E)
    assert cells["bene_gesserit"] == 19
    assert cells["emperor"] == faction(table, "emperor")["reserves"]
