"""`POST /api/engine/evaluate/` answers the golden replays' recorded evaluations unchanged:
the same keys in the same order with the same values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

URL = "/api/engine/evaluate/"
REPLAYS = sorted((Path(__file__).parents[1] / "engine" / "replays").glob("*.jsonl"))
#: Evaluations recorded along each replay, keys in the order the API answers them.
RECORDED = (Path(__file__).parents[1] / "engine" / "replays" / "evaluations.json").read_text(encoding="utf-8")


def _ordered(text: str | bytes) -> Any:
    """JSON with every object as its list of (key, value) pairs, so key order counts."""
    return json.loads(text, object_pairs_hook=list)


@pytest.mark.django_db
@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_evaluate_answers_the_recorded_json(api_client: Any, path: Path) -> None:
    snapshot = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["snapshot"]
    along = dict(_ordered(RECORDED))[path.name]
    final = max(along, key=lambda row: row[0])[1]  # the evaluation after the last event
    response = api_client.post(URL, snapshot, format="json")
    assert response.status_code == 200, response.content
    assert _ordered(response.content) == final
