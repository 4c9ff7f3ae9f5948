"""Plans repaired by the engine where the rules say how (WBC X.12): an impossible dial or a missing
leader read as the rules direct, each repair noted with its rule."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from dune.engine.battle.cards import CARDS
from dune.engine.battle.forces import engaged, stacks_in, strength_of
from dune.engine.battle.leaders import leader_options
from dune.engine.battle.refusals import rule_for
from dune.engine.battle.resolution import Ruling
from dune.engine.editions import distinguished
from dune.engine.events import BattlePlan
from dune.engine.names import faction_name
from dune.engine.numbers import decimal_str
from dune.engine.position import Position


def repaired(pos: Position, plan: BattlePlan, opponent: str, territory: str, notes: list[Ruling]) -> BattlePlan:
    """Ninth edition: the plan as the table's rules repair it on the reveal, instead of refusing
    it (`BattleRules.repairs`): the lowest value leader available added (AH X.B.2.a, WBC X.12),
    a card in the wrong slot or played without a leader removed (WBC X.15), the dial reduced to
    the most the forces and spice support (WBC X.13). Each repair is noted with its rule."""
    fix = pos.ruleset.battle.repairs if distinguished(pos) else frozenset()
    if not fix:
        return plan
    who = faction_name(plan.faction)
    if "leader" in fix and plan.leader is None and not plan.cheap_hero:
        options = leader_options(pos, plan.faction, territory) or []
        if options:
            pick = min(options, key=lambda o: 0 if o["strength"] is None else o["strength"])
            owner = pick["leader_of"] or plan.faction
            name = pos.sheet(owner).leaders[pos.sheet(owner).leader_index(pick["leader"]) or 0].name
            plan = replace(plan, leader=pick["leader"], leader_of=pick["leader_of"])
            notes.append(Ruling(rule_for(pos, "plan_leader", "battle_leader"), f"{who} played no leader: the lowest value leader available, {name}, is added"))
    if "cards" in fix:
        for slot, wrong in (("weapon", "defense"), ("defense", "weapon")):
            card = getattr(plan, slot)
            if card is not None and CARDS[card][0] == wrong:
                plan = replace(plan, weapon=None) if slot == "weapon" else replace(plan, defense=None)
                notes.append(Ruling(rule_for(pos, "plan_cards", "battle_cards"), f"{card} is not a {slot}: it is removed from the plan of {who}"))
        if plan.leader is None and not plan.cheap_hero and (plan.weapon or plan.defense):
            gone = ", ".join(c for c in (plan.weapon, plan.defense) if c)
            plan = replace(plan, weapon=None, defense=None)
            notes.append(Ruling(rule_for(pos, "plan_cards", "battle_no_leader"), f"{who} has no leader: {gone} is removed from its plan"))
    if "dial" in fix:
        stacks = engaged(pos, territory, stacks_in(pos, plan.faction, territory), stacks_in(pos, opponent, territory))
        normal, special = sum(st[0] for _s, st in stacks), sum(st[1] for _s, st in stacks)
        most = strength_of(pos, plan.faction, opponent, normal, special, min(plan.spice, normal + special), plan.full_strength)
        if Fraction(plan.dial).limit_denominator(2) > most:
            dial: int | float = int(most) if most.denominator == 1 else float(most)
            plan = replace(plan, dial=dial)
            notes.append(Ruling(rule_for(pos, "plan_dial", "battle_dial"), f"{who} dialed more than its forces and spice support: the dial is reduced to {decimal_str(most)}"))
    return plan
