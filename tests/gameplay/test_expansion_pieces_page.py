"""The expansion factions' pieces from the table page, in full tracking: the Ecaz Ambassadors
(LoLV 2.11.05, 2.11.07, 2.11.09), the Moritani Terror tokens (2.12.05, 2.12.07), the Richese
No-Field token (2.10.10, 2.10.13) and the Ixian Hidden Mobile Stronghold (2.07.04). A
faction's forms show only when it plays; each records once per tap, and a refusal stands next
to its field with its rule and what was typed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from gameplay import services
from gameplay.models import GameEvent
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.full_game import final_table, record
from tests.gameplay.table_page import form_of, position, seq_of, url, web
from web.gameplay import actions

pytestmark = pytest.mark.django_db

EXPANSIONS = ("atreides", "ecaz", "moritani", "richese", "ixians", "harkonnen")
#: The Moritani's six starting forces go into an unoccupied territory (LoLV 2.12.02).
PLACEMENTS = [{"faction": "moritani", "territory": "red_chasm", "sector": 6, "normal": 6}]
#: Turn 1 up to the shipment and movement phase (the storm in sector 10).
TO_SHIPMENT = [
    {"type": "phase_advanced", "phase": "storm"},
    {"type": "storm_placed", "sector": 10},
    {"type": "phase_advanced", "phase": "shipment_movement"},
]


def expansion_table(judge: Any) -> Any:
    """A LoLV final's table (full tracking, Advanced game) with four expansion factions."""
    tournament = make_tournament(format="lolv")
    tournament.table_judges.add(judge)
    table = seat_table(make_round(tournament, kind="final"), make_players(tournament, 6), factions=EXPANSIONS,
                       judge=judge)
    services.start_game(table, {**services.setup_event_for(table), "placements": PLACEMENTS}, user=judge)
    record(table, judge, TO_SHIPMENT)
    return table












def tap(client: Client, table: Any, action: str, key: str, **fields: str) -> dict[str, str]:
    """Post the form twice (the second a retry of the same tap) and return it."""
    form = {"action": action, "expected_seq": str(seq_of(table)), "idempotency_key": key, **fields}
    assert client.post(url(table), form).status_code == 302
    assert client.post(url(table), form).status_code == 302
    return form


def refusal(answer: Any, action: str) -> str:
    assert answer.status_code == 400
    return form_of(answer.content.decode(), action)


def test_2_11_05_and_2_11_09_the_judge_places_an_ambassador_and_the_storm_removes_it(table_judge: Any) -> None:
    table = expansion_table(table_judge)
    judge = web(table_judge)
    html = judge.get(url(table)).content.decode()
    assert "No Ambassador token lies on the board." in html and "Tuek&#x27;s Sietch" in form_of(html, "place_ambassador")
    seq = seq_of(table)
    tap(judge, table, "place_ambassador", "amb-1", territory="tueks_sietch", ambassador="atreides")
    assert position(table)["ambassadors"] == {"tueks_sietch": "atreides"}
    assert "Tuek&#x27;s Sietch: Atreides" in judge.get(url(table)).content.decode()
    tap(judge, table, "remove_ambassador", "amb-2", territory="tueks_sietch", triggered_by="")
    assert not position(table).get("ambassadors")
    assert GameEvent.objects.filter(game__table=table, seq__gt=seq).count() == 2


def test_2_11_05_an_ambassador_into_the_storm_is_refused_at_the_stronghold(table_judge: Any) -> None:
    table = expansion_table(table_judge)  # the storm stands in sector 10: Carthag's
    seq = seq_of(table)
    form = refusal(web(table_judge).post(url(table), {"action": "place_ambassador", "territory": "carthag",
                                                      "ambassador": "atreides", "expected_seq": str(seq)}),
                   "place_ambassador")
    assert "2.11.05" in form
    assert re.search(r'<option value="carthag" selected>', form) and re.search(r'<option value="atreides" selected>', form)
    assert seq_of(table) == seq


def test_2_11_07_only_a_faction_that_entered_triggers_an_ambassador(table_judge: Any) -> None:
    table = expansion_table(table_judge)
    judge = web(table_judge)
    tap(judge, table, "place_ambassador", "amb-1", territory="tueks_sietch", ambassador="atreides")
    seq = seq_of(table)
    form = refusal(judge.post(url(table), {"action": "remove_ambassador", "territory": "tueks_sietch",
                                           "triggered_by": "harkonnen", "expected_seq": str(seq)}), "remove_ambassador")
    assert "2.11.07" in form and "Harkonnen has no forces in Tuek&#x27;s Sietch" in form
    assert re.search(r'<option value="harkonnen" selected>', form)
    assert seq_of(table) == seq and position(table)["ambassadors"] == {"tueks_sietch": "atreides"}


def test_2_12_05_and_2_12_07_the_judge_places_and_reveals_a_terror_token(table_judge: Any) -> None:
    table = expansion_table(table_judge)
    judge = web(table_judge)
    seq = seq_of(table)
    form = refusal(judge.post(url(table), {"action": "place_terror", "territory": "habbanya_sietch",
                                           "expected_seq": str(seq)}), "place_terror")
    assert "2.12.05" in form and "Mentat Pause" in form and seq_of(table) == seq
    record(table, table_judge, [{"type": "phase_advanced", "phase": "mentat_pause"}])
    tap(judge, table, "place_terror", "terror-1", territory="habbanya_sietch")
    assert position(table)["terror"] == ["habbanya_sietch"]
    assert "Habbanya Sietch: a Terror token" in judge.get(url(table)).content.decode()
    seq = seq_of(table)
    form = refusal(judge.post(url(table), {"action": "reveal_terror", "territory": "habbanya_sietch", "effect": "robbery",
                                           "triggered_by": "atreides", "expected_seq": str(seq)}), "reveal_terror")
    assert "2.12.06" in form and seq_of(table) == seq
    tap(judge, table, "reveal_terror", "terror-2", territory="habbanya_sietch", effect="robbery")
    assert not position(table).get("terror")


def test_2_10_10_and_2_10_13_the_judge_ships_and_reveals_a_no_field_token(table_judge: Any) -> None:
    table = expansion_table(table_judge)
    judge = web(table_judge)
    tap(judge, table, "place_no_field", "nf-1", piece="the_great_flat@14")
    assert position(table)["no_field"] == ["the_great_flat", 14]
    assert "A No-Field token lies in The Great Flat (sector 14)." in judge.get(url(table)).content.decode()
    tap(judge, table, "reveal_no_field", "nf-2", normal="3")
    assert not position(table).get("no_field")
    assert any(r["faction"] == "richese" and r["territory"] == "the_great_flat" and r["normal"] == 3
               for r in position(table)["forces"])


def test_2_07_04_the_judge_deploys_the_hidden_mobile_stronghold(table_judge: Any) -> None:
    table = expansion_table(table_judge)
    judge = web(table_judge)
    assert "The Hidden Mobile Stronghold is not on the board yet." in judge.get(url(table)).content.decode()
    tap(judge, table, "move_hms", "hms-1", piece="the_great_flat@14")
    assert position(table)["hms"] == ["the_great_flat", 14]
    assert "stands over The Great Flat (sector 14)" in judge.get(url(table)).content.decode()


def test_the_expansion_forms_show_only_for_the_factions_that_play(table_judge: Any) -> None:
    html = web(table_judge).get(url(final_table(table_judge))).content.decode()
    for hook in ("ecaz-forms", "moritani-forms", "richese-forms", "ixians-forms"):
        assert f'id="{hook}"' not in html


@pytest.mark.parametrize(
    "action, form, field",
    [("place_ambassador", {"ambassador": "atreides"}, "territory"),
     ("place_ambassador", {"territory": "carthag", "ambassador": "nobody"}, "ambassador"),
     ("remove_ambassador", {"territory": "carthag", "triggered_by": "nobody"}, "triggered_by"),
     ("place_terror", {}, "territory"), ("reveal_terror", {"territory": "carthag", "effect": "fireworks"}, "effect"),
     ("place_no_field", {}, "piece"), ("reveal_no_field", {"normal": "x"}, "normal"), ("move_hms", {}, "piece")],
)
def test_bad_fields_of_the_expansion_forms_are_named(action: str, form: dict[str, str], field: str) -> None:
    with pytest.raises(actions.ActionError) as caught:
        actions.build(action, form)
    assert caught.value.field == field


def test_2_11_06_the_ambassador_form_charges_the_rising_price(table_judge: Any) -> None:
    """2.11.06: left empty, the cost is 1 for the turn's first Ambassador and 2 for the next,
    taken from the Ecaz's spice for the bank; the form shows the next price."""
    table = expansion_table(table_judge)
    judge = web(table_judge)
    assert "placeholder=\"1 · rules' price\"" in form_of(judge.get(url(table)).content.decode(), "place_ambassador")
    spice = position(table)["factions"]["ecaz"]["spice"]
    tap(judge, table, "place_ambassador", "amb-1", territory="tueks_sietch", ambassador="atreides")
    assert position(table)["factions"]["ecaz"]["spice"] == spice - 1
    assert "placeholder=\"2 · rules' price\"" in form_of(judge.get(url(table)).content.decode(), "place_ambassador")
    tap(judge, table, "place_ambassador", "amb-2", territory="sietch_tabr", ambassador="harkonnen")
    assert position(table)["factions"]["ecaz"]["spice"] == spice - 3
