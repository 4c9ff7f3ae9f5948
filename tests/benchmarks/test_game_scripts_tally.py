"""The game scripts' ends counted by hand, apart from the engine: what a person keeping the
table's sheet counts from the script's own lines (the cards each bought, the forces each shipped
and revived, the battles' plans), compared with the engine's position after the script. The
script's `[final]` is the engine's own; this tally is not.

The counts come from the rule texts, not from the engine's data: a faction starts with one
Treachery card, the Harkonnen with two and draws one more with each card bought while below its
limit of 8 (AH Harkonnen 2, LoLV 2.05.08); every faction owns 20 forces; the starting forces on
the board are the faction sheets' (AH III, LoLV 2.xx.02: the Atreides 10 in Arrakeen, the
Harkonnen 10 in Carthag, the Guild 5 in Tuek's Sietch, the Ecaz 6 in the Imperial Basin, the
Ixians 6 in the Hidden Mobile Stronghold) plus those the script places; a leader dies in battle
only to a weapon (AH X.C.4, LoLV 1.07.06.03), and the scripts' battles play none."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from benchmarks.games import script as game_script
from dune.engine.codec.position import dump_position
from dune.engine.game_log import apply, replay

SCRIPTS = sorted(game_script.GAMES.glob("*.toml"))
FORCES = 20
LEADERS = 5
HARKONNEN_HAND = 8
#: The forces the faction sheets put on the board at the start (before the script's own).
ON_THE_BOARD = {"atreides": 10, "harkonnen": 10, "guild": 5, "ecaz": 6, "ixians": 6}


def tally(script: game_script.Script) -> dict[str, dict[str, int]]:
    """Cards, forces in reserve and active leaders by faction at the script's end, counted the
    way a person keeps the sheet."""
    factions = script.game["factions"]
    cards = {f: 2 if f == "harkonnen" else 1 for f in factions}
    reserves = {f: FORCES - ON_THE_BOARD.get(f, 0) for f in factions}
    for p in script.game.get("placements", []):
        reserves[p["faction"]] -= int(p.get("normal", 0)) + int(p.get("special", 0))
    for turn in script.turns:
        for bid in turn.get("bids", []):
            f = bid["faction"]
            if f == "none":
                break
            cards[f] += 1
            if f == "harkonnen" and cards[f] < HARKONNEN_HAND:
                cards[f] += 1
        for row in turn.get("revivals", []):
            reserves[row["faction"]] += int(row.get("normal", 0))
        for row in turn.get("shipments", []):
            reserves[row["faction"]] -= int(row.get("normal", 0)) + int(row.get("special", 0))
        for fight in turn.get("battles", []):
            for side in ("aggressor", "defender"):
                assert not fight[side].get("weapon"), "this tally knows battles without weapons only"
    return {"cards": cards, "reserves": reserves, "leaders": {f: LEADERS for f in factions}}


def _engine_end(script: game_script.Script) -> dict[str, Any]:
    start = replay([game_script.setup_event(script)])
    *_, (_turn, _event, end) = game_script.events(script, apply, start)
    return dump_position(end)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_the_engines_position_after_each_script_equals_the_hand_count(path: Path) -> None:
    script = game_script.load(path)
    counted = tally(script)
    snapshot = _engine_end(script)
    sheets = snapshot["factions"]
    assert {f: s["cards"] for f, s in sheets.items()} == counted["cards"]
    assert {f: s["reserves"] for f, s in sheets.items()} == counted["reserves"]
    assert {f: s["leaders"] for f, s in sheets.items()} == counted["leaders"]
    # Every force not in reserve is on the board or in the tanks: the engine loses none.
    on_board = Counter()
    for row in snapshot["forces"]:
        on_board[row["faction"]] += row["normal"] + row["special"] + row["advisors"]
    assert {f: on_board[f] + sheets[f]["tanks"] for f in sheets} == {f: FORCES - n for f, n in counted["reserves"].items()}
    # And the script's stated end says the same as the hand count where it states it.
    assert script.final["cards"] == counted["cards"] and script.final["leaders"] == counted["leaders"]
