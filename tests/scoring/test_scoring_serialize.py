"""The stored form of a filed report round-trips, exactly, and the WBC leaderboard built on it."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dune.points import (
    faction_leaderboard,
    report_to_data,
    table_result_from_data,
)
from dune.points.serialize import exact_decimal, parse_decimal
from tests.scoring.scoring_helpers import row, table, validated

SEATS = {1: "atreides", 2: "bene_gesserit", 3: "emperor", 4: "fremen", 5: "harkonnen", 6: "guild"}


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=-(10**6), max_value=10**6), places=st.integers(min_value=0, max_value=4))
def test_exact_decimal_round_trips(n: int, places: int) -> None:
    value = Fraction(n, 10**places)
    text = exact_decimal(value)
    assert Fraction(text) == value == parse_decimal(text)


def test_exact_decimal_refuses_non_terminating() -> None:
    with pytest.raises(ValueError, match="no exact decimal"):
        exact_decimal(Fraction(1, 3))


def test_report_round_trips_through_stored_form() -> None:
    report = {
        "turns": 9,
        "ended_by": "victory",
        "predicted": 5,
        "alliances": [[5, 1]],
        "results": [
            {"player": 2, "result": "bg_prediction", "tokens": 7.5, "pp": "3.3", "die": 6},
            {"player": 1, "result": "loss", "strongholds": 2, "spice": 11, "cards": 3, "leaders": 4},
            *({"player": p, "result": "loss"} for p in (3, 4, 5, 6)),
        ],
    }
    result = validated("wbc", report, SEATS, table=7, round_number=2)
    data = report_to_data(result)
    assert data["results"][0]["tokens"] == "7.5" and data["alliances"] == [[1, 5]]
    back = table_result_from_data(data, table=7, round_number=2)
    assert back == result
    # The stored form is itself a valid report (what a head judge would re-enter).
    assert validated("wbc", data, SEATS, table=7, round_number=2) == result


def test_wbc_leaderboard_orders_each_faction_best_first() -> None:
    """WBC Best Faction Awards: the leaderboard ranks each faction's normalised PP games."""
    heats = [
        table(
            row("a", "solo_stronghold", faction="fremen", pp=14),
            row("b", "loss", faction="guild", pp=7),
            turns=7,
            round_number=1,
        ),
        table(
            row("c", "solo_stronghold", faction="fremen", pp=10),
            row("d", "loss", faction="guild", pp=7),
            turns=5,
            round_number=2,
        ),
    ]
    board = faction_leaderboard(heats, limit=1)
    # Two-player tables scale by 2/6 like a 5-player one by 5/6. 14/7 and 10/5 are both exactly
    # 2 (x 1/3): listed by player id, both marked tied.
    assert [(a.player, a.tied) for a in board["fremen"]] == [("a", True)]
    full = faction_leaderboard(heats, limit=5)
    assert [(a.player, a.score, a.tied) for a in full["fremen"]] == [
        ("a", Fraction(2, 3), True),
        ("c", Fraction(2, 3), True),
    ]
    assert [(a.player, a.score) for a in full["guild"]] == [("d", Fraction(7, 15)), ("b", Fraction(1, 3))]
    with pytest.raises(ValueError):
        faction_leaderboard(heats, limit=0)
