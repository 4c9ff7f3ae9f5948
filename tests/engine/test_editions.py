"""Editions of the rulings (`game_setup.edition`): a log recorded before the corrections has
no edition and keeps the rulings it was played under, so it replays to the same position;
a game of the current edition gets the corrected ruling. One test per correction, each with
the first edition accepting what it accepted and the second refusing it (or the reverse
where the correction accepts more)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import (
    ACCOUNTED,
    CORRECTED,
    COUNTED,
    CURRENT,
    DISTINGUISHED,
    EDITIONS,
    FIRST,
    LIMITED,
    ORDERED,
    REFINED,
    SEQUENCED,
)
from dune.engine.errors import IllegalAction, InvalidEvent, InvalidPosition
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply, replay
from dune.engine.position import Position

from .helpers import CLASSIC, at, position, setup_event

RULESETS = ["ah1979", "wbc2018", "lolv-2.8.4"]
LOLV = "lolv-2.8.4"
IXIANS = ("atreides", "ixians", "emperor", "fremen", "harkonnen", "guild")


def _log(edition: int | None, ruleset: str, *events: dict[str, Any], **setup: Any) -> list[dict[str, Any]]:
    """A log as recorded: the setup (without `edition` for the first, as old logs were),
    the storm placed on sector 0 in turn 1, then `events`."""
    first = setup_event(ruleset, setup.pop("factions", CLASSIC), **setup)
    del first["edition"]
    if edition is not None:
        first["edition"] = edition
    return [
        first,
        {"type": "phase_advanced", "phase": "storm"},
        {"type": "storm_placed", "sector": 0},
        *events,
    ]


def _to(phase: str) -> dict[str, Any]:
    return {"type": "phase_advanced", "phase": phase}


TURN_2 = [_to("mentat_pause"), {"type": "turn_advanced"}]
MOVEMENT = [_to("shipment_movement")]


def _refused(log: list[dict[str, Any]], rule: str) -> None:
    with pytest.raises(IllegalAction) as info:
        replay(log)
    assert info.value.rule == rule


def test_editions_old_setup_states_the_first_and_new_games_record_the_current() -> None:
    old = replay(_log(FIRST, "wbc2018"))
    assert old.setup is not None and old.setup.edition == FIRST
    assert dump_position(old)["edition"] == FIRST  # a snapshot states its own version
    assert load_position(dump_position(old)) == old
    new = replay(_log(CURRENT, "wbc2018"))
    assert new.setup is not None and new.setup.edition == DISTINGUISHED
    assert load_position(dump_position(new)) == new
    assert dump_position(new)["edition"] == DISTINGUISHED


def test_editions_are_listed_in_order_and_the_last_is_current() -> None:
    """Nine editions: the first rulings, the corrections, the refusals around the expansion
    pieces, bribes and BG tokens, the token supplies and the Karama checks, the limits a turn
    has, the order of the shipment and movement phase, the Spice Blows of a turn counted, the
    order of the battles, then each ruleset's own battle rules and the last limits of a position.
    A game stored under the third keeps it: its setup and snapshot say so."""
    assert EDITIONS == (
        FIRST,
        CORRECTED,
        REFINED,
        ACCOUNTED,
        LIMITED,
        ORDERED,
        COUNTED,
        SEQUENCED,
        DISTINGUISHED,
    ) == tuple(range(1, 10))
    assert CURRENT == EDITIONS[-1] == DISTINGUISHED
    third = replay(_log(REFINED, "lolv-2.8.4"))
    assert third.setup is not None and third.setup.edition == REFINED
    assert dump_position(third)["edition"] == REFINED
    assert load_position(dump_position(third)) == third


def test_editions_a_setup_or_snapshot_without_edition_means_the_current_rulings() -> None:
    """The default is the correct ruling: a client that names no edition gets the current one."""
    unnamed = replay(_log(None, "wbc2018"))
    assert unnamed.setup is not None and unnamed.setup.edition == CURRENT
    snapshot = dump_position(replay(_log(FIRST, "wbc2018")))
    del snapshot["edition"]
    loaded = load_position(snapshot)
    assert loaded.setup is not None and loaded.setup.edition == CURRENT


def test_editions_unknown_edition_is_refused_naming_the_field() -> None:
    with pytest.raises(InvalidEvent) as info:
        replay(_log(CURRENT + 1, "wbc2018"))
    assert "edition" in info.value.message
    with pytest.raises(InvalidPosition):
        position(edition=0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_02_first_edition_accepts_a_second_storm_move(ruleset: str) -> None:
    """The storm moves once per storm phase (LoLV 1.01.02, AH VI.C) from the second edition."""
    moves = [*TURN_2, {"type": "storm_moved", "sectors": 3}, {"type": "storm_moved", "sectors": 2}]
    assert replay(_log(FIRST, ruleset, *moves)).storm == 5
    _refused(_log(CURRENT, ruleset, *moves), {"lolv-2.8.4": "1.01.02"}.get(ruleset, "AH VI.C"))


def _ship(faction: str, territory: str, sector: int | None, n: int = 1) -> dict[str, Any]:
    return {
        "type": "forces_placed",
        "faction": faction,
        "territory": territory,
        "sector": sector,
        "normal": n,
    }


def _move(faction: str, a: str, sa: int | None, b: str, sb: int | None, n: int = 1) -> dict[str, Any]:
    return {
        "type": "forces_moved",
        "faction": faction,
        "from_territory": a,
        "from_sector": sa,
        "to_territory": b,
        "to_sector": sb,
        "normal": n,
    }


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_06_02_04_first_edition_ships_into_a_sheltered_sector_in_storm(ruleset: str) -> None:
    """A sector of Carthag under the storm blocks shipment from the second edition (AH questions
    C.3, LoLV 1.06.02.04, WBC VI.9); the first let the Shield Wall keep the storm off it."""
    events = [*TURN_2, {"type": "storm_moved", "sectors": 10}, *MOVEMENT, _ship("emperor", "carthag", 10)]
    assert replay(_log(FIRST, ruleset, *events)).forces[("emperor", "carthag", 10)] == (1, 0, 0)
    with pytest.raises(IllegalAction):
        replay(_log(CURRENT, ruleset, *events))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_06_04_06_first_edition_moves_out_of_and_through_a_sheltered_sector_in_storm(ruleset: str) -> None:
    """Out of Arrakeen under the storm (LoLV 1.06.04.06, AH IX.C.2.c), and through the stormed
    sector inside the Imperial Basin (1.06.04.07): the first edition let both pass."""
    out = [
        *TURN_2,
        {"type": "storm_moved", "sectors": 9},
        *MOVEMENT,
        _move("atreides", "arrakeen", 9, "old_gap", 8),
    ]
    assert ("atreides", "old_gap", 8) in replay(_log(FIRST, ruleset, *out)).forces
    with pytest.raises(IllegalAction):
        replay(_log(CURRENT, ruleset, *out))
    for edition, ok in ((FIRST, True), (CURRENT, False)):
        pos = position(
            ruleset=ruleset,
            edition=edition,
            storm=9,
            phase="shipment_movement",
            forces=[at("emperor", "imperial_basin", 2, sector=8)],
        )
        through = _move("emperor", "imperial_basin", 8, "imperial_basin", 10)
        if ok:
            assert ("emperor", "imperial_basin", 10) in apply(pos, through).forces
        else:
            with pytest.raises(IllegalAction):
                apply(pos, through)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_07_01_00_first_edition_does_not_separate_a_sheltered_territory(ruleset: str) -> None:
    """The storm inside the Imperial Basin separates its two sides for battle from the second
    edition (LoLV 1.07.01.00, WBC VI.10); the first edition saw one battle there."""
    forces = [at("emperor", "imperial_basin", 2, sector=8), at("harkonnen", "imperial_basin", 2, sector=10)]
    old = evaluate(position(ruleset=ruleset, edition=FIRST, storm=9, forces=forces)).to_dict()
    assert [(b["territory"], sorted(b["factions"])) for b in old["battles"]] == [
        ("imperial_basin", ["emperor", "harkonnen"])
    ]
    new = evaluate(position(ruleset=ruleset, edition=CURRENT, storm=9, forces=forces)).to_dict()
    assert new["battles"] == []


def test_2_07_20_first_edition_lets_any_faction_ship_into_the_hms() -> None:
    """Only the Ixians ship into the Hidden Mobile Stronghold (LoLV 2.07.20) from the second
    edition."""
    events = [*MOVEMENT, _ship("emperor", "hidden_mobile_stronghold", None)]
    old = replay(_log(FIRST, LOLV, *events, factions=IXIANS))
    assert old.forces[("emperor", "hidden_mobile_stronghold", None)] == (1, 0, 0)
    _refused(_log(CURRENT, LOLV, *events, factions=IXIANS), "2.07.20")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_2_04_05_first_edition_lets_the_fremen_ship_anywhere(ruleset: str) -> None:
    """The Fremen send reserves near the Great Flat only (LoLV 2.04.05, AH IX.C.1.h, WBC IX.11)
    from the second edition, into the storm only there too."""
    far = [*MOVEMENT, _ship("fremen", "tueks_sietch", 4, 2)]
    assert replay(_log(FIRST, ruleset, *far)).forces[("fremen", "tueks_sietch", 4)] == (2, 0, 0)
    rule = {"ah1979": "AH IX.C.1.h", "wbc2018": "WBC IX.11", "lolv-2.8.4": "2.04.05"}[ruleset]
    _refused(_log(CURRENT, ruleset, *far), rule)
    stormed = [*MOVEMENT, _ship("fremen", "cielago_north", 0, 2)]  # the storm sits on sector 0
    assert ("fremen", "cielago_north", 0) in replay(_log(FIRST, ruleset, *stormed)).forces
    with pytest.raises(IllegalAction):
        replay(_log(CURRENT, ruleset, *stormed))


def test_1_10_01_01_first_edition_lets_a_faction_ally_twice_in_a_nexus() -> None:
    """A faction allies once per nexus (LoLV 1.10.01.01) from the second edition."""
    events = [
        *TURN_2,
        _to("spice_blow"),
        {"type": "worm", "territory": "the_great_flat"},
        {"type": "alliance_formed", "factions": ["atreides", "fremen"]},
        {"type": "alliance_broken", "faction": "fremen"},
        {"type": "alliance_formed", "factions": ["fremen", "guild"]},
    ]
    assert ("fremen", "guild") in replay(_log(FIRST, LOLV, *events)).alliances
    _refused(_log(CURRENT, LOLV, *events), "1.10.01.01")


def _allied_movement(edition: int, **setup: Any) -> Position:
    pos = replay(_log(edition, LOLV, *MOVEMENT, **setup))
    return pos.evolve(alliances=(("atreides", "emperor"),))


BESIDE_ALLY = _ship("emperor", "arrakeen", 9, 3)


def test_1_06_06_first_edition_refuses_entering_an_allys_territory() -> None:
    """LoLV 1.06.06: from the second edition entering is accepted and forces left there at the
    end of the action go to the tanks; the first edition refused the entry as before."""
    with pytest.raises(IllegalAction):
        apply(_allied_movement(FIRST), BESIDE_ALLY)
    pos = apply(_allied_movement(CURRENT, automatic_losses=True), BESIDE_ALLY)
    ended = apply(pos, {"type": "action_ended", "faction": "emperor"})
    assert ended.states["emperor"].tanks == (3, 0)


@pytest.mark.parametrize("ruleset", ["wbc2018", "lolv-2.8.4"])
def test_1_06_06_first_edition_sends_nothing_to_the_tanks_beside_an_ally(ruleset: str) -> None:
    """Forces a faction leaves beside its ally when its action ends go to the tanks (LoLV
    1.06.06, WBC IX.3) only from the second edition, even with automatic losses."""
    forces = [at("atreides", "arrakeen", 2, sector=9), at("emperor", "arrakeen", 3, sector=9)]
    for edition, tanks in ((FIRST, (0, 0)), (CURRENT, (3, 0))):
        pos = position(
            ruleset=ruleset,
            edition=edition,
            automatic_losses=True,
            phase="shipment_movement",
            forces=[*forces, at("emperor", "the_great_flat", 2, sector=14)],
            alliances=[["atreides", "emperor"]],
            per_faction={"emperor": {"tanks": 0}},
        )
        pos = apply(pos, _move("emperor", "the_great_flat", 14, "plastic_basin", 12, 2))
        ended = apply(pos, {"type": "action_ended", "faction": "emperor"})
        assert ended.states["emperor"].tanks == tanks


def test_wbc_xv_7_first_edition_declares_coexistence_in_any_phase() -> None:
    """WBC XV.7-9: declared in the movement round and kept for the turn, from the second edition."""
    declare = {"type": "coexistence_declared", "territory": "arrakeen", "coexisting": True}
    withdraw = {**declare, "coexisting": False}
    bidding = [*TURN_2, _to("bidding"), declare]
    assert "arrakeen" in replay(_log(FIRST, "wbc2018", *bidding)).coexisting
    _refused(_log(CURRENT, "wbc2018", *bidding), "WBC XV.7")
    same_turn = [*TURN_2, _to("shipment_movement"), declare, withdraw]
    assert "arrakeen" not in replay(_log(FIRST, "wbc2018", *same_turn)).coexisting
    _refused(_log(CURRENT, "wbc2018", *same_turn), "WBC XV.9")


def test_2_02_19_first_edition_flips_advisors_under_the_storm() -> None:
    """Advisors under the storm stay advisors (LoLV 2.02.19) from the second edition."""
    flip = {
        "type": "forces_flipped",
        "territory": "the_great_flat",
        "sector": 14,
        "side": "fighters",
        "count": 1,
    }
    forces = [at("bene_gesserit", "the_great_flat", 0, advisors=2, sector=14)]
    old = position(ruleset=LOLV, edition=FIRST, storm=14, forces=forces)
    assert apply(old, flip).forces[("bene_gesserit", "the_great_flat", 14)] == (1, 0, 1)
    with pytest.raises(IllegalAction) as info:
        apply(position(ruleset=LOLV, edition=CURRENT, storm=14, forces=forces), flip)
    assert info.value.rule == "2.02.19"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_editions_the_sixth_checks_the_order_of_shipment_and_movement(ruleset: str) -> None:
    """LoLV 1.06.01, AH IX.C, WBC IX.1: a faction earlier in storm order than one that has
    shipped has had its turn (sixth edition); the fifth took the judge's order."""
    ship = [
        *MOVEMENT,
        {"type": "forces_placed", "faction": "harkonnen", "territory": "tueks_sietch", "sector": 4, "normal": 1},
        {"type": "forces_placed", "faction": "atreides", "territory": "sietch_tabr", "sector": 13, "normal": 1},
    ]
    assert replay(_log(LIMITED, ruleset, *ship)).forces[("atreides", "sietch_tabr", 13)] == (1, 0, 0)
    _refused(_log(ORDERED, ruleset, *ship), {"ah1979": "AH IX.C", "wbc2018": "WBC IX.1"}.get(ruleset, "1.06.01"))


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_editions_the_sixth_refuses_ah_and_wbc_advisors_in_a_snapshot(ruleset: str) -> None:
    """AH XV.A, WBC XV.5: the tokens have no advisor side (sixth edition)."""
    data = dump_position(replay(_log(LIMITED, ruleset)))
    data["forces"].append(
        {"faction": "bene_gesserit", "territory": "old_gap", "sector": 8, "normal": 0, "special": 0, "advisors": 1}
    )
    data["factions"]["bene_gesserit"]["reserves"] -= 1
    assert load_position(data).forces[("bene_gesserit", "old_gap", 8)] == (0, 0, 1)
    with pytest.raises(InvalidPosition) as info:
        load_position({**data, "edition": ORDERED})
    assert info.value.rule == {"ah1979": "AH XV.A", "wbc2018": "WBC XV.5"}[ruleset]
