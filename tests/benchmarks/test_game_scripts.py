"""The benchmark's game scripts (`benchmarks/games/*.toml`) replayed through the rules engine:
every event a judge records for them is accepted, and the position at the end is the one each
script states (forces, spice, cards, leaders, tanks and the winners)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.games import script as game_script
from dune.engine.codec.position import dump_position
from dune.engine.game_log import apply, replay

SCRIPTS = sorted(game_script.GAMES.glob("*.toml"))


def test_there_are_the_two_games() -> None:
    assert {p.name for p in SCRIPTS} >= {"wbc-final.toml", "lolv-expansions.toml"}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_each_script_replays_through_the_engine_to_its_stated_end(path: Path) -> None:
    script = game_script.load(path)
    start = replay([game_script.setup_event(script)])
    played = list(game_script.events(script, apply, start))
    assert {turn for turn, _event, _after in played} == {int(t["turn"]) for t in script.turns}
    assert game_script.final_of(dump_position(played[-1][2])) == game_script.stated(script)


def test_the_wbc_final_is_played_to_a_victory_after_eight_turns_or_more() -> None:
    script = game_script.load(game_script.GAMES / "wbc-final.toml")
    assert len(script.turns) >= 8 and script.final["winners"]
