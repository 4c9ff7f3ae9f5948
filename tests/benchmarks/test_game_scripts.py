"""The benchmark's game scripts (`benchmarks/games/*.toml`) replayed through the rules engine:
every event a judge records for them is accepted, and the position at the end is the one each
script states (forces, spice, cards, leaders, tanks and the winners)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.games import script as game_script
from dune.engine.game_log import apply, replay
from dune.engine.snapshot import dump_position

SCRIPTS = sorted(game_script.GAMES.glob("*.toml"))


def final_of(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot in the terms of a script's `[final]`."""
    sheets = snapshot["factions"]
    forces = [
        {k: v for k, v in row.items() if v or k in ("faction", "territory", "normal")}
        for row in snapshot["forces"]
        if row["normal"] + row["special"] + row["advisors"]
    ]
    return {
        "turn": snapshot["turn"],
        "spice": {f: s["spice"] for f, s in sheets.items()},
        "cards": {f: s["cards"] for f, s in sheets.items()},
        "leaders": {f: s["leaders"] for f, s in sheets.items()},
        "tanks": {f: s["tanks"] for f, s in sheets.items()},
        "forces": sorted(forces, key=lambda r: (r["faction"], r["territory"], r.get("sector") or -1)),
        "winners": (snapshot.get("outcome") or {}).get("winners", []),
    }


def stated(script: game_script.Script) -> dict[str, Any]:
    final = dict(script.final)
    final["forces"] = sorted((dict(r) for r in final.get("forces", [])),
                             key=lambda r: (r["faction"], r["territory"], r.get("sector") or -1))
    final.setdefault("winners", [])
    return final


def test_there_are_the_two_games() -> None:
    assert {p.name for p in SCRIPTS} >= {"wbc-final.toml", "lolv-expansions.toml"}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_each_script_replays_through_the_engine_to_its_stated_end(path: Path) -> None:
    script = game_script.load(path)
    start = replay([game_script.setup_event(script)])
    played = list(game_script.events(script, apply, start))
    assert {turn for turn, _event, _after in played} == {int(t["turn"]) for t in script.turns}
    assert final_of(dump_position(played[-1][2])) == stated(script)


def test_the_wbc_final_is_played_to_a_victory_after_eight_turns_or_more() -> None:
    script = game_script.load(game_script.GAMES / "wbc-final.toml")
    assert len(script.turns) >= 8 and script.final["winners"]
