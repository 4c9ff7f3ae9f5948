"""The phases of a turn (LoLV 1.01-1.09); the AH 1979 rounds map onto a subset.

`setup` is the time before turn 1 (LoLV 0.xx, AH III); `ended` is after the game.
"""

from __future__ import annotations

SETUP = "setup"
STORM = "storm"
SPICE_BLOW = "spice_blow"
CHOAM_CHARITY = "choam_charity"
BIDDING = "bidding"
REVIVAL = "revival"
SHIPMENT_MOVEMENT = "shipment_movement"
BATTLE = "battle"
SPICE_COLLECTION = "spice_collection"
MENTAT_PAUSE = "mentat_pause"

#: The nine LoLV phases in order (LoLV 1.01-1.09).
PHASES: tuple[str, ...] = (
    STORM,
    SPICE_BLOW,
    CHOAM_CHARITY,
    BIDDING,
    REVIVAL,
    SHIPMENT_MOVEMENT,
    BATTLE,
    SPICE_COLLECTION,
    MENTAT_PAUSE,
)

#: Every phase id a position can be in.
ALL_PHASES: frozenset[str] = frozenset(PHASES) | {SETUP}
