"""Dumping and loading a position gives the same JSON as before the snapshot's fields were
declared once: at every position of every golden record (tests/engine/replays/, the battles
too), `dump_position` writes what `snapshot_dumps.json` recorded (key order included), and
`load_position` reads it back to a position that dumps to the same JSON again, as does
`read_stored_position`, the reader of a game's stored snapshot.

`python -m tests.engine.test_snapshot_golden` rewrites the record (only when a change of the
snapshot's shape is meant).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dune.engine import apply, replay
from dune.engine.codec.position import dump_position, load_position, read_stored_position

REPLAYS = Path(__file__).parent / "replays"
RECORD = REPLAYS / "snapshot_dumps.json"
FILES = sorted(p.relative_to(REPLAYS).as_posix() for p in REPLAYS.rglob("*.jsonl"))


def _text(snapshot: dict[str, Any]) -> str:
    return json.dumps(snapshot)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _dumps(name: str) -> Iterator[tuple[int, Any, dict[str, Any]]]:
    rows = [json.loads(line) for line in (REPLAYS / name).read_text(encoding="utf-8").splitlines()]
    events = [r for r in rows if "type" in r]
    pos = replay(events[:1])
    for n in range(1, len(events) + 1):
        if n > 1:
            pos = apply(pos, events[n - 1])
        yield n, pos, dump_position(pos)


def record() -> dict[str, list[str]]:
    return {name: [_digest(_text(dumped)) for _n, _pos, dumped in _dumps(name)] for name in FILES}


@pytest.mark.parametrize("name", FILES)
def test_every_golden_position_dumps_and_loads_to_the_same_json(name: str) -> None:
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))[name]
    seen = 0
    for n, pos, dumped in _dumps(name):
        text = _text(dumped)
        assert _digest(text) == recorded[n - 1], f"{name}: the dump after event {n} changed"
        again = load_position(json.loads(text))
        assert _text(dump_position(again)) == text, f"{name}: load then dump after event {n}"
        assert again == pos, f"{name}: the position loaded after event {n}"
        # A game's stored snapshot is read without proving again what the engine proved.
        assert read_stored_position(json.loads(text)) == pos, f"{name}: the stored position after event {n}"
        seen += 1
    assert seen == len(recorded) and seen > 10


if __name__ == "__main__":
    RECORD.write_text(json.dumps(record(), indent=0) + "\n", encoding="utf-8")
