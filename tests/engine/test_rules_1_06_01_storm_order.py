"""The order of the shipment and movement phase (sixth edition): the factions ship and move one
after the other in storm order (LoLV 1.06.01, AH IX.C, WBC IX.1), each its one shipment before
its movement (AH IX.C.1.a, LoLV 1.06.02); only the Guild goes out of turn (AH IX.C.a; LoLV
2.06.12 in the Advanced game only, 2.06.00). The Bene Gesserit's token sent with another
faction's shipment is not a turn of its own (AH IX.C.1.e, WBC XV.14-15, LoLV 2.02.05, 2.02.11).

With the storm on sector 0 and the markers on the dots 1, 4, ... in seat order, the storm order
is Atreides, Bene Gesserit, Emperor, Fremen, Harkonnen, Guild.
"""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import LIMITED, ORDERED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply, replay
from dune.engine.position import Position

from .helpers import AH_WBC, ALL_RULESETS, LOLV, setup_event, started, to_phase

ORDER_RULE = {"ah1979": "AH IX.C", "wbc2018": "WBC IX.1", LOLV: "1.06.01"}
ONE_SHIPMENT = {"ah1979": "AH IX.C.1.a", "wbc2018": "AH IX.C.1.a", LOLV: "1.06.02"}
BG = "bene_gesserit"


def _movement(ruleset: str, **setup: Any) -> Position:
    return to_phase(started(ruleset, **setup), "shipment_movement")


def _ship(faction: str, territory: str, sector: int | None, normal: int = 1, **kw: Any) -> dict[str, Any]:
    return {"type": "forces_placed", "faction": faction, "territory": territory, "sector": sector, "normal": normal, **kw}


def _move(faction: str, frm: tuple[str, int | None], to: tuple[str, int | None], normal: int = 1, **kw: Any) -> dict[str, Any]:
    return {
        "type": "forces_moved",
        "faction": faction,
        "from_territory": frm[0],
        "from_sector": frm[1],
        "to_territory": to[0],
        "to_sector": to[1],
        "normal": normal,
        **kw,
    }


def _refused(pos: Position, event: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        apply(pos, event)
    return info.value


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_01_a_faction_before_one_that_acted_has_had_its_turn(ruleset: str) -> None:
    """The Emperor ships: the Atreides and the Bene Gesserit, before it in storm order, passed.
    The Atreides may no longer ship or move, citing the table's own rule."""
    pos = apply(_movement(ruleset), _ship("emperor", "imperial_basin", 9, 2))
    assert pos.acted == frozenset({"atreides", BG}) and pos.acting == "emperor"
    for late in (_ship("atreides", "tueks_sietch", 4), _move("atreides", ("arrakeen", 9), ("imperial_basin", 9))):
        refusal = _refused(pos, late)
        assert refusal.rule == ORDER_RULE[ruleset]
        assert refusal.field == "faction"
        assert "Atreides ships and moves before Emperor in storm order" in refusal.message
    # The faction acting goes on with its movement; the next ones follow in order.
    pos = apply(pos, _move("emperor", ("imperial_basin", 9), ("arrakeen", 9)))
    pos = apply(pos, _ship("harkonnen", "tueks_sietch", 4))
    assert pos.acted == frozenset({"atreides", BG, "emperor", "fremen"})
    refusal = _refused(pos, _move("emperor", ("arrakeen", 9), ("imperial_basin", 9)))
    assert refusal.rule == ORDER_RULE[ruleset]
    assert "Emperor has already had its turn" in refusal.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_01_the_refusal_names_those_who_have_begun_after_it(ruleset: str) -> None:
    """The refusal names the factions after it in storm order that began, in one sentence whose
    verb agrees with them: one "has begun", two or more "have begun"."""
    pos = apply(_movement(ruleset), _ship("emperor", "imperial_basin", 9, 2))
    refusal = _refused(pos, _ship("atreides", "tueks_sietch", 4))
    assert "before Emperor in storm order, and Emperor has begun: Atreides's turn is over" in refusal.message
    pos = apply(pos, _ship("harkonnen", "tueks_sietch", 4))
    refusal = _refused(pos, _ship("atreides", "tueks_sietch", 4))
    assert refusal.rule == ORDER_RULE[ruleset]
    assert ("Atreides ships and moves before Emperor and Harkonnen in storm order, "
            "and Emperor and Harkonnen have begun: Atreides's turn is over") in refusal.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_01_action_ended_passes_the_turn_of_those_before(ruleset: str) -> None:
    pos = apply(_movement(ruleset), {"type": "action_ended", "faction": "emperor"})
    assert pos.acted == frozenset({"atreides", BG, "emperor"}) and pos.acting is None
    assert _refused(pos, _ship("emperor", "carthag", 10)).rule == ORDER_RULE[ruleset]
    pos = apply(pos, _ship("fremen", "the_great_flat", 14))
    assert pos.acting == "fremen"


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_ah_ix_c_a_the_guild_goes_out_of_turn(ruleset: str) -> None:
    """The Guild ships first; the Atreides then takes its turn as usual, and the Guild's turn
    is over once another faction begins."""
    pos = apply(_movement(ruleset), _ship("guild", "carthag", 10))
    assert pos.acted == frozenset() and pos.acting == "guild"
    pos = apply(pos, _ship("atreides", "tueks_sietch", 4))
    assert pos.acted == frozenset({"guild"})
    assert _refused(pos, _move("guild", ("carthag", 10), ("imperial_basin", 10))).rule == ORDER_RULE[ruleset]
    # A later faction acting does not close the Guild's turn while it waits.
    pos = apply(_movement(ruleset), _ship("harkonnen", "tueks_sietch", 4))
    pos = apply(pos, _ship("guild", "carthag", 10))
    assert pos.acting == "guild" and "guild" not in pos.acted


def test_2_06_12_lolv_guild_goes_out_of_turn_in_the_advanced_game_only() -> None:
    advanced = apply(_movement(LOLV), _ship("harkonnen", "tueks_sietch", 4))
    assert apply(advanced, _ship("guild", "arrakeen", 9)).acting == "guild"
    basic = apply(_movement(LOLV, options=[]), _ship("guild", "arrakeen", 9))
    assert basic.acted == frozenset({"atreides", BG, "emperor", "fremen", "harkonnen"})
    # Once the Guild has acted in the Basic game, the Harkonnen before it may not.
    refusal = _refused(basic, _ship("harkonnen", "tueks_sietch", 4))
    assert refusal.rule == "1.06.01"
    assert "Harkonnen ships and moves before Guild in storm order" in refusal.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_02_one_shipment_a_turn_before_the_movement(ruleset: str) -> None:
    pos = apply(_movement(ruleset), _ship("emperor", "carthag", 10, 2))
    # A later event to the same place continues the shipment.
    pos = apply(pos, _ship("emperor", "carthag", 10, 1))
    assert pos.forces[("emperor", "carthag", 10)] == (3, 0, 0)
    assert pos.shipments == {"emperor": "to:carthag@10"}
    refusal = _refused(pos, _ship("emperor", "tueks_sietch", 4))
    assert refusal.rule == ONE_SHIPMENT[ruleset]
    assert "one shipment" in refusal.message and "Carthag" in refusal.message
    moved = apply(pos, _move("emperor", ("carthag", 10), ("imperial_basin", 10)))
    refusal = _refused(moved, _ship("emperor", "carthag", 10))
    assert refusal.rule == ORDER_RULE[ruleset] if ruleset != "wbc2018" else refusal.rule == "AH IX.C"
    assert "ships first, then moves" in refusal.message


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_ix_c_1_e_the_bg_token_sent_with_a_shipment_is_not_its_turn(ruleset: str) -> None:
    """AH/WBC: the BG's free token goes with the Emperor's shipment into the same territory or
    the Polar Sink, a fighter (no advisor side, WBC XV.5): the Emperor's turn goes on, and the
    Fremen and Harkonnen after it keep theirs; one token a shipment."""
    pos = apply(_movement(ruleset), _ship("emperor", "imperial_basin", 9, 2))
    for where in (("imperial_basin", 10), ("polar_sink", None)):
        sent = apply(pos, _ship(BG, *where))
        assert sent.acting == "emperor" and sent.acted == frozenset({"atreides", BG})
        assert sent.shipped is None
        sent = apply(sent, _move("emperor", ("imperial_basin", 9), ("arrakeen", 9)))
        assert sent.acting == "emperor"
        # A second token for the same shipment is a BG shipment of its own: out of its turn.
        assert _refused(sent, _ship(BG, "polar_sink", None)).rule == ORDER_RULE[ruleset]
    # The BG's own shipment in its turn is a turn.
    own = apply(_movement(ruleset), _ship(BG, "carthag", 10, 2))
    assert own.acting == BG and own.acted == frozenset({"atreides"})


def test_2_02_05_lolv_the_advisor_or_fighter_sent_with_a_shipment_is_not_the_bgs_turn() -> None:
    pos = apply(_movement(LOLV), _ship("emperor", "carthag", 10, 2))
    advisor = apply(pos, {**_ship(BG, "carthag", 10, 0), "advisors": 1})
    fighter = apply(pos, _ship(BG, "polar_sink", None))
    for sent in (advisor, fighter):
        assert sent.acting == "emperor" and sent.acted == frozenset({"atreides", BG})
    # A fighter into the Emperor's territory is no spiritual advisor (2.02.05 sends it to the
    # Polar Sink): it is a shipment of the BG's own, whose turn has passed.
    refusal = _refused(pos, _ship(BG, "carthag", 10))
    assert refusal.rule == "1.06.01" and refusal.field == "faction"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_01_older_editions_take_the_judges_order(ruleset: str) -> None:
    """A log of the fifth edition replays as it did: no order, several shipments."""
    log = [
        setup_event(ruleset, edition=LIMITED, storm=None),
        {"type": "phase_advanced", "phase": "storm"},
        {"type": "storm_placed", "sector": 0},
        {"type": "phase_advanced", "phase": "shipment_movement"},
        _ship("emperor", "imperial_basin", 9, 2),
        _ship("atreides", "tueks_sietch", 4),
        _ship("atreides", "carthag", 10),
    ]
    pos = replay(log)
    assert pos.acted == frozenset() and pos.shipments == {}
    assert pos.forces[("atreides", "carthag", 10)] == (1, 0, 0)
    log[0]["edition"] = ORDERED
    with pytest.raises(IllegalAction):
        replay(log)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_01_a_snapshot_keeps_who_has_had_its_turn(ruleset: str) -> None:
    pos = apply(_movement(ruleset), _ship("emperor", "carthag", 10, 2))
    data = dump_position(pos)
    assert data["acted"] == ["atreides", BG] and data["shipments"] == {"emperor": "to:carthag@10"}
    again = load_position(data)
    assert again == pos
    assert _refused(again, _ship("atreides", "tueks_sietch", 4)).rule == ORDER_RULE[ruleset]
    # The next phase starts afresh.
    after = to_phase(pos, "battle")
    assert after.acted == frozenset() and after.shipments == {}


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_ah_ix_c_1_g_iii_the_guilds_shipment_back_to_reserves_is_its_turn(ruleset: str) -> None:
    pos = apply(
        _movement(ruleset),
        {"type": "forces_removed", "faction": "guild", "territory": "tueks_sietch", "sector": 4, "normal": 2, "to": "reserves"},
    )
    assert pos.acting == "guild" and pos.shipments == {"guild": "off_planet:tueks_sietch@4"}
    refusal = _refused(pos, _ship("guild", "carthag", 10))
    assert refusal.rule == "AH IX.C.1.g"  # one of the three kinds a turn


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_01_a_move_entered_late_is_inserted_before_the_next_factions_shipment(ruleset: str) -> None:
    """The Fremen's move was entered after the Harkonnen's and the Guild's shipments: at the end
    of the log it is refused, since the Fremen had had their turn (1.06.01, AH IX.C, WBC IX.1).
    Recorded as an insert before the Harkonnen's shipment, the log replays with the move in its
    place; nothing is voided, the records keep their numbers and the insert is the last one."""
    from dune.engine.errors import InsertRefused
    from dune.engine.game_log import insertion_point, log_of

    pos = _movement(ruleset)
    harkonnen_at = pos.seq + 1
    pos = apply(pos, _ship("harkonnen", "tueks_sietch", 4))
    pos = apply(pos, _ship("guild", "arrakeen", 9))
    late = _move("fremen", ("sietch_tabr", 13), ("rock_outcroppings", 12), 2)
    refusal = _refused(pos, late)
    assert refusal.rule == ORDER_RULE[ruleset] and "Fremen's turn is over" in refusal.message
    assert insertion_point(pos, late) == harkonnen_at

    fixed = apply(pos, {"type": "insert", "before": harkonnen_at, "event": late, "reason": "entered late"})
    assert fixed.seq == pos.seq + 1 and [e.type for e in log_of(fixed)][-1] == "insert"
    assert fixed.voided == frozenset()
    assert fixed.forces[("fremen", "rock_outcroppings", 12)] == (2, 0, 0)
    assert fixed.forces[("fremen", "sietch_tabr", 13)] == (8, 0, 0)
    # The same position as if the move had been recorded in its turn.
    in_turn = replay([*log_of(pos)[: harkonnen_at - 1], late, *log_of(pos)[harkonnen_at - 1:]])
    assert fixed == in_turn

    # Inserted after the Harkonnen's shipment it is still out of order: refused with the rule,
    # naming the inserted event; nothing changes.
    with pytest.raises(InsertRefused) as info:
        apply(pos, {"type": "insert", "before": harkonnen_at + 1, "event": late, "reason": "entered late"})
    assert info.value.rule == ORDER_RULE[ruleset]
    assert f"the forces_moved inserted by event {pos.seq + 1} before event {harkonnen_at + 1}" in info.value.message
