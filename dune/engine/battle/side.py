"""One side of a battle: its plan read against the position (its forces there, its leader, its cards)."""

from __future__ import annotations

from dataclasses import dataclass

from dune.engine.battle.forces import engaged, stacks_in
from dune.engine.battle.refusals import refuse, rule_for
from dune.engine.errors import UnknownIdentifier
from dune.engine.events import BattlePlan
from dune.engine.names import faction_name
from dune.engine.position import Position, Stack


@dataclass(frozen=True, slots=True)
class Side:
    plan: BattlePlan
    prefix: str  # "aggressor" | "defender"
    opponent: str
    stacks: list[tuple[int | None, Stack]]
    leader_owner: str | None
    leader_index: int | None
    strength: int | None  # the leader disc's printed value (None: Zoal)

    @property
    def faction(self) -> str:
        return self.plan.faction

    @property
    def forces(self) -> tuple[int, int]:
        return sum(st[0] for _s, st in self.stacks), sum(st[1] for _s, st in self.stacks)

    def leader_key(self) -> tuple[str, str] | None:
        if self.leader_owner is None or self.plan.leader is None:
            return None
        return self.leader_owner, self.plan.leader


def plan_side(pos: Position, plan: BattlePlan, prefix: str, opponent: str, territory: str) -> Side:
    mine = stacks_in(pos, plan.faction, territory)
    theirs = stacks_in(pos, opponent, territory)
    stacks = engaged(pos, territory, mine, theirs)
    owner: str | None = None
    index: int | None = None
    strength: int | None = None
    if plan.leader is not None:
        owner = plan.leader_of or plan.faction
        if owner not in pos.states:
            raise UnknownIdentifier(
                rule=rule_for(pos, "setup"),
                msg=f"{faction_name(owner)} does not play in this game",
                phase=pos.phase,
                input=owner,
                field=f"{prefix}.leader_of",
            )
        sheet = pos.sheet(owner)
        index = sheet.leader_index(plan.leader)
        if index is None:
            raise UnknownIdentifier(
                rule=rule_for(pos, "leaders"),
                msg=f"{faction_name(owner)} has no leader {plan.leader}",
                phase=pos.phase,
                input=plan.leader,
                field=f"{prefix}.leader",
            )
        strength = sheet.leaders[index].strength
    elif plan.leader_of is not None:
        refuse(pos, "battle_leader", "a leader's owner is named only with the leader", plan.leader_of, f"{prefix}.leader_of")
    return Side(plan, prefix, opponent, stacks, owner, index, strength)
