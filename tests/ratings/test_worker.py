"""Filing a report schedules the recompute on the real Celery worker once the filing commits;
reopening it schedules another (the game stops counting)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from ratings.models import PersonRating, RatingRun
from scoring import services as scoring
from tests.factories import make_tournament
from tests.ratings.helpers import play, register

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(predicate: Callable[[], bool], timeout: float = 10) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_filing_and_reopening_recompute_on_the_worker(
    celery_worker: Any, head_judge: Any, settings: Any
) -> None:
    settings.RATINGS_RECOMPUTE_ON_CHANGE = True
    tournament = make_tournament(head_judge=head_judge)
    players = register(tournament, [(f"P{i}", f"p{i}@example.org") for i in range(5)])
    (filed,) = play(tournament, 1, [(players, {0: "solo_stronghold"})], user=head_judge)
    assert wait_for(lambda: PersonRating.objects.count() == 5)
    winner = PersonRating.objects.get(person_id=players[0].person_id)
    assert winner.games == 1 and winner.mu > 25
    first_run = RatingRun.objects.get().recomputed_at
    scoring.reopen_report(filed, user=head_judge, reason="wrong winner")
    assert wait_for(lambda: PersonRating.objects.count() == 0)
    assert RatingRun.objects.get().recomputed_at > first_run
