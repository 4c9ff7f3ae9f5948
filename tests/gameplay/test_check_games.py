"""`manage.py check_games` replays every game's log and reports what the stored rows say
otherwise (DESIGN.md principle 2: the position is the fold of the log)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from gameplay import services
from gameplay.models import Game

pytestmark = pytest.mark.django_db


def run() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("check_games", stdout=out)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_check_games_prints_nothing_when_every_game_agrees_with_its_log(table: Any, table_judge: Any) -> None:
    services.game_for(table)
    services.append_event(table, {"type": "spice_set", "faction": "atreides", "amount": 7}, expected_seq=1,
                          user=table_judge)
    assert run() == (0, "")


def test_check_games_names_the_table_whose_stored_position_or_evaluation_differs(
    table: Any, table_judge: Any
) -> None:
    services.game_for(table)
    services.append_event(table, {"type": "spice_set", "faction": "atreides", "amount": 7}, expected_seq=1,
                          user=table_judge)
    game = Game.objects.get(table=table)
    position = dict(game.position)
    position["factions"]["atreides"]["spice"] = 5  # what a process's stale position would have stored
    Game.objects.filter(pk=game.pk).update(position=position, evaluation={})
    status, out = run()
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{table}: the stored position after record #2") and "factions" in lines[0]
    assert lines[1].startswith(f"{table}: the stored evaluation after record #2")
