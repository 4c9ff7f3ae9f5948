"""The Karama card recorded with the events it enables.

The judge records the card on the event it makes possible (`karama: true`); the engine checks
that the card could do it. Recorded uses (the events the engine models):

- `worm.karama`: the Fremen place a worm (LoLV 1.14.03, WBC XVII.8, AH questions A.8);
- `hms_moved.karama`: the Ixians move the HMS in the shipment and movement phase (1.14.07);
- `forces_placed.karama`: a shipment bought at the Guild rate (3.01.11.03, WBC Player Aid 18);
- `forces_revived.karama` and `leader_changed.karama`: the Emperor revives up to three
  forces or a leader for free (1.14.02, WBC XVII.9);
- `cards_set.karama`: a card bought without paying (3.01.11.04, WBC VIII.10) or a faction's
  Karama power over cards (1.14.04, 1.14.09, 1.14.10; WBC XVII.1).

The faction Karama powers (1.14) belong to the Advanced game under the LoLV (1.13.00,
1.13.05), each once a game (1.14.00; `Ruleset.karama_power_once_per_game`, from the fourth
edition); under the WBC "once" means once per card (WBC Player Aid 8). A flag new to an event
cannot occur in an older log, so its checks apply in every edition; the checks added to the
Karama worm and HMS flags, which older logs hold, and the once-a-game powers apply from the
fourth edition (`editions.accounted`), so games of the third keep meaning what they meant.
"""

from __future__ import annotations

from typing import Any

from dune.engine.checks import refuse
from dune.engine.editions import accounted, advanced
from dune.engine.events import CardsSet, ForcesPlaced, ForcesRevived, LeaderChanged
from dune.engine.factions import EMPEROR, FREMEN
from dune.engine.names import faction_name, phase_name, phases_text
from dune.engine.phases import SHIPMENT_MOVEMENT
from dune.engine.position import Position

#: The forces the Emperor revives with a Karama card (LoLV 1.14.02, WBC XVII.9).
KARAMA_REVIVAL = 3
#: Leader states a Karama revival brings a leader back from.
_IN_TANKS = ("tanks_face_up", "tanks_face_down")


def _need_advanced(pos: Position, power: str, rule: str) -> None:
    if not advanced(pos):
        refuse(
            pos,
            "1.14.00",
            f"{power} with a Karama ({rule}) is an Advanced power (1.13.00, 1.13.05)",
            pos.phase,
            field="karama",
        )


def once_a_game(pos: Position, faction: str) -> dict[str, Any]:
    """The faction's Karama power, used once a game where the ruleset says so (LoLV 1.14.00,
    fourth edition): refuses a second use, else marks this one."""
    if not (pos.ruleset.karama_power_once_per_game and accounted(pos)):
        return {}
    if faction in pos.karama_used:
        refuse(
            pos,
            "karama_once",
            f"{faction_name(faction)} has already used its Karama power: once a game",
            faction,
            field="karama",
        )
    return {"karama_used": pos.karama_used | {faction}}


def karama_worm(pos: Position) -> dict[str, Any]:
    """A worm the Fremen place with a Karama card (fourth edition): the Fremen play, in the
    Advanced game under the LoLV, once a game there (1.14.03, 1.14.00; WBC XVII.8)."""
    if not accounted(pos):
        return {}
    if FREMEN not in pos.playing:
        refuse(
            pos,
            "karama_worm_fremen",
            "only the Fremen place a worm with a Karama card, and they do not play here",
            True,
            field="karama",
        )
    _need_advanced(pos, "placing a worm", "1.14.03")
    return once_a_game(pos, FREMEN)


def check_shipment(pos: Position, ev: ForcesPlaced) -> None:
    """A Karama buys a shipment from reserves onto the board at the Guild rate, in the
    shipment and movement phase (3.01.11.03, WBC Player Aid 18)."""
    if ev.source != "reserves":
        refuse(
            pos,
            "karama_shipment",
            "a Karama buys a shipment from reserves, not a revival from the tanks",
            ev.source,
            field="source",
        )
    if pos.phase != SHIPMENT_MOVEMENT:
        refuse(
            pos,
            "karama_shipment",
            f"a Karama buys a shipment in the shipment and movement phase, not in the {phase_name(pos.phase)} phase",
            pos.phase,
            field="karama",
        )


def _need_emperor_revival(pos: Position, faction: str, field: str) -> None:
    rule = pos.ruleset.cite["karama_revival"]
    if faction != EMPEROR:
        refuse(
            pos,
            "karama_revival",
            f"the Karama revival is the Emperor's power, not {faction_name(faction)}'s",
            faction,
            field=field,
        )
    _need_advanced(pos, "reviving", rule)
    phases = pos.ruleset.karama_revival_phases
    if phases is not None and pos.phase not in phases:
        refuse(
            pos,
            "karama_revival",
            f"the Emperor revives with a Karama in the {phases_text(phases)} phase, not in the {phase_name(pos.phase)} phase",
            pos.phase,
            field="karama",
        )


def revival(pos: Position, ev: ForcesRevived) -> dict[str, Any]:
    """The Emperor's Karama revival of up to three forces (1.14.02, WBC XVII.9)."""
    _need_emperor_revival(pos, ev.faction, "faction")
    if ev.normal + ev.special > KARAMA_REVIVAL:
        refuse(
            pos,
            "karama_revival",
            f"a Karama revives up to {KARAMA_REVIVAL} forces, not {ev.normal + ev.special}",
            (ev.normal, ev.special),
            field="normal",
        )
    return once_a_game(pos, EMPEROR)


def leader_revival(pos: Position, ev: LeaderChanged, before: str) -> dict[str, Any]:
    """The Emperor's Karama revival of a leader from the tanks (1.14.02, WBC XVII.9)."""
    _need_emperor_revival(pos, ev.faction, "faction")
    if ev.status != "active" or before not in _IN_TANKS:
        refuse(
            pos,
            "karama_revival",
            f"a Karama revives a leader from the tanks to active, not from {before} to {ev.status}",
            ev.status,
            field="status",
        )
    return once_a_game(pos, EMPEROR)


def check_cards(pos: Position, ev: CardsSet) -> None:
    """A Karama card is played from the hand (3.01.11.00; the BG may play a worthless card as
    one, 2.02.22): a hand known to be empty held none (AH VIII.C, WBC VIII.10)."""
    before = pos.states[ev.faction].cards
    if before == 0:
        refuse(
            pos,
            "karama_card",
            f"{faction_name(ev.faction)} held no treachery card, so no Karama card to play",
            before,
            field="karama",
        )
