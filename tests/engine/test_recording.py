"""One event recorded in one call (`dune.engine.recording.record`): the same event, position,
snapshot and evaluation as parsing, applying, dumping and evaluating one by one; a void replays
the log it is given; a refusal leaves the position as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dune.engine import apply, evaluate, replay
from dune.engine.codec.position import dump_position
from dune.engine.errors import InvalidEvent, RuleViolation
from dune.engine.events import event_from_dict
from dune.engine.recording import record

FULL_GAME = Path(__file__).parent / "replays" / "wbc_10_turns_6_players.jsonl"


def _bodies(count: int) -> list[dict]:
    rows = [json.loads(line) for line in FULL_GAME.read_text(encoding="utf-8").splitlines()]
    return [r for r in rows if "type" in r][:count]


def test_record_answers_what_each_step_answers() -> None:
    bodies = _bodies(40)
    before = replay(bodies[:-1])
    step = record(before, bodies[-1])
    after = apply(before, event_from_dict(bodies[-1]))
    assert step.event == event_from_dict(bodies[-1])
    assert step.body == event_from_dict(bodies[-1]).to_dict()
    assert step.position == after
    assert step.snapshot == dump_position(after)
    assert step.evaluation == evaluate(after).to_dict()
    plain = [json.loads(json.dumps(part)) for part in (step.body, step.snapshot, step.evaluation)]
    assert [json.loads(text) for text in step.texts] == plain


def test_record_takes_an_engine_event_as_it_is() -> None:
    bodies = _bodies(12)
    before = replay(bodies[:-1])
    assert record(before, event_from_dict(bodies[-1])).position == record(before, bodies[-1]).position


def test_a_void_replays_the_log_it_is_given() -> None:
    bodies = _bodies(30)
    before = replay(bodies)
    void = {"type": "void", "seq": len(bodies), "reason": "recorded by mistake"}
    step = record(before, void, log=lambda: bodies)
    assert step.position == replay([*bodies, void])
    with pytest.raises(ValueError):
        record(before, void)


def test_a_refused_event_changes_nothing() -> None:
    bodies = _bodies(12)
    before = replay(bodies)
    snapshot = dump_position(before)
    with pytest.raises(InvalidEvent):
        record(before, {"type": "no_such_event"})
    with pytest.raises(RuleViolation):
        record(before, {"type": "storm_placed", "sector": 99})
    assert dump_position(before) == snapshot
