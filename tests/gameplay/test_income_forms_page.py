"""The bidding round, CHOAM Charity and the collection round from the table page: each card
sold in one tap with its price (AH VIII.B.3: paid to the Emperor), a card nobody bids on ends
the round (AH VIII.E), and the charity (AH VIII.I) and the collection with the strongholds'
income (AH XI.A, XI.C) shown as the engine derives them and recorded in one tap each."""

from __future__ import annotations

from typing import Any

import pytest

from tests.gameplay.full_game import final_table, record
from tests.gameplay.table_page import form_of, position, seq_of, url, web

pytestmark = pytest.mark.django_db

TO_BIDDING = [
    {"type": "phase_advanced", "phase": "storm"},
    {"type": "storm_placed", "sector": 10},
    {"type": "phase_advanced", "phase": "bidding"},
]


def _spice(table: Any) -> dict[str, int]:
    return {f: s["spice"] for f, s in position(table)["factions"].items()}


def _tap(client: Any, table: Any, action: str, key: str, **fields: Any) -> Any:
    form = {"action": action, "expected_seq": str(seq_of(table)), "idempotency_key": key, **fields}
    answer = client.post(url(table), form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert client.post(url(table), form).status_code == 302  # a retry of the same tap records nothing more
    return answer


def test_ah_viii_b_3_each_card_in_one_tap_paid_to_the_emperor(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, TO_BIDDING)
    judge = web(table_judge)
    form = form_of(judge.get(url(table)).content.decode(), "buy_card")
    assert "Card 1 of 6 up for bid" in form and "Atreides (10 spice, 1 cards)" in form
    before, seq = _spice(table), seq_of(table)
    _tap(judge, table, "buy_card", "bid-1", faction="atreides", price="3")
    assert _spice(table) == {**before, "atreides": before["atreides"] - 3, "emperor": before["emperor"] + 3}
    assert position(table)["factions"]["atreides"]["cards"] == 2 and seq_of(table) == seq + 1
    _tap(judge, table, "buy_card", "bid-2", faction="harkonnen", price="1")
    assert position(table)["factions"]["harkonnen"]["cards"] == 4  # two at the start, and the extra card
    third = form_of(judge.get(url(table)).content.decode(), "buy_card")
    assert "Card 3 of 6 up for bid" in third
    # AH VIII.D: each card opened by the next able to bid to the right of the last opener.
    from dune.engine.names import faction_name
    from gameplay.services import read_game

    order = read_game(table).evaluation["storm_order"]
    assert f"{faction_name(order[2])} opens the bidding (AH VIII.D)" in third
    _tap(judge, table, "buy_card", "bid-3", nobody="1")
    assert "Bidding is over" in form_of(judge.get(url(table)).content.decode(), "buy_card")


def test_ah_viii_c_a_bid_beyond_the_spice_is_refused_next_to_the_field(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, TO_BIDDING)
    seq = seq_of(table)
    answer = web(table_judge).post(url(table), {"action": "buy_card", "faction": "fremen", "price": "9",
                                                 "expected_seq": str(seq)})
    assert answer.status_code == 400
    form = form_of(answer.content.decode(), "buy_card")
    assert "Fremen has only 3 spice" in form and "AH VIII.C" in form and 'value="9"' in form
    assert seq_of(table) == seq


def test_ah_viii_i_charity_in_one_tap(table_judge: Any) -> None:
    table = final_table(table_judge)
    record(table, table_judge, [*TO_BIDDING[:2], {"type": "spice_set", "faction": "fremen", "amount": 0},
                                TO_BIDDING[2]])
    judge = web(table_judge)
    form = form_of(judge.get(url(table)).content.decode(), "collect_charity")
    assert "Fremen +2 spice" in form
    _tap(judge, table, "collect_charity", "ch-1", amount=["fremen:2"])
    assert _spice(table)["fremen"] == 2


def test_ah_xi_c_the_collection_round_in_one_tap(table_judge: Any) -> None:
    """Three Harkonnen forces on the Great Flat collect 9 of its 10, at 3 a force since they
    occupy Carthag (AH XI.A); the Atreides in
    Arrakeen and the Harkonnen in Carthag receive 2 each, the Guild in Tuek's Sietch 1 (AH XI.C)."""
    table = final_table(table_judge)
    record(table, table_judge, [
        {"type": "phase_advanced", "phase": "storm"}, {"type": "storm_placed", "sector": 10},
        {"type": "phase_advanced", "phase": "spice_blow"}, {"type": "spice_blow", "territory": "the_great_flat"},
        {"type": "phase_advanced", "phase": "shipment_movement"},
        {"type": "forces_placed", "faction": "harkonnen", "territory": "the_great_flat", "sector": 14, "normal": 3},
        {"type": "phase_advanced", "phase": "spice_collection"},
    ])
    judge = web(table_judge)
    form = form_of(judge.get(url(table)).content.decode(), "harvest_spice")
    assert "Harkonnen collects 9 from The Great Flat" in form and "Guild: +1 from the strongholds" in form
    before = _spice(table)
    _tap(judge, table, "harvest_spice", "hv-1", collection=["harkonnen|the_great_flat|9"],
         income=["atreides:2", "guild:1", "harkonnen:2"])
    assert _spice(table) == {**before, "harkonnen": before["harkonnen"] + 11, "atreides": before["atreides"] + 2,
                             "guild": before["guild"] + 1}
    assert position(table)["spice_on_board"] == {"the_great_flat": 1}


def test_ah_vii_a_1_the_spice_blow_card_from_the_next_steps_box(table_judge: Any) -> None:
    """The spice blow phase's own record stands beside the worm in the next step's box."""
    table = final_table(table_judge)
    record(table, table_judge, [*TO_BIDDING[:2], {"type": "phase_advanced", "phase": "spice_blow"}])
    judge = web(table_judge)
    html = judge.get(url(table)).content.decode()
    box = html[html.index('id="next"'):html.index("</section>", html.index('id="next"'))]
    assert "id=\"spice-blow-form\"" in box and "The Great Flat (10 spice)" in box
    _tap(judge, table, "spice_blow", "sb-1", territory="the_great_flat")
    assert position(table)["spice_on_board"] == {"the_great_flat": 10}


def test_ah_viii_i_charity_out_of_its_step_waits_in_the_spice_fold(table_judge: Any) -> None:
    """In the bidding phase the charity stands in the next step's box; in the revival phase it
    waits in the "Spice, cards, leaders" fold, after the revival's own form."""
    table = final_table(table_judge)
    record(table, table_judge, TO_BIDDING)
    judge = web(table_judge)
    page = judge.get(url(table)).content.decode()
    assert page.index('id="next"') < page.index('id="charity-form"') < page.index('id="full"')
    record(table, table_judge, [{"type": "phase_advanced", "phase": "revival"}])
    page = judge.get(url(table)).content.decode()
    assert page.index('data-action="revive_forces"') < page.index('id="spice-cards-leaders"') \
        < page.index('id="charity-form"')


CHOAM_SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "choam")


def _choam_table(judge: Any) -> Any:
    """A LoLV final's table (full tracking) with the CHOAM, at turn 1's CHOAM Charity."""
    from gameplay import services
    from tests.factories import make_players, make_round, make_tournament, seat_table

    tournament = make_tournament(format="lolv")
    tournament.table_judges.add(judge)
    table = seat_table(make_round(tournament, kind="final"), make_players(tournament, 6), factions=CHOAM_SIX,
                       judge=judge)
    placements = [{"faction": "fremen", "territory": "sietch_tabr", "sector": 13, "normal": 10},
                  {"faction": "bene_gesserit", "territory": "polar_sink", "sector": None, "normal": 1}]
    services.start_game(table, {**services.setup_event_for(table), "placements": placements}, user=judge)
    record(table, judge, [{"type": "phase_advanced", "phase": "storm"}, {"type": "storm_placed", "sector": 10},
                          {"type": "phase_advanced", "phase": "choam_charity"}])
    return table


def test_2_09_04_with_the_choam_the_charity_is_derived_and_collected_in_one_tap(table_judge: Any) -> None:
    """2.09.04: the CHOAM's income of 2 a faction and the others' charity paid from it, shown as
    the engine derives them and recorded in one tap; no Set spice."""
    table = _choam_table(table_judge)
    judge = web(table_judge)
    form = form_of(judge.get(url(table)).content.decode(), "collect_charity")
    assert "CHOAM +12 spice from the bank, then pays the others" in form
    assert "Set spice" not in form
    before = _spice(table)
    _tap(judge, table, "collect_charity", "charity-1",
         amount=[line.split('value="')[1].split('"')[0] for line in form.split('name="amount"')[1:]])
    after = _spice(table)
    paid = sum(after[f] - before[f] for f in after if f != "choam")
    assert after["choam"] == before["choam"] + 12 - paid and after["bene_gesserit"] == before["bene_gesserit"] + 2


def test_2_09_09_the_inflation_token_from_the_mentat_pause_doubles_the_next_charity(table_judge: Any) -> None:
    table = _choam_table(table_judge)
    record(table, table_judge, [{"type": "phase_advanced", "phase": "mentat_pause"}])
    judge = web(table_judge)
    assert "Place the Inflation token" in judge.get(url(table)).content.decode()
    _tap(judge, table, "place_inflation", "inflation-1", face="double")
    record(table, table_judge, [{"type": "turn_advanced"}, {"type": "storm_moved", "sectors": 1},
                                {"type": "phase_advanced", "phase": "choam_charity"}])
    form = form_of(judge.get(url(table)).content.decode(), "collect_charity")
    assert "Welfare State: every amount doubled (2.09.10)" in form and "CHOAM +24 spice" in form


def test_ah_viii_e_the_card_nobody_bids_on_and_the_next_phase_in_one_tap(table_judge: Any) -> None:
    """AH VIII.E: a card passed by everyone ends the bidding round; its own form moves on to the
    next phase in the same request (one round trip less a turn)."""
    from gameplay.models import GameEvent

    table = final_table(table_judge)
    record(table, table_judge, TO_BIDDING)
    judge = web(table_judge)
    page = judge.get(url(table)).content.decode()
    none = page.split('id="bid-none-form"')[1].split("</form>")[0]
    then = none.split('name="then" value="')[1].split('"')[0]
    assert "Nobody bids, then" in none
    seq = seq_of(table)
    _tap(judge, table, "buy_card", "none-then", nobody="1", then=then)
    types = list(GameEvent.objects.filter(game__table=table, seq__gt=seq).order_by("seq").values_list("type", flat=True))
    assert types == ["card_bought", "phase_advanced"] and position(table)["phase"] == then


def test_ah_vii_a_the_last_spice_blow_and_the_next_phase_in_one_tap(table_judge: Any) -> None:
    from gameplay.models import GameEvent

    table = final_table(table_judge)
    record(table, table_judge, [{"type": "phase_advanced", "phase": "storm"}, {"type": "storm_placed", "sector": 10},
                                {"type": "phase_advanced", "phase": "spice_blow"}])
    judge = web(table_judge)
    form = form_of(judge.get(url(table)).content.decode(), "spice_blow")
    then = form.split('name="then" value="')[1].split('"')[0]
    assert "Place the spice, then" in form
    seq = seq_of(table)
    _tap(judge, table, "spice_blow", "blow-then", territory="south_mesa", then=then)
    types = list(GameEvent.objects.filter(game__table=table, seq__gt=seq).order_by("seq").values_list("type", flat=True))
    assert types == ["spice_blow", "phase_advanced"]
