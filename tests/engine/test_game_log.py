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
from dune.engine.errors import IllegalAction, InvalidEvent, RuleViolation, VoidRefused
from dune.engine.game_log import is_legal, log_of
from dune.engine.snapshot import dump_position

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
