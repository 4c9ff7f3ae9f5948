"""Editions of the engine's rulings, fixed in a game's setup (`game_setup.edition`).

A game's log means what the engine made of it when it was recorded. When a ruling is
corrected to agree with the rule texts, games recorded before keep the ruling they were
played under: a data migration wrote `edition: 1` into every setup and snapshot stored before
the corrections, so their logs (voids included) replay to the same positions as before. A setup
or snapshot that names no edition (a new client, `POST /api/engine/evaluate/`) means the current
rulings: the default is the correct ruling, and old records state their own version.

The second edition brings: the storm moves once per storm phase (LoLV 1.01.02, AH VI.C); a
sector of Arrakeen, Carthag or the Imperial Basin under the storm blocks moving, shipping
and battle like any other (AH questions C.3, LoLV 1.06.02.04, WBC VI.9-10); only the Ixians
ship into the Hidden Mobile Stronghold (2.07.20); the Fremen send reserves near the Great
Flat only (2.04.05, AH IX.C.1.h, WBC IX.11); a faction allies once per nexus (1.10.01.01);
entering an ally's territory is settled at the end of the action under the LoLV (1.06.06)
and forces left beside an ally go to the tanks (1.06.06, WBC IX.3); WBC coexistence is
declared in the movement round and kept for the turn (XV.7-9); advisors under the storm
stay advisors (2.02.19).

Rulings ask `corrected(pos)` (or `sheltered(pos)` for the storm geometry); nothing else
compares edition numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the position imports the events, which import this module
    from dune.engine.position import Position

#: The rulings before the corrections (games stored before them say so: `edition: 1`).
FIRST = 1
#: The rulings agreeing with the texts on the points listed above.
CORRECTED = 2
#: What a new game records, and what a setup or snapshot without `edition` means.
CURRENT = CORRECTED
#: Every edition this engine can replay.
EDITIONS: tuple[int, ...] = (FIRST, CORRECTED)


def corrected(pos: Position) -> bool:
    """Whether the game is ruled by the corrected rulings (second edition or later)."""
    return pos.setup is not None and pos.setup.edition >= CORRECTED


def sheltered(pos: Position) -> bool:
    """Whether the Shield Wall keeps the storm off Arrakeen, Carthag and the Imperial Basin
    altogether (moving, shipping, battle): the first edition's reading, until Family Atomics.
    In the corrected rulings the wall spares them the storm's destruction only."""
    return not pos.family_atomics and not corrected(pos)
