"""Allies: they count together for victory (LoLV 1.10.02.00-01, AH XII.E.1); players already
sharing a territory may ally (WBC XII.1-2); the Moritani's Extortion puts bank spice in front of
its shield (2.12.09.03) and its Sneak Attack still reaches the Atomics Aftermath (2.12.09.06).
The alliance rules run under every ruleset; the Moritani's are LoLV-only."""

from __future__ import annotations

import pytest

from dune.engine.codec.position import load_position
from dune.engine.game_log import apply

from .helpers import ALL_RULESETS, at, evaluated, position, snap

MORITANI = ("atreides", "moritani", "emperor", "fremen", "harkonnen", "guild")


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_10_02_00_allies_count_their_strongholds_together(ruleset: str) -> None:
    """LoLV 1.10.02.00 / AH XII.E.1: allied forces count together for victory; four
    strongholds held two and two win for the alliance in every text."""
    forces = [
        at("atreides", "arrakeen"),
        at("atreides", "carthag"),
        at("emperor", "tueks_sietch"),
        at("emperor", "sietch_tabr"),
    ]
    alone = evaluated(position(ruleset=ruleset, forces=forces))
    assert alone["victory"] is None
    allied = evaluated(position(ruleset=ruleset, forces=forces, alliances=[["atreides", "emperor"]]))
    assert sorted(allied["victory"]["winners"]) == ["atreides", "emperor"]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_xii_1_players_sharing_a_territory_may_ally(ruleset: str) -> None:
    """WBC XII.1-2; nothing in AH XII.C or LoLV 1.10.01 forbids it either (what becomes of
    the shared territory is test_rules_1_06_06_ally_territory's)."""
    data = snap(
        ruleset=ruleset,
        phase="spice_blow",  # the nexus (at the Mentat Pause the LoLV constraint has parted them)
        forces=[
            at("atreides", "the_great_flat", 2, sector=14),
            at("emperor", "the_great_flat", 2, sector=14),
        ],
    )
    pos = load_position({**data, "alliances": [["atreides", "emperor"]]})
    assert pos.alliances == (("atreides", "emperor"),)


def test_2_12_09_03_extortion_spice_waits_in_front_of_the_shield() -> None:
    """LoLV only: the Moritani are an expansion faction."""
    pos = position(
        ruleset="lolv-2.8.4", factions=MORITANI, phase="battle", per_faction={"moritani": {"spice": 2}}
    )
    pos = apply(pos, {"type": "spice_in_front", "faction": "moritani", "delta": 5})
    assert evaluated(pos)["stats"]["moritani"]["spice"] == 2
    assert apply(pos, {"type": "phase_advanced", "phase": "mentat_pause"}).states["moritani"].spice == 7


def test_2_12_09_06_sneak_attack_reaches_the_aftermath() -> None:
    """LoLV only: the Moritani are an expansion faction."""
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
