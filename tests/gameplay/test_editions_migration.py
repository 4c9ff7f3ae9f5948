"""The data migration that makes every game stored before the corrections state `edition: 1`.

A setup or snapshot without `edition` now means the current rulings, so a game stored before
the editions existed must say it was played under the first; after the migration it replays,
voids included, to exactly the snapshot it had stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from dune.engine.editions import FIRST
from gameplay import engine_adapter as rules
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.conftest import SIX
from tests.gameplay.test_editions_db import _old_log as first_edition_log

BEFORE = [("gameplay", "0006_event_author_kept")]
AFTER = [("gameplay", "0007_stored_games_state_their_edition")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _old_log(table: Any) -> list[dict[str, Any]]:
    """As recorded before editions existed: the same log as the first edition's, its setup
    naming no `edition` (two storm moves in one storm phase, which the corrected rulings refuse,
    LoLV 1.01.02, AH VI.C)."""
    log = first_edition_log(table)
    del log[0]["edition"]
    return log


@pytest.fixture
def back_to_the_latest_migrations() -> Iterator[None]:
    """The tests after this one need every migration applied again, not only `AFTER`'s."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_migrations")
def test_an_old_stored_game_replays_to_its_stored_snapshot_after_the_migration(table_judge: Any) -> None:
    tournament = make_tournament(format="wbc")
    tournament.table_judges.add(table_judge)
    table = seat_table(make_round(tournament, kind="final"), make_players(tournament, 6), factions=SIX, judge=table_judge)
    log = _old_log(table)
    old_apps = _migrate(BEFORE)
    try:
        Game = old_apps.get_model("gameplay", "Game")
        GameEvent = old_apps.get_model("gameplay", "GameEvent")
        # What the engine of the time stored: the first edition's position, without `edition`.
        first = [{**log[0], "edition": FIRST}, *log[1:]]
        stored = rules.dump(rules.replay_bodies(first))
        del stored["edition"]
        game = Game.objects.create(
            table_id=table.pk, ruleset=log[0]["ruleset"], tracking="full", seq=len(log), position=stored, evaluation={}
        )
        for seq, body in enumerate(log, start=1):
            GameEvent.objects.create(game=game, seq=seq, type=body["type"], body=body)
    finally:
        new_apps = _migrate(AFTER)
    Game = new_apps.get_model("gameplay", "Game")
    GameEvent = new_apps.get_model("gameplay", "GameEvent")
    setup = GameEvent.objects.get(game__table_id=table.pk, seq=1).body
    assert setup["edition"] == FIRST
    bodies = [e.body for e in GameEvent.objects.filter(game__table_id=table.pk).order_by("seq")]
    replayed = rules.replay_bodies(bodies)
    assert replayed.storm == 5  # the second storm move stands, as it was recorded
    snapshot = Game.objects.get(table_id=table.pk).position
    assert snapshot["edition"] == FIRST
    assert rules.load(snapshot) == replayed
