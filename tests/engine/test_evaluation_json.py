"""The typed `Evaluation` answers exactly the JSON the API has always answered.

`replays/evaluations.json` holds the evaluation dicts recorded before the answer was typed, at
positions all along the golden replays (setup, every phase, battles, win attempts, the last
turn, victories, adjudication, quick tracking). The typed answer must give them back byte for
byte, key order included, and read them back unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dune.engine import apply, evaluate, replay
from dune.engine.evaluation import Evaluation
from dune.engine.position import Position

REPLAYS = Path(__file__).parent / "replays"
RECORDED: dict[str, list[list[Any]]] = json.loads((REPLAYS / "evaluations.json").read_text(encoding="utf-8"))


def _positions(name: str) -> Iterator[tuple[int, Position, dict[str, Any]]]:
    rows = [json.loads(line) for line in (REPLAYS / name).read_text(encoding="utf-8").splitlines()]
    events = [r for r in rows if "type" in r]
    wanted = dict((n, answer) for n, answer in RECORDED[name])
    pos = replay(events[:1])
    for n in range(1, len(events) + 1):
        if n > 1:
            pos = apply(pos, events[n - 1])
        if n in wanted:
            yield n, pos, wanted[n]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_to_dict_is_the_recorded_json_byte_for_byte(name: str) -> None:
    seen = 0
    for n, pos, recorded in _positions(name):
        answer = evaluate(pos)
        assert json.dumps(answer.to_dict()) == json.dumps(recorded), f"after event {n}"
        assert Evaluation.from_dict(recorded) == answer, f"after event {n}"
        seen += 1
    assert seen == len(RECORDED[name]) and seen >= 50


def test_recorded_positions_cover_every_part_of_the_answer() -> None:
    answers = [a for rows in RECORDED.values() for _n, a in rows]
    for key in ("victory", "end_of_game", "outcome", "adjudication", "pp", "battles", "win_attempts"):
        assert any(a[key] for a in answers), key
    assert any(a["quick"] for a in answers) and any(not a["quick"] for a in answers)
