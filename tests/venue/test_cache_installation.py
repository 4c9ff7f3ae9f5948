"""Cached answers are keyed by the installation (config/cache_keys.py): a new or restored
database never reads another database's answers, and an import makes every answer cached
before it unreachable."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db


def _next_request() -> None:
    """A request goes by (the test client's, which keeps the test's database connection)."""
    Client().get("/")


def test_a_new_database_never_reads_the_answers_cached_for_another() -> None:
    from venue.models import Installation

    cache.set("scoring:standings:1:0-0-0", "three games after two heats")
    _next_request()
    assert cache.get("scoring:standings:1:0-0-0") == "three games after two heats"  # the same database
    Installation.objects.all().delete()  # a reset or restored database: another installation
    _next_request()
    assert cache.get("scoring:standings:1:0-0-0") is None


def test_an_import_makes_every_answer_cached_before_it_unreachable() -> None:
    from venue import installation

    cache.set("insights:report:1:v1", "before the import")
    installation.forget_cached_answers()
    assert cache.get("insights:report:1:v1") is None
    cache.set("insights:report:1:v1", "after")
    _next_request()
    assert cache.get("insights:report:1:v1") == "after"


def test_standings_cached_for_a_reset_database_are_not_shown(client: Any, head_judge: Any) -> None:
    """The seen failure: the same tournament id and report count in a reset database showed the
    old database's standings."""
    from scoring import services as scoring
    from tests.factories import make_players, make_tournament
    from venue.models import Installation

    tournament = make_tournament(head_judge=head_judge)
    make_players(tournament, 6)
    first = scoring.scoring_for(tournament)
    _next_request()
    assert scoring.scoring_for(tournament) == first  # answered from the cache
    key_before = cache.make_key("probe")
    Installation.objects.all().delete()
    _next_request()
    assert cache.make_key("probe") != key_before
