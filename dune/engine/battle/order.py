"""Which battle may be fought now: the battle phase, the aggressor in storm order and the battles
that must come first (LoLV 1.07.01-1.07.03, AH X.A)."""

from __future__ import annotations

from collections.abc import Mapping

from dune.engine.battle.refusals import refuse, rule_for
from dune.engine.battles import Battle as Fight
from dune.engine.battles import battles
from dune.engine.board import POLAR_SINK, TERRITORIES
from dune.engine.control import occupancy
from dune.engine.editions import sequenced
from dune.engine.errors import UnknownIdentifier, WrongPhase
from dune.engine.events import Battle
from dune.engine.names import faction_name, phase_name, place_name
from dune.engine.phases import BATTLE
from dune.engine.position import Position
from dune.engine.storm import played_order, storm_order


def check_battle(pos: Position, event: Battle) -> None:
    if pos.phase != BATTLE:
        raise WrongPhase(
            rule=rule_for(pos, "battle_phase"),
            msg=f"battles are fought in the battle phase, not in the {phase_name(pos.phase)} phase",
            phase=pos.phase,
            input=pos.phase,
        )
    if pos.quick:
        refuse(pos, "quick tracking", "quick tracking records no battles (forces are unknown)", "battle", "territory")
    territory = event.territory
    if territory not in TERRITORIES:
        raise UnknownIdentifier(rule="board", msg=f"unknown territory {territory!r}", phase=pos.phase, input=territory, field="territory")
    a, d = event.aggressor.faction, event.defender.faction
    for plan, prefix in ((event.aggressor, "aggressor"), (event.defender, "defender")):
        if plan.faction not in pos.playing:
            raise UnknownIdentifier(
                rule=rule_for(pos, "setup"),
                msg=f"{faction_name(plan.faction)} does not play in this game",
                phase=pos.phase,
                input=plan.faction,
                field=f"{prefix}.faction",
            )
    if a == d:
        refuse(pos, "battle_forces", "a battle is fought between two factions", d, "defender.faction")
    if territory == POLAR_SINK:
        refuse(pos, "battle_forces", "nobody battles in the Polar Sink", territory, "territory", None)
    order = storm_order(pos) or list(pos.factions)
    every = battles(pos, occupancy(pos), order)
    found = [b for b in every if b.territory == territory]
    if not any(a in b.factions and d in b.factions for b in found) or d in pos.allies_of(a):
        refuse(
            pos,
            "battle_forces",
            f"{faction_name(a)} and {faction_name(d)} have no battle in {place_name(territory)}",
            territory,
            "territory",
        )
    rank = {f: i for i, f in enumerate(played_order(pos))}
    sappho = pos.order_cards.get(f"aggressor@{territory}")
    if sappho in (a, d) and sappho != a:
        refuse(
            pos,
            "sappho_aggressor",
            f"{faction_name(d)} played Juice of Sappho to be the aggressor in {place_name(territory)}",
            a,
            "aggressor.faction",
        )
    if sappho != a and rank.get(a, 0) > rank.get(d, 0):
        refuse(
            pos,
            "battle_order",
            f"{faction_name(d)} comes before {faction_name(a)} in storm order and is the aggressor",
            a,
            "aggressor.faction",
        )
    if sequenced(pos):
        _earlier_battles_first(pos, every, rank, min(rank.get(a, 0), rank.get(d, 0)), territory)


def _earlier_battles_first(pos: Position, every: list[Fight], rank: Mapping[str, int], turn: int, territory: str) -> None:
    """Eighth edition: the first player is the aggressor until all its battles are fought, then
    the next in storm order (AH X.A.3, WBC X.1, LoLV 1.07.02): no battle while a faction earlier
    in the order than both sides still has one to fight."""
    waiting: dict[str, list[str]] = {}
    for b in every:
        for f in b.factions:
            if rank.get(f, 0) < turn:
                waiting.setdefault(f, []).append(place_name(b.territory))
    if not waiting:
        return
    first = min(waiting, key=lambda f: rank.get(f, 0))
    refuse(
        pos,
        "battle_order",
        f"{faction_name(first)} comes first in storm order and still has its battles to fight "
        f"({', '.join(waiting[first])}) before the one in {place_name(territory)}",
        territory,
        "territory",
    )
