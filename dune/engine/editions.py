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

The third edition refuses what the texts refuse around the expansion pieces, bribes and BG
tokens, where the earlier editions took the judge's word: a No-Field token counts for the
occupancy limit (2.10.11 with 1.06.02.05); Terror tokens are placed and moved at the Mentat
Pause only (2.12.05); Ambassadors are placed after revival, in the shipment and movement
phase (2.11.05), never the Moritani's (2.11.10); Duke Vidal never joins a leader pool at the
Mentat Pause (2.12.13); bribes are not paid between allies (1.12.01), before the first storm
(1.12.04) or once the Mentat Pause has begun (1.12.05), and under the WBC spice changes hands
in the collection round only (WBC XIII.1); advisors never flip to fighters beside an ally,
Ecaz or not (2.02.18); BG fighters and advisors never share a territory (2.02.11, 2.02.13);
Family Atomics needs forces of the player on or next to the Shield Wall (3.01.07) that are
not advisors or coexisting (2.02.12, WBC VI.4); and `load_position` refuses the positions
these rules make impossible (`impossible.py`). It also rules that under AH the BG is assumed
coexisting where it shares a territory unless it says otherwise (AH XV.B), that a Karama worm
opens no nexus under AH (AH questions A.8), that an Ambassador may go into the HMS (2.11.05
with 2.07.17) and goes back to the supply when the storm passes (2.11.09, automatic losses),
that the Karama card behind a shipment-phase HMS move is recorded (1.14.07), that the
Moritani have six Terror tokens (2.12.03) and discard down at the Atomics (2.12.09.02), and
that the LoLV Advanced abilities apply only when the setup chose the Advanced game (1.13.00,
`advanced`). Old positions and logs of the first two editions keep loading and replaying.

The fourth edition accounts for the tokens off the board and the Karama cards, where the
third took the judge's word: the token supplies (a revealed No-Field number already face up in
front of the Richese shield is refused, 2.10.13, and so is a No-Field shipment with none left
in the supply, 2.10.10; `no_field_supply`; once the Ecaz Ambassador supply is recorded, only its
Ambassadors are placed, 2.11.05; `ambassador_supply`; and `load_position` refuses the supplies
the texts make impossible, 2.10.03, 2.10.13, 2.11.03, 2.11.08, 2.11.10); the Karama card
recorded with the worm it enables (only with the Fremen in the game, 1.14.03, WBC XVII.8, AH
questions A.8, and under the LoLV in the Advanced game, 1.13.00, 1.13.05); and the LoLV
once-a-game Karama powers (1.14.00: the Fremen's worm, the Emperor's revival, the Ixians' HMS
move; `karama`). In every edition the supplies are tracked once recorded, and the Karama flags
no earlier log could hold (on a shipment, a revival, a card) are checked; logs of the first
three editions keep meaning what they meant.

The fifth edition checks the limits a turn has, where the fourth took the judge's word: the
storm moves at most ten sectors (LoLV 1.01.02 with 3.01.23, AH VI.C, WBC VI.3); a faction
revives at most three forces a turn (LoLV 1.05.01, AH IX.B.2), one Fedaykin (2.04.20, AH
IX.B.4) and one Sardaukar (2.03.11, AH IX.B.5), beyond which only the Tleilaxu (2.08.08,
2.08.11), the Tleilaxu Ghola card (3.01.20, AH IX.B.2, AH questions A.6) and the Emperor's
ally (2.03.07) revive; a leader is captured only by the Harkonnen after a battle (the battle
phase, an active leader, the LoLV Advanced game: 2.05.10, AH X.B.2.a.ii), and the captives go
home at once when every Harkonnen leader of its own is dead (2.05.11, AH X.B.2.a.ii), in logs
and positions; and under a standing Shield Wall the storm spares an Ambassador in Arrakeen or
Carthag as it spares the forces there (LoLV 1.01.04, 2.11.09). Logs of the first four
editions keep meaning what they meant. (The battle event, 1.07, is new: no older log holds
one, so it is checked in full in every edition.)

The sixth edition checks the order of the shipment and movement phase, where the fifth took
the judge's word: the factions ship and move one after the other in storm order, each its one
shipment before its movement (LoLV 1.06.01-02, AH IX.C, IX.C.1.a, WBC IX.1), and only the Guild
goes out of turn (AH IX.C.a; LoLV 2.06.12, in the Advanced game); the Bene Gesserit's token
sent along with another faction's shipment is not a turn of its own (AH IX.C.1.e, LoLV
2.02.05; `turn_order`). Logs of the first five editions keep meaning what they meant.

The seventh edition counts the Spice Blows of a turn, where the sixth took the judge's word:
one a spice blow phase (AH VII.A, LoLV 1.02.04), two where the game plays the double spice
blow (WBC Rule Set: AH XXI; LoLV 1.13.02 in the Advanced game; a format's `double_spice_blow`).
Logs of the first six editions keep meaning what they meant.

The eighth edition checks the order of the battles, where the seventh took the judge's word:
the first player in storm order is the aggressor until all its battles are fought, then the
next (AH X.A.3, WBC X.1, LoLV 1.07.02); a battle is refused while a faction earlier in that
order than both sides still has a battle to fight. Logs of the first seven editions keep
meaning what they meant.

The ninth edition plays each ruleset's own battle rules and the last limits of a position,
where the eighth applied one reading at every table or took the judge's word: the rulings that
differ between rulesets are facts of each ruleset's data (`Ruleset.battle`), such as what a
traitor call gives back (LoLV 1.07.06.06.00 against AH X.C.8, WBC XV.3), which cards a winner
keeps (AH X.C.6, LoLV 1.07.06.05) and which bad plans are repaired rather than refused (WBC
X.12, X.13, X.15, AH X.B.2.a); a leader killed a second time goes to the tanks face down
(1.05.04, AH IX.D.5); the Suboids count half in the LoLV Basic game too (2.07.14); the CHOAM
receive half of each dialing payment (2.09.20); the BG prediction is revealed only when it came
true (2.02.03, AH IV.A); the Moritani set Duke Vidal aside at the Mentat Pause (2.12.13); a game
whose time ran out states its adjudicated result at the Mentat Pause of its last turn (WBC
Preliminary Heat Duration and Adjudication, LoLV 4.01.10); the Tleilaxu Ghola card is used once
a turn (3.01.20, AH questions A.6); a Spice Blow card whose sector is in the storm is
recorded, turned up with no spice placed (AH VII.A.1, LoLV 1.02.04); under AH the Bene
Gesserit's tokens ship into a stronghold two others hold, coexisting there (AH IX.C.1.d, XIV.B,
XV.B); and `load_position` refuses the positions these rules make
impossible (a leader held by its own faction, a captive in the LoLV Basic game, allies sharing a
territory at the Mentat Pause, Duke Vidal without the Ecaz or the Moritani, three-faction
alliances at a WBC final: `impossible.check_limits`). Logs of the first eight editions keep
meaning what they meant. (The battle event's new fields, `keep`, `keep_captive`,
`lost_sectors`, `full_strength`, `stone_burner_kill`, `voice` and `prescience`, no earlier log
holds: they are checked in every edition.)

Rulings ask `corrected(pos)`, `refined(pos)`, `accounted(pos)`, `limited(pos)`, `ordered(pos)`,
`counted(pos)`, `sequenced(pos)` or `distinguished(pos)` (or
`sheltered(pos)` for the storm geometry); nothing else compares edition numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the position imports the events, which import this module
    from dune.engine.position import Position

#: The rulings before the corrections (games stored before them say so: `edition: 1`).
FIRST = 1
#: The rulings agreeing with the texts on the points listed above.
CORRECTED = 2
#: The rulings that also refuse what the texts refuse around the expansion pieces, bribes
#: and BG tokens (listed above).
REFINED = 3
#: The rulings that also account for the token supplies, the Karama cards recorded with the
#: events they enable and the once-a-game Karama powers (listed above).
ACCOUNTED = 4
#: The rulings that also check the limits a turn has (listed above).
LIMITED = 5
#: The rulings that also check the order of the shipment and movement phase (listed above).
ORDERED = 6
#: The rulings that also count the Spice Blows of a turn (listed above).
COUNTED = 7
#: The rulings that also check the order of the battles (listed above).
SEQUENCED = 8
#: The rulings that also play each ruleset's own battle rules and the last limits of a
#: position (listed above).
DISTINGUISHED = 9
#: What a new game records, and what a setup or snapshot without `edition` means.
CURRENT = DISTINGUISHED
#: Every edition this engine can replay.
EDITIONS: tuple[int, ...] = (
    FIRST,
    CORRECTED,
    REFINED,
    ACCOUNTED,
    LIMITED,
    ORDERED,
    COUNTED,
    SEQUENCED,
    DISTINGUISHED,
)


def corrected(pos: Position) -> bool:
    """Whether the game is ruled by the corrected rulings (second edition or later)."""
    return pos.setup is not None and pos.setup.edition >= CORRECTED


def sheltered(pos: Position) -> bool:
    """Whether the Shield Wall keeps the storm off Arrakeen, Carthag and the Imperial Basin
    altogether (moving, shipping, battle): the first edition's reading, until Family Atomics.
    In the corrected rulings the wall spares them the storm's destruction only."""
    return not pos.family_atomics and not corrected(pos)


def refined(pos: Position) -> bool:
    """Whether the game is ruled by the third edition or later: the refusals around the
    expansion pieces, bribes and BG tokens listed above."""
    return pos.setup is not None and pos.setup.edition >= REFINED


def accounted(pos: Position) -> bool:
    """Whether the game is ruled by the fourth edition or later: the token supplies, the Karama
    worm's checks and the once-a-game Karama powers listed above."""
    return pos.setup is not None and pos.setup.edition >= ACCOUNTED


def limited(pos: Position) -> bool:
    """Whether the game is ruled by the fifth edition or later: the limits a turn has, listed
    above."""
    return pos.setup is not None and pos.setup.edition >= LIMITED


def ordered(pos: Position) -> bool:
    """Whether the game is ruled by the sixth edition or later: the order of the shipment and
    movement phase, listed above."""
    return pos.setup is not None and pos.setup.edition >= ORDERED


def counted(pos: Position) -> bool:
    """Whether the game is ruled by the seventh edition or later: the Spice Blows of a turn are
    counted, as listed above."""
    return pos.setup is not None and pos.setup.edition >= COUNTED


def sequenced(pos: Position) -> bool:
    """Whether the game is ruled by the eighth edition or later: the battles are fought in
    storm order, as listed above."""
    return pos.setup is not None and pos.setup.edition >= SEQUENCED


def distinguished(pos: Position) -> bool:
    """Whether the game is ruled by the ninth edition or later: each ruleset's own battle rules
    and the last limits of a position, as listed above."""
    return pos.setup is not None and pos.setup.edition >= DISTINGUISHED


#: The setup option that chooses the LoLV Advanced game (1.13.00).
ADVANCED = "advanced"


def advanced(pos: Position) -> bool:
    """Whether the Advanced abilities apply (LoLV 1.13.00): always where the ruleset has one
    game, and in games of the first two editions (which played them all); from the third,
    only when the setup chose the Advanced game."""
    setup = pos.setup
    if setup is None or not setup.ruleset.basic_or_advanced or not refined(pos):
        return True
    return ADVANCED in setup.options
