"""The event log: golden replays, determinism, the fold law, corrections (void), and
quick tracking."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from dune.engine import apply, evaluate, replay
from dune.engine.battles import Battle
from dune.engine.codec.position import dump_position
from dune.engine.errors import IllegalAction, InvalidEvent, RuleViolation, VoidRefused
from dune.engine.game_log import is_legal, log_of

from .helpers import setup_event

REPLAYS = sorted((Path(__file__).parent / "replays").glob("*.jsonl"))
FULL_GAME = Path(__file__).parent / "replays" / "wbc_10_turns_6_players.jsonl"


def _read(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [r for r in rows if "type" in r], rows[-1]


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_golden_replay(path: Path) -> None:
    """Each golden replay folds to its recorded evaluation and snapshot."""
    events, expected = _read(path)
    pos = replay(events)
    assert evaluate(pos).to_dict() == expected["expected"]
    assert dump_position(pos) == expected["snapshot"]


def test_golden_replay_size() -> None:
    assert len(REPLAYS) >= 2
    events, _ = _read(FULL_GAME)
    assert len(events) >= 2000
    assert sum(1 for e in events if e["type"] == "turn_advanced") == 9  # 10 turns


def test_replay_is_deterministic_and_folds() -> None:
    """replay(a + b) == apply-fold(replay(a), b), and twice the same log gives the same position."""
    events, _ = _read(FULL_GAME)
    whole = replay(events)
    assert replay(events) == whole
    cut = 1000
    folded = replay(events[cut:], start=replay(events[:cut]))
    assert folded == whole
    assert folded.seq == whole.seq == len(events)


def _game() -> list[dict[str, Any]]:
    return [
        setup_event(),
        {"type": "phase_advanced", "phase": "storm"},
        {"type": "storm_placed", "sector": 2},
        {"type": "phase_advanced", "phase": "shipment_movement"},
        {
            "type": "forces_placed",
            "faction": "emperor",
            "territory": "the_great_flat",
            "sector": 14,
            "normal": 4,
        },
        {
            "type": "forces_moved",
            "faction": "emperor",
            "from_territory": "the_great_flat",
            "from_sector": 14,
            "to_territory": "funeral_plain",
            "to_sector": 14,
            "normal": 4,
        },
        {"type": "spice_set", "faction": "guild", "amount": 9},
    ]


def test_void_refolds_without_the_event() -> None:
    pos = replay(_game())
    fixed = apply(pos, {"type": "void", "seq": 7, "reason": "wrong amount"})
    assert fixed.states["guild"].spice == 5
    assert fixed.seq == 8 and fixed.voided == frozenset({7})
    assert fixed == replay(_game()[:6])  # same game state (bookkeeping aside)
    assert [e.type for e in log_of(fixed)][-2:] == ["spice_set", "void"]
    again = replay([*_game(), {"type": "void", "seq": 7, "reason": "wrong amount"}])
    assert again == fixed and again.voided == fixed.voided


def test_void_that_leaves_a_later_event_illegal_is_refused() -> None:
    pos = replay(_game())
    with pytest.raises(VoidRefused) as info:
        apply(pos, {"type": "void", "seq": 5, "reason": "never shipped"})
    assert "event 6 (forces_moved)" in info.value.message
    assert pos.seq == 7  # unchanged


def test_void_guards() -> None:
    pos = apply(replay(_game()), {"type": "void", "seq": 7, "reason": "typo"})
    for bad in (
        {"seq": 7, "reason": "again"},
        {"seq": 8, "reason": "a void"},
        {"seq": 99, "reason": "x"},
        {"seq": 3, "reason": "  "},
    ):
        with pytest.raises(VoidRefused):
            apply(pos, {"type": "void", **bad})


def test_events_after_the_voided_one_keep_their_numbers() -> None:
    log = [
        *_game(),
        {"type": "void", "seq": 7, "reason": "typo"},
        {"type": "spice_set", "faction": "guild", "amount": 2},
    ]
    pos = replay(log)
    pos = apply(pos, {"type": "void", "seq": 9, "reason": "also wrong"})
    assert pos.states["guild"].spice == 5 and pos.voided == frozenset({7, 9})


def test_first_event_must_be_setup_and_unknown_objects_refused() -> None:
    with pytest.raises(IllegalAction):
        replay([{"type": "storm_placed", "sector": 3}])
    with pytest.raises(InvalidEvent):
        replay([42])
    with pytest.raises(IllegalAction):
        replay([setup_event(), setup_event()])


def test_is_legal_answers_without_raising() -> None:
    pos = replay(_game())
    assert is_legal(pos, {"type": "spice_changed", "faction": "guild", "delta": -9})
    assert not is_legal(pos, {"type": "spice_changed", "faction": "guild", "delta": -10})


def test_quick_tracking_records_strongholds_only() -> None:
    """Quick tracking: the judge taps who stands in each stronghold (BG coexisting), the
    storm and the worm count; the engine decides control and win attempts and leaves the
    rest unknown."""
    log = [
        setup_event(quick=True),
        {"type": "phase_advanced", "phase": "storm"},
        {"type": "storm_placed", "sector": 5},
        {"type": "phase_advanced", "phase": "battle"},
    ]
    pos = replay(log)
    pos = apply(
        pos,
        {
            "type": "quick_record",
            "occupants": {
                "carthag": ["harkonnen", "bene_gesserit"],
                "arrakeen": ["harkonnen"],
                "tueks_sietch": ["harkonnen", "guild"],
                "shield_wall@8": ["emperor"],
            },
            "coexisting": ["carthag"],
            "storm": 6,
            "worms": 4,
        },
    )
    ev = evaluate(pos)
    assert ev.control == {
        "carthag": "harkonnen",
        "arrakeen": "harkonnen",
        "tueks_sietch": None,
        "sietch_tabr": None,
        "habbanya_sietch": None,
        "shield_wall": "emperor",
    }
    assert ev.win_attempts == (("harkonnen",),)
    assert ev.battles == (Battle("tueks_sietch", ("harkonnen", "guild")),)
    assert ev.stats["harkonnen"].forces is None and ev.stats["harkonnen"].tokens is None
    assert ev.pp["bene_gesserit"] == Fraction(1, 10)
    with pytest.raises(IllegalAction):
        apply(
            pos,
            {
                "type": "forces_placed",
                "faction": "emperor",
                "territory": "carthag",
                "sector": 10,
                "normal": 1,
            },
        )
    with pytest.raises(RuleViolation):
        apply(pos, {"type": "quick_record", "occupants": {"the_great_flat": ["emperor"]}})
    with pytest.raises(RuleViolation):
        apply(pos, {"type": "quick_record", "occupants": {"carthag": ["harkonnen", "guild", "emperor"]}})
    with pytest.raises(RuleViolation):
        apply(pos, {"type": "quick_record", "occupants": {}, "worms": 3})


def _shipment_first() -> list[dict[str, Any]]:
    """The log of `_game` with the Emperor's shipment left out: the move that follows is refused."""
    return [e for e in _game() if e["type"] != "forces_placed"]


def test_insert_places_an_event_before_a_later_one_and_keeps_the_numbers() -> None:
    """An insert counts its event before event `before`; the log keeps every record and number,
    the insert is the last one, and a void of the insert takes the event out again."""
    log = [*_game()[:4], _game()[6]]  # setup .. shipment phase, then the Guild's spice
    pos = replay(log)
    shipment, move = _game()[4], _game()[5]
    pos = apply(pos, {"type": "insert", "before": 5, "event": shipment, "reason": "entered late"})
    assert pos.seq == 6 and pos.forces[("emperor", "the_great_flat", 14)] == (4, 0, 0)
    assert [e.type for e in log_of(pos)] == [*(e["type"] for e in log), "insert"]
    pos = apply(pos, move)  # the move holds after the inserted shipment
    assert pos.forces[("emperor", "funeral_plain", 14)] == (4, 0, 0)
    assert replay(log_of(pos)) == pos
    with pytest.raises(VoidRefused) as info:  # the move still rests on the inserted shipment
        apply(pos, {"type": "void", "seq": 6, "reason": "never shipped"})
    assert "event 7 (forces_moved)" in info.value.message


def test_insert_guards() -> None:
    """Refused, naming the field: no reason, no such event, before the setup, a correction or a
    setup inserted; refused with the rule of the event that would not hold."""
    pos = replay([*_game()[:4], _game()[6]])
    shipment = _game()[4]
    for bad, field in (
        ({"before": 5, "event": shipment, "reason": " "}, "reason"),
        ({"before": 6, "event": shipment, "reason": "x"}, "before"),
        ({"before": 1, "event": shipment, "reason": "x"}, "before"),
    ):
        with pytest.raises(RuleViolation) as info:
            apply(pos, {"type": "insert", **bad})
        assert info.value.field == field
    for inner in ({"type": "void", "seq": 3, "reason": "x"}, setup_event()):
        with pytest.raises(InvalidEvent):
            apply(pos, {"type": "insert", "before": 5, "event": inner, "reason": "x"})
    with pytest.raises(RuleViolation) as info:  # a move before the phase it belongs to
        apply(pos, {"type": "insert", "before": 3, "event": _game()[5], "reason": "x"})
    assert "inserted by event 6 before event 3" in info.value.message
    assert pos.seq == 5


def test_insertion_point_is_the_latest_place_the_event_holds() -> None:
    from dune.engine.game_log import insertion_point

    pos = replay([*_game()[:4], _game()[6], {"type": "spice_set", "faction": "guild", "amount": 3}])
    assert insertion_point(pos, _game()[4]) is None  # it holds at the end: nothing to insert
    moved = replay(_shipment_first()[:4])
    assert insertion_point(moved, _game()[5]) is None  # nowhere: nothing was shipped
    late = apply(replay(_game()[:5]), {"type": "phase_advanced", "phase": "battle"})
    late = apply(late, {"type": "spice_set", "faction": "guild", "amount": 3})
    assert insertion_point(late, _game()[5]) == 6  # before the phase moved on
