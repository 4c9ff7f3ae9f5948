"""A recorded 10-turn WBC heat at a six-player table, as a judge on quick tracking logs it.

Turn 1: storm placed at setup, the BG predicts the Harkonnen in turn 9. From turn 2 the storm
moves each turn; worms appear in turns 2, 4, 6 and 8 (the fourth makes the Shield Wall a
stronghold, WBC house rules), the Atreides and Fremen ally in turn 4's nexus, and at every
battle phase the judge records who stands in the strongholds and confirms the win attempts
the engine proposes. At turn 10's Mentat Pause the Atreides-Fremen alliance holds four
strongholds: an allied stronghold victory (WBC: 4 for a two-faction alliance).
"""

from __future__ import annotations

from typing import Any

FACTIONS = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")

#: Who stands where at each turn's battle phase (quick tracking).
EARLY = {"arrakeen": ["atreides"], "carthag": ["harkonnen"], "tueks_sietch": ["guild"],
         "sietch_tabr": ["fremen"], "habbanya_sietch": ["emperor"]}
#: From turn 5 the allies hold Arrakeen, Tabr and Habbanya: three of the four they need.
MIDDLE = {"arrakeen": ["atreides"], "carthag": ["harkonnen"], "tueks_sietch": ["guild"],
          "sietch_tabr": ["fremen"], "habbanya_sietch": ["fremen"]}
#: Turn 10: the allies take Tuek's Sietch as well (the Guild is out of it).
FINAL = {"arrakeen": ["atreides"], "carthag": ["harkonnen"], "tueks_sietch": ["atreides"],
         "sietch_tabr": ["fremen"], "habbanya_sietch": ["fremen"]}


def turn_events(turn: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    if turn > 1:
        events.append({"type": "turn_advanced", "turn": turn})  # the new turn opens in the storm phase
        events.append({"type": "storm_moved", "sectors": 1 + turn % 5})
    events.append({"type": "phase_advanced", "phase": "spice_blow"})
    if turn in (2, 4, 6, 8):
        events.append({"type": "worm", "territory": None, "karama": False})
        if turn == 4:
            events.append({"type": "alliance_formed", "factions": ["atreides", "fremen"]})
    events.append({"type": "phase_advanced", "phase": "battle"})
    occupants = EARLY if turn < 5 else MIDDLE if turn < 10 else FINAL
    events.append({"type": "quick_record", "occupants": occupants, "coexisting": [], "storm": None, "worms": None})
    if turn == 10:
        events.append({"type": "win_attempt_confirmed", "factions": ["atreides", "fremen"], "note": "took Tuek's"})
    events.append({"type": "phase_advanced", "phase": "mentat_pause"})
    return events


def recorded_game() -> list[dict[str, Any]]:
    """The judge's events after the automatic setup (event #1)."""
    events: list[dict[str, Any]] = [
        {"type": "bg_prediction_made", "faction": "harkonnen", "turn": 9},
        {"type": "storm_placed", "sector": 5},
        {"type": "phase_advanced", "phase": "storm"},
    ]
    for turn in range(1, 11):
        events += turn_events(turn)
    events.append({"type": "victory_claimed", "winners": ["atreides", "fremen"], "kind": None})
    return events
