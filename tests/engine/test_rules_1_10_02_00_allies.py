"""Allies: they count together for victory (LoLV 1.10.02.00-01, AH XII.E.1); players already
sharing a territory may ally (WBC XII.1-2); the Moritani's Extortion puts bank spice in front of
its shield (2.12.09.03) and its Sneak Attack still reaches the Atomics Aftermath (2.12.09.06)."""

from __future__ import annotations

from gameplay.engine.game_log import apply
from gameplay.engine.snapshot import load_position

from .helpers import at, evaluated, position, snap

MORITANI = ("atreides", "moritani", "emperor", "fremen", "harkonnen", "guild")


def test_1_10_02_00_allies_count_their_strongholds_together() -> None:
    forces = [
        at("atreides", "arrakeen"),
        at("atreides", "carthag"),
        at("emperor", "tueks_sietch"),
        at("emperor", "sietch_tabr"),
    ]
    alone = evaluated(position(ruleset="lolv-2.8.4", forces=forces))
    assert alone["win_attempts"] == []
    allied = evaluated(position(ruleset="lolv-2.8.4", forces=forces, alliances=[["atreides", "emperor"]]))
    assert allied["win_attempts"] == [["atreides", "emperor"]]


def test_wbc_xii_1_players_sharing_a_territory_may_ally() -> None:
    data = snap(
        forces=[at("atreides", "the_great_flat", 2, sector=14), at("emperor", "the_great_flat", 2, sector=14)]
    )
    pos = load_position({**data, "alliances": [["atreides", "emperor"]]})
    assert pos.alliances == (("atreides", "emperor"),)


def test_2_12_09_03_extortion_spice_waits_in_front_of_the_shield() -> None:
    pos = position(
        ruleset="lolv-2.8.4", factions=MORITANI, phase="battle", per_faction={"moritani": {"spice": 2}}
    )
    pos = apply(pos, {"type": "spice_in_front", "faction": "moritani", "delta": 5})
    assert evaluated(pos)["stats"]["moritani"]["spice"] == 2
    assert apply(pos, {"type": "phase_advanced", "phase": "mentat_pause"}).states["moritani"].spice == 7


def test_2_12_09_06_sneak_attack_reaches_the_aftermath() -> None:
    pos = position(
        ruleset="lolv-2.8.4",
        factions=MORITANI,
        storm=0,
        phase="shipment_movement",
        aftermath="carthag",
        per_faction={f: {"tanks": 0} for f in MORITANI},
    )
    ship = {"type": "forces_placed", "faction": "moritani", "territory": "carthag", "sector": 10, "normal": 5}
    assert apply(pos, ship).forces[("moritani", "carthag", 10)] == (5, 0, 0)
