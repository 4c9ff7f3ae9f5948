"""The tiebreak counts of LoLV 4.01.10: active leaders in the leader pool (4.01.10.06) count
gholas for the Tleilaxu, not for the faction whose leader it was (2.08.16), and Duke Vidal for
the faction he leads for (2.11.10.11, 2.11.16, 2.12.12); spice behind the shield (4.01.10.04)
leaves out spice in front of it (bribes, 1.12.02) until the Mentat Pause collects it. LoLV
only: these tiebreak counts, the Tleilaxu, the Ecaz's Duke Vidal and spice in front of the
shield are in no other text (WBC adjudication counts spice in hand, its own suite)."""

from __future__ import annotations

from dune.engine.game_log import apply

from .helpers import evaluated, position

FACTIONS = ("atreides", "tleilaxu", "emperor", "ecaz", "harkonnen", "guild")


def _table() -> object:
    per = {f: {"spice": 10, "leader_status": {}} for f in FACTIONS}
    return position(ruleset="lolv-2.8.4", factions=FACTIONS, storm=0, phase="bidding", per_faction=per)


def test_4_01_10_06_gholas_count_for_the_tleilaxu() -> None:
    """A ghola (a dead leader, taken while the Tleilaxu have fewer than five, 2.08.16) counts
    for the Tleilaxu."""
    per = {f: {"spice": 10, "leader_status": {}} for f in FACTIONS}
    per["atreides"]["leader_status"] = {"duncan_idaho": "tanks_face_up"}
    per["tleilaxu"]["leader_status"] = {"blin": "tanks_face_up"}
    pos = position(ruleset="lolv-2.8.4", factions=FACTIONS, storm=0, phase="bidding", per_faction=per)
    before = evaluated(pos)["stats"]
    pos = apply(
        pos,
        {
            "type": "leader_changed",
            "faction": "atreides",
            "leader": "duncan_idaho",
            "status": "held",
            "captor": "tleilaxu",
        },
    )
    after = evaluated(pos)["stats"]
    assert after["atreides"]["leaders"] == before["atreides"]["leaders"]
    assert after["tleilaxu"]["leaders"] == before["tleilaxu"]["leaders"] + 1


def test_4_01_10_06_duke_vidal_counts_for_his_holder() -> None:
    pos = _table()
    before = evaluated(pos)["stats"]["harkonnen"]["leaders"]
    pos = apply(pos, {"type": "duke_vidal", "holder": "harkonnen"})
    assert evaluated(pos)["stats"]["harkonnen"]["leaders"] == before + 1
    pos = apply(pos, {"type": "duke_vidal", "holder": None})
    assert evaluated(pos)["stats"]["harkonnen"]["leaders"] == before


def test_4_01_10_04_spice_in_front_of_the_shield_is_not_counted_until_collected() -> None:
    """LoLV 1.09.01: bribe spice is collected as the Mentat Pause begins."""
    pos = apply(
        _table(), {"type": "spice_in_front", "faction": "emperor", "delta": 4, "from_faction": "guild"}
    )
    stats = evaluated(pos)["stats"]
    assert stats["guild"]["spice"] == 6 and stats["emperor"]["spice"] == 10
    assert pos.states["emperor"].spice_front == 4
    collected = apply(pos, {"type": "phase_advanced", "phase": "mentat_pause"})
    assert evaluated(collected)["stats"]["emperor"]["spice"] == 14
    assert collected.states["emperor"].spice_front == 0
