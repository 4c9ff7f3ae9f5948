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
only to a weapon (AH X.C.4, LoLV 1.07.06.03), and the scripts' battles play none. For the WBC
final the spice is counted too, phase by phase where the script's lines say what moves it: each
bidding round (charity and the cards' prices), revival and shipment (their prices and who is
paid); the collection and the battles' spice are left to the engine."""

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


#: The WBC final's spice flows as the AH 1979 text prices them (the WBC plays it): the
#: strongholds a shipment pays 1 a force into, else 2 (AH IX.C.1.b); the Guild and its ally at
#: half, rounded up, the Fremen free from their reserves (AH IX.C.1.g, h; Guild alliance); the
#: price paid to the Guild when it plays and is not the shipper; the forces each revives free
#: (the faction sheets), 2 a force beyond (AH IX.B.1); a card's price paid to the Emperor when
#: he is not the buyer (AH VIII.B.3); CHOAM Charity to a faction with no spice, and to the Bene
#: Gesserit from the second turn (AH VIII.I, VIII.I.1).
STRONGHOLDS = {"arrakeen", "carthag", "sietch_tabr", "habbanya_sietch", "tueks_sietch"}
FREE_REVIVAL = {"atreides": 2, "bene_gesserit": 1, "emperor": 1, "fremen": 3, "harkonnen": 2, "guild": 1}


def _flows(script: game_script.Script) -> list[tuple[int, str, dict[str, int], dict[str, int]]]:
    """For each turn and phase (bidding, revival, shipment and movement): the engine's change of
    each faction's spice over the phase, and the hand count of it from the script's lines."""
    start = replay([game_script.setup_event(script)])
    spice_at: dict[tuple[int, str], dict[str, int]] = {}
    allies: dict[int, list[list[str]]] = {}
    for turn, event, pos in game_script.events(script, apply, start):
        if event["type"] == "phase_advanced":
            spice_at[(turn, event["phase"])] = {f: st.spice for f, st in pos.states.items()}
        allies[turn] = [list(a) for a in pos.alliances]
    out = []
    for t in script.turns:
        n = int(t["turn"])
        phases = [("bidding", "revival"), ("revival", "shipment_movement"), ("shipment_movement", "battle")]
        for phase, after in phases:
            engine = {f: spice_at[(n, after)][f] - spice_at[(n, phase)][f] for f in spice_at[(n, phase)]}
            hand = dict.fromkeys(engine, 0)
            if phase == "bidding":
                for f, s in spice_at[(n, phase)].items():
                    if s == 0 or (f == "bene_gesserit" and n >= 2):
                        hand[f] += 2
                for bid in t.get("bids", []):
                    if bid["faction"] == "none":
                        break
                    hand[bid["faction"]] -= int(bid["price"])
                    if bid["faction"] != "emperor":
                        hand["emperor"] += int(bid["price"])
            elif phase == "revival":
                for r in t.get("revivals", []):
                    hand[r["faction"]] -= 2 * max(0, int(r["normal"]) - FREE_REVIVAL[r["faction"]])
            else:
                guild_side = next((a for a in allies[n] if "guild" in a), ["guild"])
                for s in t.get("shipments", []):
                    f, count = s["faction"], int(s["normal"])
                    if f == "fremen":
                        continue
                    cost = count * (1 if s["to"] in STRONGHOLDS else 2)
                    if f in guild_side:
                        cost = -(-cost // 2)
                    hand[f] -= cost
                    if f != "guild":
                        hand["guild"] += cost
            out.append((n, phase, engine, hand))
    return out


def test_the_wbc_finals_spice_over_each_bidding_revival_and_shipment_equals_the_hand_count() -> None:
    script = game_script.load(game_script.GAMES / "wbc-final.toml")
    flows = _flows(script)
    assert len(flows) == 3 * len(script.turns)
    for turn, phase, engine, hand in flows:
        assert engine == hand, f"turn {turn}, {phase}"
