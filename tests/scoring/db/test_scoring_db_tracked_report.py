"""A report of a game the engine recorded to its end is held to the engine's decision, and its
refusals name the seated players by name."""

from __future__ import annotations

from typing import Any

import pytest

from dune.points import WinnersContradictResultError
from gameplay.services import append_event, game_for
from scoring.adapters import engine_outcome, player_names, table_seats
from tests.factories import make_seated_table
from tests.scoring.scoring_helpers import validated


@pytest.mark.django_db
def test_conceded_game_report_must_name_the_engines_winner(make_user: Any) -> None:
    """WBC Concessions: the table conceded to the Harkonnen; a report crowning the Atreides is
    refused with the engine's rule, naming the Atreides player."""
    judge = make_user("tj")
    table = make_seated_table(format="wbc", judge=judge)
    assert engine_outcome(table) is None  # no record yet: a paper game
    game = game_for(table)
    append_event(table, {"type": "concession", "to_factions": ["harkonnen"]}, expected_seq=game.seq, user=judge)
    decided = engine_outcome(table)
    assert decided is not None and decided.winners == ("harkonnen",) and decided.ended_by == "concession"
    seats = table_seats(table)
    names = player_names(table)
    player_of = {faction: player for player, faction in seats.items()}
    rows = [{"player": p, "result": "solo_stronghold" if f == "atreides" else "loss"} for p, f in seats.items()]
    with pytest.raises(WinnersContradictResultError) as info:
        validated("wbc", {"turns": 3, "ended_by": "concession", "results": rows}, seats, names=names, decided=decided)
    err = info.value
    assert err.player == player_of["atreides"] and err.rule == "WBC Concessions"
    assert "Harkonnen won with a solo stronghold victory; Atreides did not win" in str(err)
    rows = [{"player": p, "result": "solo_stronghold" if f == "harkonnen" else "loss"} for p, f in seats.items()]
    got = validated("wbc", {"turns": 3, "ended_by": "concession", "results": rows}, seats, decided=decided)
    assert [r.player for r in got.rows if r.won] == [player_of["harkonnen"]]
    assert set(names.values()) == {p.name for p in (s.player for s in table.seats.all())}
