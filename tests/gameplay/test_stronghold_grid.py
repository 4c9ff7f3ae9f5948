"""The quick-tracking grid lists the strongholds the engine's evaluation counts, and nothing
the page decides on its own (WBC house rules and LoLV 4.02.01: the Shield Wall after the fourth
worm; LoLV 2.07.02: the Hidden Mobile Stronghold with the Ixians)."""

from __future__ import annotations

import dataclasses

from dune.engine.evaluation import evaluate
from tests.engine.helpers import at, position, snap
from web.gameplay.page_board import grid

LOLV = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ixians")


def test_the_grid_follows_the_evaluations_strongholds() -> None:
    before = evaluate(position(ruleset="wbc2018", worms=3))
    after = evaluate(position(ruleset="wbc2018", worms=4))
    assert "shield_wall" not in before.strongholds and "shield_wall" in after.strongholds
    places = [row["place"] for row in grid(snap(ruleset="wbc2018", worms=4), after)]
    assert places[:5] == list(before.strongholds) and all(p.startswith("shield_wall@") for p in places[5:])
    assert [row["place"] for row in grid(snap(ruleset="wbc2018", worms=4), before)] == list(before.strongholds)


def test_4_02_01_lolv_hidden_mobile_stronghold_and_shield_wall_from_the_evaluation() -> None:
    data = snap(ruleset="lolv-2.8.4", factions=LOLV, worms=4, forces=[at("harkonnen", "carthag")])
    answer = evaluate(position(ruleset="lolv-2.8.4", factions=LOLV, worms=4, forces=[at("harkonnen", "carthag")]))
    rows = grid(data, answer)
    places = [row["place"] for row in rows]
    assert "hidden_mobile_stronghold" in places and any(p.startswith("shield_wall@") for p in places)
    assert next(r for r in rows if r["place"] == "carthag")["controller"] == "harkonnen"
    # An evaluation that counts fewer strongholds is what the grid shows.
    fewer = dataclasses.replace(answer, control={"carthag": "harkonnen"})
    assert [row["place"] for row in grid(data, fewer)] == ["carthag"]
