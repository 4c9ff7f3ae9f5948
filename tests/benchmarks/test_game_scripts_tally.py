"""The game scripts' ends counted by hand, apart from the engine: what a person keeping the
table's sheet counts from the script's own lines (the cards each bought, the forces each shipped
and revived, the battles' plans), compared with the engine's position after the script. The
script's `[final]` states this count (the places of the forces on the board are the engine's).

The counts come from the rule texts, not from the engine's data: a faction starts with one
Treachery card, the Harkonnen with two and draws one more with each card bought while below its
limit of 8 (AH Harkonnen 2, LoLV 2.05.08); every faction owns 20 forces; the starting forces on
the board are the faction sheets' (AH III, LoLV 2.xx.02: the Atreides 10 in Arrakeen, the
Harkonnen 10 in Carthag, the Guild 5 in Tuek's Sietch, the Ecaz 6 in the Imperial Basin, the
Ixians 6 in the Hidden Mobile Stronghold) plus those the script places; a leader dies in battle
only to a weapon (AH X.C.4, LoLV 1.07.06.03), and the scripts' battles play none. For the WBC
final the spice is counted too, phase by phase where the script's lines say what moves it: each
bidding round (charity and the cards' prices), revival and shipment (their prices and who is
paid). And for both scripts each faction's spice at the end is counted whole: the starting
spice, charity, bids, revivals, Ambassadors, shipments, the battles' dialed spice, and the
collection round from the spice the Spice Blows lay and the storm and worms take, at the rate of
the forces standing there (their places are the engine's, counted above), with the cities' and
Tuek's income."""

from __future__ import annotations

import json
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


#: Each faction's spice at the start, from its sheet (AH faction sheets "Start with N spice";
#: LoLV 0.12 with 2.01.01, 2.05.01, 2.07.01, 2.10.01, 2.11.01, 2.12.01).
STARTING_SPICE = {"atreides": 10, "bene_gesserit": 5, "emperor": 10, "fremen": 3, "harkonnen": 10, "guild": 5,
                  "ixians": 10, "richese": 5, "ecaz": 12, "moritani": 12}
#: The printed Spice Blow cards: territory -> (the sector of its spice, the spice it places),
#: from the board's reference data (not the engine's).
BOARD = json.loads((Path(__file__).resolve().parents[1] / "engine" / "reference" / "dune_board.json").read_text())
SPICE_CARDS = {c["territory"]: (c["sector"], c["spice"]) for c in BOARD["spice_deck"]["base"]["territory_cards"]}
SECTORS = BOARD["board"]["sector_count"]
#: The strongholds whose occupant collects an income in the collection round (AH XI.C, LoLV
#: 1.13.01) and those giving the higher collection rate (AH XI.A, LoLV 1.08.02).
INCOME = {"arrakeen": 2, "carthag": 2, "tueks_sietch": 1}
CITIES = {"arrakeen", "carthag"}


def _forces_at_collection(script: game_script.Script) -> dict[int, list[dict[str, Any]]]:
    """Where each faction's forces stand when each turn's collection round begins: the engine's
    board (its forces are counted by hand above), which the spice count below does not take."""
    start = replay([game_script.setup_event(script)])
    out = {}
    for turn, event, pos in game_script.events(script, apply, start):
        if event["type"] == "phase_advanced" and event["phase"] == "spice_collection":
            out[turn] = dump_position(pos)["forces"]
    return out


def spice_tally(script: game_script.Script) -> dict[str, int]:
    """Each faction's spice at the script's end as a person keeps it on the sheet, line by line
    of the script, from the rule texts: the storm and the Spice Blows put and take the spice on
    the board, the collection round takes it at the rate of the forces standing there."""
    factions = script.game["factions"]
    lolv = script.game["format"] == "lolv"
    spice = {f: STARTING_SPICE[f] for f in factions}
    on_board: dict[str, int] = {}  # territory -> spice lying in it
    piles: list[str | None] = [None, None]  # the territory on top of discard piles A and B
    allied: list[set[str]] = []
    standing = _forces_at_collection(script)
    storm = 0
    for t in script.turns:
        n = int(t["turn"])
        # The storm: placed in turn 1 (AH VI.A, LoLV 0.15), later it takes the spice of every
        # sector it passes over or stops in (AH VI.B, LoLV 1.01.03).
        if n == 1:
            storm = int(t["storm"])
        else:
            passed = {(storm + k) % SECTORS for k in range(1, int(t["storm"]) + 1)}
            storm = (storm + int(t["storm"])) % SECTORS
            on_board = {terr: s for terr, s in on_board.items() if SPICE_CARDS[terr][0] not in passed}
        # The double Spice Blow (WBC XXI, LoLV 1.13.02): each card on its own discard pile; a
        # territory card places its spice unless its sector is in storm (AH VII.B.1, LoLV 1.02.04);
        # a worm takes the spice of the territory on top of its pile (AH VII.B.2.a, LoLV
        # 1.02.05, 1.13.02.01-02).
        for pile, blow in enumerate(t.get("blows", [])):
            if blow == "worm":
                on_board.pop(piles[pile] or "", None)
                continue
            sector, amount = SPICE_CARDS[blow]
            if sector != storm:
                on_board[blow] = on_board.get(blow, 0) + amount
            piles[pile] = blow
        for side in t.get("alliances", []):
            allied.append(set(side))
        # CHOAM Charity: the LoLV brings 0 or 1 spice to 2 (1.03.01); AH gives 2 to a faction with
        # none, and to the Bene Gesserit from the second turn (VIII.I, VIII.I.1).
        for f in factions:
            if lolv and spice[f] <= 1:
                spice[f] = 2
            elif not lolv and (spice[f] == 0 or (f == "bene_gesserit" and n >= 2)):
                spice[f] += 2
        # Bids: paid to the Emperor when he plays and is not the buyer, else to the bank (AH
        # VIII.B.3, VIII.B.3.a; LoLV 1.04.06.02, 2.03.04).
        for bid in t.get("bids", []):
            if bid["faction"] == "none":
                break
            spice[bid["faction"]] -= int(bid["price"])
            if bid["faction"] != "emperor" and "emperor" in spice:
                spice["emperor"] += int(bid["price"])
        # Revivals: the free forces of the faction sheet, 2 a force beyond, to the bank (AH
        # IX.B.1, LoLV 1.05.01.02).
        for r in t.get("revivals", []):
            spice[r["faction"]] -= 2 * max(0, int(r["normal"]) - FREE_REVIVAL[r["faction"]])
        # The Ecaz Ambassadors: 1 for the first of the turn, 1 more for each further (2.11.06).
        for k, _amb in enumerate(t.get("ambassadors", [])):
            spice["ecaz"] -= 1 + k
        # Shipments: 1 a force into a stronghold, else 2 (AH IX.C.1.b, LoLV 1.06.02.01); the
        # Fremen free, the Guild and its ally at half rounded up (AH IX.C.1.b.ii, Guild
        # alliance); paid to the Guild when it plays and is not the shipper, else to the bank (AH
        # IX.C.1.b, LoLV 1.06.02.02, 2.06.04).
        guild_side = next((a for a in allied if "guild" in a), {"guild"})
        for s in t.get("shipments", []):
            f, count = s["faction"], int(s["normal"]) + int(s.get("special", 0))
            if f == "fremen":
                continue
            cost = count * (1 if s["to"] in STRONGHOLDS else 2)
            if f in guild_side and "guild" in spice:
                cost = -(-cost // 2)
            spice[f] -= cost
            if f != "guild" and "guild" in spice:
                spice["guild"] += cost
        # Battles: the spice each side dials is paid to the bank, whoever wins (LoLV 1.13.03.04;
        # the WBC plays the advanced game); a leader dies only to a weapon, none here.
        for fight in t.get("battles", []):
            for side in ("aggressor", "defender"):
                spice[fight[side]["faction"]] -= int(fight[side].get("spice", 0))
        # The collection round: each force in a territory with spice takes 2, 3 when its faction
        # occupies Arrakeen or Carthag, while the spice lasts (AH XI.A, LoLV 1.08.01-03); then
        # the occupants of Arrakeen, Carthag and Tuek's Sietch take 2, 2 and 1 (AH XI.C, LoLV
        # 1.13.01).
        here: dict[str, Counter[str]] = {}
        for row in standing[n]:
            here.setdefault(row["territory"], Counter())[row["faction"]] += row["normal"] + row["special"]
        for terr, lying in sorted(on_board.items()):
            takers = here.get(terr, Counter())
            assert len(takers) <= 1, "this tally knows uncontested collections only"
            for f, count in takers.items():
                rate = 3 if any(f in here.get(c, ()) for c in CITIES) else 2
                taken = min(lying, rate * count)
                spice[f] += taken
                on_board[terr] = lying - taken
        for stronghold, income in INCOME.items():
            occupants = here.get(stronghold, Counter())
            assert len(occupants) <= 1, "this tally knows strongholds held alone only"
            for f in occupants:
                spice[f] += income
    return spice


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_each_factions_spice_after_each_script_equals_the_hand_count(path: Path) -> None:
    script = game_script.load(path)
    sheets = _engine_end(script)["factions"]
    counted = spice_tally(script)
    assert {f: s["spice"] for f, s in sheets.items()} == counted
    # The script's stated end is this count.
    assert script.final["spice"] == counted


def test_the_lolv_richese_spice_after_the_worm_of_turn_2_1_13_02_02() -> None:
    """The worm turned up for pile B in turn 2 appears in Cielago North, on top of pile B: its 6
    spice and the Richese force there are lost (LoLV 1.02.05, 1.13.02.01-02). The Richese keep 3,
    pay 1 for a card in turn 3, 2 for the force shipped to the Broken Land in turn 4, which
    collects 2: they end with 2."""
    script = game_script.load(game_script.GAMES / "lolv-expansions.toml")
    assert spice_tally(script)["richese"] == 2
    snapshot = _engine_end(script)
    assert snapshot["factions"]["richese"]["spice"] == 2
    assert snapshot["factions"]["richese"]["tanks"] == 1
    assert not [row for row in snapshot["forces"] if row["territory"] == "cielago_north"]


@pytest.mark.parametrize(("name", "worms"), [
    ("lolv-expansions", [(2, "cielago_north")]),
    ("wbc-final", [(2, "red_chasm"), (6, "hagga_basin")]),
])
def test_each_worm_is_replayed_in_the_territory_on_top_of_its_pile_1_13_02_01_02(name: str, worms: list[tuple[int, str]]) -> None:
    """A turn's second card is pile B's: its worm appears in the territory on top of pile B,
    turned up in an earlier turn, not in pile A's card just turned up (LoLV 1.13.02.01-02, WBC
    XXI with AH VII.A.2.a)."""
    script = game_script.load(game_script.GAMES / f"{name}.toml")
    start = replay([game_script.setup_event(script)])
    replayed = [(turn, event["territory"]) for turn, event, _pos in game_script.events(script, apply, start)
                if event["type"] == "worm"]
    assert replayed == worms
