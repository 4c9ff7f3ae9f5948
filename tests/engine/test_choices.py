"""`choices.legal_choices` / `allowed_event_types` agree with `apply`: every listed choice is
accepted, and where the space is small every accepted choice is listed (DESIGN: one
function per action both validates and lists the valid choices)."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dune.engine.board import TERRITORIES
from dune.engine.choices import LISTED_TYPES, allowed_event_types, legal_choices
from dune.engine.editions import EDITIONS
from dune.engine.errors import RuleViolation, UnknownIdentifier
from dune.engine.events import EVENT_TYPES
from dune.engine.game_log import apply, is_legal
from dune.engine.position import Position

from .helpers import CLASSIC, at, in_turn, position, to_phase
from .test_invariants import LOLV, _candidate, _walk

PIECES = [(t, s) for t, v in sorted(TERRITORIES.items()) for s in (v.sectors or (None,))]


def _move_events(pos: Position, answer: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every listed move as an event (from `answer`, the listing of `pos` when already read)."""
    out = []
    answer = legal_choices(pos, "forces_moved") if answer is None else answer
    moves = (answer["choices"] or {}).get("moves", {})
    for faction, rows in moves.items():
        for row in rows:
            for dest in row["to"]:
                out.append(
                    {
                        "type": "forces_moved",
                        "faction": faction,
                        "via": row["via"],
                        "from_territory": row["from"]["territory"],
                        "from_sector": row["from"]["sector"],
                        "to_territory": dest["territory"],
                        "to_sector": dest["sector"],
                        **row["forces"],
                    }
                )
    return out


def _listed_events(pos: Position, event_type: str) -> list[dict[str, Any]]:
    answer = legal_choices(pos, event_type)
    json.dumps(answer)  # JSON-serialisable
    c = answer["choices"] or {}
    if event_type == "forces_moved":
        return _move_events(pos, answer)
    if event_type == "phase_advanced":
        return [{"type": event_type, "phase": p} for p in c.get("phases", [])]
    if event_type == "turn_advanced":
        return [{"type": event_type, "turn": t} for t in c.get("turns", [])]
    field = {
        "alliance_formed": "factions",
        "victory_claimed": "winners",
        "win_attempt_confirmed": "factions",
        "concession": "to_factions",
    }.get(event_type)
    if field is not None:
        listed = [{"type": event_type, field: side} for side in c.get("sides", [])]
        # Alliances through a faction's ability (LoLV 1.10.01.06) come with their `how`.
        return listed + [
            {"type": event_type, field: w["factions"], "how": w["how"]} for w in c.get("ways", [])
        ]
    if "factions" in c:
        return [{"type": event_type, "faction": f} for f in c["factions"]]
    return list(c.get("events", []))


def _check_listings(pos: Position) -> None:
    allowed = set(allowed_event_types(pos))
    for event_type in LISTED_TYPES:
        listed = _listed_events(pos, event_type)
        for event in listed:
            assert is_legal(pos, event), event
        assert (event_type in allowed) == bool(listed), event_type


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([("wbc2018", CLASSIC), ("lolv-2.8.4", LOLV), ("ah1979", CLASSIC)]))
def test_every_listed_choice_is_accepted(
    edition: int, data: st.DataObject, game: tuple[str, tuple[str, ...]]
) -> None:
    """Along random judges' logs, every choice listed for every listed event type is accepted
    by `apply`, and a type is allowed exactly when it has a choice (in either edition of the
    rulings)."""
    _log, pos = _walk(data, game[0], game[1], steps=40, edition=edition)
    _check_listings(pos)
    for phase in ("spice_blow", "shipment_movement", "battle", "mentat_pause"):
        try:
            later = apply(pos, {"type": "phase_advanced", "phase": phase})
        except RuleViolation:
            continue
        _check_listings(later)


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["wbc2018", "lolv-2.8.4", "ah1979"]), st.integers(0, 17))
def test_every_accepted_move_is_listed(edition: int, data: st.DataObject, ruleset: str, storm: int) -> None:
    """LoLV 1.06.04 / AH IX.C.2: for a stack, every destination `apply` accepts is listed
    (the whole board is tried)."""
    faction = data.draw(st.sampled_from(["emperor", "fremen", "guild", "atreides"]))
    src = data.draw(st.sampled_from([p for p in PIECES if p[0] != "hidden_mobile_stronghold"]))
    forces = [at(faction, src[0], 2, sector=src[1])]
    if data.draw(st.booleans()):
        forces.append(at("harkonnen", "carthag", 2))
    try:
        pos = position(
            ruleset=ruleset, storm=storm, phase="shipment_movement", forces=forces, edition=edition
        )
    except RuleViolation:
        return
    listed = {
        (e["to_territory"], e["to_sector"])
        for e in _move_events(pos)
        if e["faction"] == faction and e["via"] == "move" and (e["from_territory"], e["from_sector"]) == src
    }
    accepted = set()
    for t, s in PIECES:
        event = {
            "type": "forces_moved",
            "faction": faction,
            "from_territory": src[0],
            "from_sector": src[1],
            "to_territory": t,
            "to_sector": s,
            "normal": 2,
        }
        if is_legal(pos, event):
            accepted.add((t, s))
    assert listed == accepted


def _all_sides(pos: Position, low: int = 1) -> list[tuple[str, ...]]:
    return [c for k in range(low, len(pos.factions) + 1) for c in combinations(pos.factions, k)]


def test_1_10_alliances_listed_only_in_an_open_nexus_and_within_the_limit() -> None:
    """LoLV 1.10.00-01 / AH XII / WBC house rules: alliances form in a nexus, never in turn 1,
    two factions at most under WBC; the listing is exactly what `apply` accepts."""
    turn1 = to_phase(in_turn(1), "spice_blow")
    answer = legal_choices(turn1, "alliance_formed")
    assert answer["allowed"] is False
    nexus = apply(to_phase(in_turn(2), "spice_blow"), {"type": "worm"})
    sides = legal_choices(nexus, "alliance_formed")["choices"]["sides"]
    assert sides and all(len(s) == 2 for s in sides)
    accepted = [
        list(s)
        for s in _all_sides(nexus, 2)
        if is_legal(nexus, {"type": "alliance_formed", "factions": list(s)})
    ]
    assert sides == accepted
    assert "alliance_formed" in allowed_event_types(nexus)
    assert "alliance_formed" not in allowed_event_types(to_phase(in_turn(2), "bidding"))


def test_1_00_phase_advanced_lists_the_later_phases() -> None:
    """LoLV 1.00 / AH V: phases only move forward within a turn; the next turn starts with
    turn_advanced."""
    pos = to_phase(in_turn(2), "bidding")
    phases = legal_choices(pos, "phase_advanced")["choices"]["phases"]
    assert phases == ["revival", "shipment_movement", "battle", "spice_collection", "mentat_pause"]
    end = to_phase(pos, "mentat_pause")
    assert legal_choices(end, "phase_advanced")["allowed"] is False
    assert legal_choices(end, "turn_advanced")["choices"] == {"turns": [3]}


def test_1_09_02_victory_claim_lists_the_supported_side() -> None:
    """LoLV 1.09.02.01 / WBC house rules: the victory claim lists exactly the side the
    position supports (and nothing when no side wins)."""
    forces = [at("harkonnen", t, 2) for t in ("carthag", "arrakeen", "tueks_sietch")]
    pos = position(
        forces=forces,
        phase="mentat_pause",
        per_faction={"atreides": {"reserves": 10}, "guild": {"reserves": 15}},
    )
    sides = legal_choices(pos, "victory_claimed")["choices"]["sides"]
    assert sides == [["harkonnen"]]
    accepted = [
        list(s) for s in _all_sides(pos) if is_legal(pos, {"type": "victory_claimed", "winners": list(s)})
    ]
    assert sides == accepted
    quiet = position(phase="mentat_pause")
    assert legal_choices(quiet, "victory_claimed")["allowed"] is False


def test_4_01_04_win_attempts_listed_in_the_battle_phase() -> None:
    """LoLV 4.01.04: a win attempt is confirmed at the start of the battle phase for the side
    the engine proposes."""
    forces = [at("harkonnen", t, 2) for t in ("carthag", "arrakeen", "tueks_sietch")]
    pos = position(
        forces=forces, phase="battle", per_faction={"atreides": {"reserves": 10}, "guild": {"reserves": 15}}
    )
    sides = legal_choices(pos, "win_attempt_confirmed")["choices"]["sides"]
    accepted = [
        list(s)
        for s in _all_sides(pos)
        if is_legal(pos, {"type": "win_attempt_confirmed", "factions": list(s)})
    ]
    assert sides == accepted and ["harkonnen"] in sides


def test_4_01_05_concession_sides() -> None:
    """LoLV 4.01.05 / WBC Concessions: the sides one may concede to are exactly those
    `apply` accepts."""
    pos = in_turn(3, phase="bidding")
    sides = legal_choices(pos, "concession")["choices"]["sides"]
    accepted = [
        list(s)
        for s in _all_sides(pos)
        if is_legal(pos, {"type": "concession", "to_factions": list(s), "unanimous": True})
    ]
    assert sides == accepted


def test_allowed_event_types_follow_the_phase() -> None:
    """Storm events only in the storm phase (AH VI), moves only in the movement phase
    (AH IX.C.2) or as worm rides in the spice blow (AH VII.A.2.b)."""
    storm = in_turn(2)
    allowed = allowed_event_types(storm)
    assert "storm_moved" in allowed and "forces_moved" not in allowed and "victory_claimed" not in allowed
    battle = to_phase(storm, "battle")
    assert "storm_moved" not in allowed_event_types(battle)
    assert legal_choices(battle, "storm_moved") == {
        "event_type": "storm_moved",
        "allowed": False,
        "rule": "AH VI.C",
        "choices": None,
    }
    movement = to_phase(storm, "shipment_movement")
    assert "forces_moved" in allowed_event_types(movement)
    with pytest.raises(UnknownIdentifier):
        legal_choices(movement, "teleport")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_type_with_an_accepted_event_is_allowed(data: st.DataObject) -> None:
    """Whatever random event `apply` accepts is of a type `allowed_event_types` lists."""
    _log, pos = _walk(data, "wbc2018", CLASSIC, steps=30)
    for _ in range(30):
        event = _candidate(data, pos)
        if is_legal(pos, event):
            assert event["type"] in allowed_event_types(pos), event
    assert set(allowed_event_types(pos)) <= set(EVENT_TYPES)


def test_quick_record_is_not_offered_during_setup() -> None:
    """Quick records start with turn 1 (AH III.E: setup is recorded in full), so a quick game
    in setup must not offer the stronghold grid that apply() would refuse."""
    from dune.engine.game_log import replay

    from .helpers import setup_event

    setup = replay([setup_event("wbc2018", CLASSIC, quick=True)])
    assert setup.phase == "setup"
    assert "quick_record" not in allowed_event_types(setup)
    assert legal_choices(setup, "quick_record")["allowed"] is False
    assert not is_legal(setup, {"type": "quick_record", "occupants": {}})
    storm = to_phase(setup, "storm")
    assert "quick_record" in allowed_event_types(storm)
