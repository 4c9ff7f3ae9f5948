"""Builders for the tournament-layer tests: a tournament with checked-in players, via the real services."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def tournament(db: Any, head_judge: Any) -> Any:
    from tests.factories import make_tournament

    return make_tournament(head_judge=head_judge)


@pytest.fixture
def heat(tournament: Any) -> Any:
    from tournament.models import Round

    return Round.objects.create(tournament=tournament, number=1, kind="heat")


@pytest.fixture
def checked_in(tournament: Any, heat: Any) -> Any:
    """Return a function checking in `count` new players for the heat; answers the players."""
    from tests.factories import make_players
    from tournament.models import CheckIn

    def make(count: int, prefix: str = "Player") -> list[Any]:
        players = make_players(tournament, count, prefix=prefix)
        CheckIn.objects.bulk_create(CheckIn(round=heat, player=p) for p in players)
        return players

    return make
