"""Every list in a request body is bounded (dune.text_rules.MAX_JSON_LIST): a seating of
300,000 player ids is refused at once, naming the field and the limit, before any work."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from dune.text_rules import MAX_JSON_LIST, structure_problems

pytestmark = pytest.mark.django_db


def test_a_list_over_the_limit_is_named_with_the_limit() -> None:
    problems = structure_problems({"rows": [{"ids": list(range(MAX_JSON_LIST + 1))}]})
    assert problems == {"rows[0].ids": f"has {MAX_JSON_LIST + 1} items; at most {MAX_JSON_LIST} are accepted"}
    assert structure_problems({"ids": list(range(MAX_JSON_LIST))}) == {}


def test_seating_300000_player_ids_is_refused_fast_naming_the_field_and_the_limit(judge_client: Any,
                                                                                 head_judge: Any) -> None:
    from tests.factories import make_players, make_round, make_tournament
    from tournament.models import Seat

    tournament = make_tournament(head_judge=head_judge)
    make_players(tournament, 12)
    round_ = make_round(tournament, state="planned")
    body = json.dumps({"players": list(range(100_000, 400_000))})
    started = time.perf_counter()
    answer = judge_client.post(f"/api/rounds/{round_.pk}/seating/", body, content_type="application/json")
    took = time.perf_counter() - started
    assert answer.status_code == 400
    said = json.dumps(answer.json())
    assert "players" in said and str(MAX_JSON_LIST) in said
    assert not Seat.objects.exists()
    assert took < 5, f"{took:.1f} s"  # it took 9.8 s of a worker before the bound
