"""The running tally of one battle's resolution: losses, leaders' fates, discards, spice and rulings
as each step of the outcome adds them."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from dune.engine.battle.refusals import rule_for
from dune.engine.battle.resolution import LeaderFate, LossRow, Ruling
from dune.engine.battle.side import Side
from dune.engine.editions import advanced, distinguished
from dune.engine.factions import (
    CHOAM,
)
from dune.engine.names import faction_name
from dune.engine.position import Position


@dataclass(slots=True)
class Tally:
    """What a resolution has found so far (one battle's scratch pad)."""

    pos: Position
    territory: str
    agg: Side
    dfd: Side
    rulings: list[Ruling] = field(default_factory=list)
    losses: list[LossRow] = field(default_factory=list)
    fates: list[LeaderFate] = field(default_factory=list)
    discarded: dict[str, tuple[str, ...]] = field(default_factory=dict)
    spice: dict[str, int] = field(default_factory=dict)
    totals: dict[str, Fraction | None] = field(default_factory=dict)
    killed: set[tuple[str, str]] = field(default_factory=set)
    board_lost: int = 0
    kh_dead: bool = False
    winner: str | None = None
    loser: str | None = None
    outcome: str = "won"
    #: A traitor-caller's leader goes back to the pool for this phase (1.07.06.06.00).
    back_in_pool: set[tuple[str, str]] = field(default_factory=set)
    #: Whether a traitor call gives back what the caller used (LoLV 1.07.06.06.00; every ruleset
    #: before the ninth edition, `BattleRules.traitor_restores`).
    restores: bool = True

    def note(self, key: str, text: str, fallback: str | None = None) -> str:
        rule = rule_for(self.pos, key, fallback)
        self.rulings.append(Ruling(rule, text))
        return rule

    def kill(self, side: Side, rule: str) -> None:
        key = side.leader_key()
        if key is not None:
            self.killed.add(key)
            if key in self.pos.leaders_revived and distinguished(self.pos):
                rule = self.note("dead_again", f"{key[1]} was revived and is killed again: face down in the tanks", "leaders")
                self.fates.append(LeaderFate(key[0], key[1], "tanks_face_down", None, rule))
            else:
                self.fates.append(LeaderFate(key[0], key[1], "tanks_face_up", None, rule))

    def pay(self, side: Side) -> None:
        self.spice[side.faction] = self.spice.get(side.faction, 0) - side.plan.spice
        share = side.plan.spice // 2
        pos = self.pos
        if share and side.faction != CHOAM and not side.plan.traitor and CHOAM in pos.playing and advanced(pos) and distinguished(pos):
            # 2.09.20 (Advanced): half the spice another faction pays for its forces goes to the
            # CHOAM, rounded down; the rest to the bank (1.13.03.04); none from a faction that
            # revealed a traitor (2.09.21).
            self.earn(CHOAM, share)
            self.note("choam_dialing", f"the CHOAM receive {share} of the {side.plan.spice} spice {faction_name(side.faction)} paid", "spice_dialing")

    def earn(self, faction: str, amount: int) -> None:
        self.spice[faction] = self.spice.get(faction, 0) + amount
