"""The spice paid with a shipment or a revival, in the same record (`payments`): the price
(LoLV 1.06.02.01, 1.05.01.02, AH IX.C.1.b, AH IX.B.1), who receives it (1.06.02.02, 2.06.04,
1.05.01.03, 2.08.10), the Guild's half price (2.06.06, 2.06.09, AH IX.C.1.b.ii), a Karama
shipment at the Guild's rate paid to the bank (3.01.11.03), the Fremen's free sending (2.04.05,
AH IX.C.1.h), the free revival (1.05.01.01, AH IX.B.1), and no payment without the field."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import load_position
from dune.engine.errors import IllegalAction
from dune.engine.events import ForcesRevived, event_from_dict
from dune.engine.game_log import apply
from dune.engine.payments import own_revival_price, revival_price
from dune.engine.position import Position
from tests.engine.helpers import ALL_RULESETS, CLASSIC, LOLV, at, snap, started, to_phase

SHIP_COST = {"ah1979": "AH IX.C.1.b", "wbc2018": "AH IX.C.1.b", LOLV: "1.06.02.01"}
REVIVAL_COST = {"ah1979": "AH IX.B.1", "wbc2018": "AH IX.B.1", LOLV: "1.05.01.02"}
REVIVAL_PAYMENT = {"ah1979": "AH IX.B.1", "wbc2018": "AH IX.B.1", LOLV: "1.05.01.03"}


def _movement(ruleset: str, factions: tuple[str, ...] = CLASSIC) -> Position:
    return to_phase(started(ruleset, factions), "shipment_movement")


def _ship(pos: Position, faction: str, territory: str, sector: int, n: int, **kw: Any) -> Position:
    ev = {"type": "forces_placed", "faction": faction, "territory": territory, "sector": sector, "normal": n}
    return apply(pos, {**ev, **kw})


def _spice(pos: Position) -> dict[str, int | None]:
    return {f: st.spice for f, st in pos.states.items()}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_02_01_shipment_into_a_stronghold_pays_the_guild(ruleset: str) -> None:
    """1.06.02.01, AH IX.C.1.b: 1 spice a force into a stronghold; the Guild in the game
    receives it (2.06.04, WBC Guild notes)."""
    pos = _movement(ruleset)
    before = _spice(pos)
    after = _spice(_ship(pos, "atreides", "carthag", 10, 3, cost=3))
    assert after["atreides"] == before["atreides"] - 3
    assert after["guild"] == before["guild"] + 3
    assert {f: v for f, v in after.items() if f not in ("atreides", "guild")} == {
        f: v for f, v in before.items() if f not in ("atreides", "guild")
    }


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_02_01_shipment_elsewhere_costs_two_a_force(ruleset: str) -> None:
    pos = _movement(ruleset)
    after = _ship(pos, "harkonnen", "the_great_flat", 14, 2, cost=4)
    assert after.states["harkonnen"].spice == pos.states["harkonnen"].spice - 4
    with pytest.raises(IllegalAction) as err:
        _ship(pos, "harkonnen", "the_great_flat", 14, 2, cost=2)
    assert err.value.rule == SHIP_COST[ruleset] and err.value.field == "cost"
    assert "costs 4 spice, not 2" in err.value.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_02_02_without_the_guild_the_bank_receives(ruleset: str) -> None:
    factions = tuple(f for f in CLASSIC if f != "guild")
    pos = _movement(ruleset, factions)
    after = _ship(pos, "atreides", "carthag", 10, 2, cost=2)
    assert _spice(after) == {**_spice(pos), "atreides": pos.states["atreides"].spice - 2}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_06_06_guild_ships_at_half_price_to_the_bank(ruleset: str) -> None:
    """2.06.06, AH IX.C.1.b.ii: half the price, rounded up, paid to the bank."""
    pos = _movement(ruleset)
    after = _ship(pos, "guild", "the_great_flat", 14, 3, cost=3)
    assert _spice(after) == {**_spice(pos), "guild": pos.states["guild"].spice - 3}
    assert _ship(pos, "guild", "carthag", 10, 3, cost=2).states["guild"].spice == pos.states["guild"].spice - 2


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_3_01_11_03_karama_shipment_at_guild_rates_to_the_bank(ruleset: str) -> None:
    pos = _movement(ruleset)
    after = _ship(pos, "atreides", "the_great_flat", 14, 3, cost=3, karama=True)
    assert after.states["atreides"].spice == pos.states["atreides"].spice - 3
    assert after.states["guild"].spice == pos.states["guild"].spice


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_04_05_fremen_send_for_free(ruleset: str) -> None:
    pos = _movement(ruleset)
    assert _spice(_ship(pos, "fremen", "the_great_flat", 14, 2, cost=0)) == _spice(pos)
    with pytest.raises(IllegalAction) as err:
        _ship(pos, "fremen", "the_great_flat", 14, 2, cost=2)
    assert err.value.field == "cost"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_02_02_no_more_spice_than_held(ruleset: str) -> None:
    pos = _movement(ruleset)
    with pytest.raises(IllegalAction) as err:
        _ship(pos, "bene_gesserit", "the_great_flat", 14, 4, cost=8)
    assert err.value.field == "cost" and "has only 5 spice" in err.value.message
    with pytest.raises(IllegalAction):
        _ship(pos, "atreides", "carthag", 10, 1, cost=-1)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_02_without_a_cost_no_spice_changes_hands(ruleset: str) -> None:
    """An event without the field (every log recorded before it) replays as before."""
    pos = _movement(ruleset)
    assert _spice(_ship(pos, "atreides", "carthag", 10, 3)) == _spice(pos)
    ev = event_from_dict({"type": "forces_placed", "faction": "atreides", "territory": "carthag", "sector": 10})
    assert ev.cost is None  # type: ignore[attr-defined]
    assert event_from_dict({"type": "forces_revived", "faction": "atreides", "normal": 1}).cost is None  # type: ignore[attr-defined]


# --- revival --------------------------------------------------------------------------------------


def _revival(ruleset: str, factions: tuple[str, ...] = CLASSIC, spice: int = 10) -> Position:
    per = {f: {"tanks": 5, "spice": spice} for f in factions}
    forces = [at("atreides", "arrakeen", 10)]
    return load_position(snap(ruleset, factions, forces=forces, phase="revival", per_faction=per))


def _revive(pos: Position, faction: str, normal: int, **kw: Any) -> Position:
    return apply(pos, {"type": "forces_revived", "faction": faction, "normal": normal, **kw})


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_05_01_02_revival_beyond_the_free_ones_costs_two_to_the_bank(ruleset: str) -> None:
    """1.05.01.02, 1.05.01.03, AH IX.B.1: the Atreides revive 2 free (2.01.04); the third costs 2,
    paid to the bank."""
    pos = _revival(ruleset)
    after = _revive(pos, "atreides", 3, cost=2)
    assert _spice(after) == {**_spice(pos), "atreides": 8}
    with pytest.raises(IllegalAction) as err:
        _revive(pos, "atreides", 3, cost=0)
    assert err.value.rule == REVIVAL_COST[ruleset] and err.value.field == "cost"
    assert _spice(_revive(pos, "atreides", 2, cost=0)) == _spice(pos)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_05_01_01_free_revival_counted_over_the_turn(ruleset: str) -> None:
    pos = _revive(_revival(ruleset), "atreides", 2, cost=0)
    assert _revive(pos, "atreides", 1, cost=2).states["atreides"].spice == 8


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_05_01_03_no_more_spice_than_held(ruleset: str) -> None:
    pos = _revival(ruleset, spice=1)
    with pytest.raises(IllegalAction) as err:
        _revive(pos, "harkonnen", 3, cost=2)
    assert err.value.rule == REVIVAL_PAYMENT[ruleset] and err.value.field == "cost"
    assert "has only 1 spice" in err.value.message


def test_2_08_10_revivals_pay_the_tleilaxu() -> None:
    factions = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "tleilaxu")
    pos = _revival(LOLV, factions)
    after = _revive(pos, "harkonnen", 3, cost=2)
    assert after.states["harkonnen"].spice == 8 and after.states["tleilaxu"].spice == 12


def test_2_07_10_cyborg_revival_needs_only_the_spice_held() -> None:
    """2.07.10: Cyborgs cost 3 each and the free revival is the player's choice, so the engine
    checks only that the Ixians hold the spice they pay."""
    factions = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "ixians")
    per = {f: {"tanks": 5, "spice": 4} for f in factions}
    per["ixians"] = {"tanks": 3, "tanks_special": 2, "spice": 4}
    pos = load_position(snap(LOLV, factions, phase="revival", per_faction=per))
    after = apply(pos, {"type": "forces_revived", "faction": "ixians", "normal": 1, "special": 1, "cost": 3})
    assert after.states["ixians"].spice == 1
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "forces_revived", "faction": "ixians", "normal": 1, "special": 1, "cost": 5})
    assert err.value.rule == "1.05.01.03" and err.value.field == "cost"


def test_2_06_09_guild_ally_ships_at_half_price_to_the_guild() -> None:
    """2.06.09 with 2.06.04: the Guild's ally pays half, rounded up, and pays it to the Guild."""
    per = {"atreides": {"spice": 10, "reserves": 10}, "guild": {"spice": 5}}
    pos = load_position(snap(LOLV, phase="shipment_movement", alliances=[["atreides", "guild"]], per_faction=per))
    after = _ship(pos, "atreides", "the_great_flat", 14, 3, cost=3)
    assert after.states["atreides"].spice == pos.states["atreides"].spice - 3
    assert after.states["guild"].spice == pos.states["guild"].spice + 3


def test_2_08_09_tleilaxu_revive_at_half_price() -> None:
    factions = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "tleilaxu")
    pos = _revival(LOLV, factions)
    after = _revive(pos, "tleilaxu", 5, cost=3)  # 2 free (2.08.04), 3 at 2 each halved (unlimited, 2.08.08)
    assert _spice(after) == {**_spice(pos), "tleilaxu": 7}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_05_01_without_a_cost_no_spice_changes_hands(ruleset: str) -> None:
    pos = _revival(ruleset)
    assert _spice(_revive(pos, "atreides", 3)) == _spice(pos)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_05_01_02_an_allied_factions_revival_has_its_own_sheets_price(ruleset: str) -> None:
    """1.05.01.02, AH IX.B.1: an ally may help pay (AH Emperor: Alliance, 2.03.07), which changes
    who pays, not the price: 3 Harkonnen revived with 2 free owe 2 spice; a typed cost is only
    held to the spice the faction has."""
    per = {f: {"tanks": 5, "spice": 10} for f in CLASSIC}
    pos = load_position(snap(ruleset, CLASSIC, phase="revival", per_faction=per, alliances=[["atreides", "harkonnen"]]))
    three = ForcesRevived(faction="harkonnen", normal=3)
    assert own_revival_price(pos, three) == 2 and revival_price(pos, three) is None
    assert _revive(pos, "harkonnen", 3, cost=0).states["harkonnen"].spice == 10


def test_2_04_11_the_fremen_allys_free_revival_is_the_fremens_to_choose() -> None:
    """2.04.11: the Fremen may make their ally's free revival 3, so its price is the table's."""
    per = {f: {"tanks": 5, "spice": 10} for f in CLASSIC}
    pos = load_position(snap(LOLV, CLASSIC, phase="revival", per_faction=per, alliances=[["atreides", "fremen"]]))
    assert own_revival_price(pos, ForcesRevived(faction="atreides", normal=3)) is None
    assert own_revival_price(pos, ForcesRevived(faction="fremen", normal=3)) == 0
