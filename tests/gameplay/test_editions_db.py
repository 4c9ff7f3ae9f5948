"""A game's setup fixes the edition of the engine's rulings and whether the engine removes
what storms and worms destroy: new games get the current edition (and automatic losses in full
tracking); a game row recorded before these fields existed keeps replaying as it was played."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import CURRENT, FIRST
from gameplay import engine_adapter as rules
from gameplay import services
from gameplay.models import Game, GameEvent
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.conftest import SIX
from tests.gameplay.full_game import PLACEMENTS, STORM, storm_took_forces


def _table(kind: str, judge: Any) -> Any:
    tournament = make_tournament(format="wbc")
    tournament.table_judges.add(judge)
    round_ = make_round(tournament, kind=kind)
    return seat_table(round_, make_players(tournament, 6), factions=SIX, judge=judge)


@pytest.mark.django_db
def test_a_new_full_tracking_game_has_automatic_losses_and_the_current_edition(table_judge: Any) -> None:
    game = services.game_for(_table("final", table_judge))
    setup = game.events.get(seq=1).body
    assert game.tracking == Game.Tracking.FULL
    assert setup["automatic_losses"] is True
    assert setup["edition"] == CURRENT
    assert game.position["edition"] == CURRENT


@pytest.mark.django_db
def test_a_new_quick_game_has_the_current_edition_without_automatic_losses(table: Any) -> None:
    setup = services.game_for(table).events.get(seq=1).body
    assert setup["quick"] is True
    assert setup["automatic_losses"] is False
    assert setup["edition"] == CURRENT


def _old_log(table: Any) -> list[dict[str, Any]]:
    """A full-tracking log as recorded before editions existed, as the data migration leaves
    it: its setup states `edition: 1` and has no `automatic_losses`, and the judge recorded two
    storm moves in one storm phase, which the corrected rulings refuse (LoLV 1.01.02, AH VI.C)."""
    setup = services.setup_event_for(table)
    del setup["automatic_losses"]
    setup["edition"] = FIRST
    return [
        {**setup, "quick": False, "placements": PLACEMENTS},
        {"type": "phase_advanced", "phase": "storm"},
        {"type": "storm_placed", "sector": 0},
        {"type": "phase_advanced", "phase": "mentat_pause"},
        {"type": "turn_advanced"},
        {"type": "storm_moved", "sectors": 3},
        {"type": "storm_moved", "sectors": 2},
        {"type": "spice_set", "faction": "atreides", "amount": 12},
    ]


@pytest.mark.django_db
def test_an_existing_game_without_edition_keeps_replaying_as_before(table_judge: Any) -> None:
    table = _table("final", table_judge)
    log = _old_log(table)
    before = rules.replay_bodies(log)
    game = Game.objects.create(
        table=table,
        ruleset=log[0]["ruleset"],
        tracking=Game.Tracking.FULL,
        seq=len(log),
        position=rules.dump(before),
        evaluation=rules.evaluation(before),
    )
    for seq, body in enumerate(log, start=1):
        GameEvent.objects.create(game=game, seq=seq, type=body["type"], body=body)
    assert before.setup.edition == FIRST and not before.setup.automatic_losses
    assert before.storm == 5
    # A void replays the whole stored log, the double storm move included.
    services.append_event(
        table, {"type": "void", "seq": 8, "reason": "wrong faction"}, expected_seq=8, user=table_judge
    )
    position, seq = services.current_position(table)
    assert seq == 9
    assert position.storm == 5
    assert position == rules.replay_bodies(log[:7])
    assert Game.objects.get(table=table).position["edition"] == FIRST
    # Later records keep the first edition's rulings, and the engine removes nothing itself.
    services.append_event(
        table, {"type": "phase_advanced", "phase": "shipment_movement"}, expected_seq=9, user=table_judge
    )
    # The first edition let the Fremen send reserves anywhere (not only near the Great Flat).
    shipped = services.append_event(
        table,
        {"type": "forces_placed", "faction": "fremen", "territory": "tueks_sietch", "sector": 4, "normal": 2},
        expected_seq=10,
        user=table_judge,
    )
    assert {"faction": "fremen", "territory": "tueks_sietch", "sector": 4} in [
        {k: row[k] for k in ("faction", "territory", "sector")} for row in shipped.game.position["forces"]
    ]


@pytest.mark.django_db
def test_the_table_page_shows_the_judge_what_the_storm_destroyed(table_judge: Any) -> None:
    """WBC VI.8: the storm moving over forces in the sand sends them to the tanks; the judge's
    page names the faction, the place, how many and the rule; another visitor's does not."""
    from django.test import Client

    table = storm_took_forces(table_judge, storm=False)
    client = Client()
    client.force_login(table_judge)
    assert 'id="removed"' not in client.get(f"/tables/{table.pk}/").content.decode()
    services.append_event(table, STORM, expected_seq=7, user=table_judge)
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="removed"' in html
    assert "Harkonnen: 3 forces in The Great Flat (sector 14)" in html
    assert "rule WBC VI.8" in html
    assert 'id="removed"' not in Client().get(f"/tables/{table.pk}/").content.decode()
