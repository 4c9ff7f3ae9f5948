"""The forces a battle takes: everything the loser has there, the forces the winner dialed and how
they are taken from its normal and special forces (LoLV 1.07.06.03-05, AH X.C.5-6)."""

from __future__ import annotations

from fractions import Fraction

from dune.engine.battle.forces import strength_of
from dune.engine.battle.refusals import refuse
from dune.engine.battle.resolution import LossRow
from dune.engine.battle.side import Side
from dune.engine.names import faction_name
from dune.engine.numbers import decimal_str
from dune.engine.position import Position


def all_lost(side: Side, territory: str, rule: str) -> list[LossRow]:
    return [(side.faction, territory, s, st[0], st[1], 0, rule) for s, st in side.stacks if st[0] + st[1]]


def winner_losses(pos: Position, side: Side, territory: str, rule: str) -> list[LossRow]:
    """The forces a winner dialed away (1.07.06.05, AH X.C.6): `lost_normal` / `lost_special`
    as the judge recorded them, or normal forces first."""
    n, sp = dialed_forces(pos, side)
    return _taken(pos, side, territory, rule, n, sp)


def dialed_forces(pos: Position, side: Side) -> tuple[int, int]:
    """The normal and starred forces that make up the dial (AH X.C.6.b; LoLV 1.07.04.01):
    `lost_normal` / `lost_special` as the judge recorded them, or normal forces first."""
    plan, prefix = side.plan, side.prefix
    dial = Fraction(plan.dial).limit_denominator(2)
    normal, special = side.forces

    def worth(n: int, sp: int) -> Fraction:
        return strength_of(pos, side.faction, side.opponent, n, sp, plan.spice, plan.full_strength)

    if plan.lost_normal is None and plan.lost_special is None:
        n = sp = 0
        while worth(n, sp) < dial:
            if n < normal:
                n += 1
            elif sp < special:
                sp += 1
            else:
                break
    else:
        n, sp = plan.lost_normal or 0, plan.lost_special or 0
        if n > normal or sp > special:
            refuse(pos, "battle_winner_losses", f"{faction_name(side.faction)} has {normal} and {special} starred forces in the battle", (n, sp), f"{prefix}.lost_normal")
        fewer = [worth(n - 1, sp)] if n else []
        fewer += [worth(n, sp - 1)] if sp else []
        if worth(n, sp) < dial or any(w >= dial for w in fewer):
            refuse(
                pos,
                "battle_winner_losses",
                f"losing {n} forces and {sp} starred forces does not make up the {decimal_str(dial)} dialed",
                (n, sp),
                f"{prefix}.lost_normal",
            )
    return n, sp


def _taken(pos: Position, side: Side, territory: str, rule: str, n: int, sp: int) -> list[LossRow]:
    """The dialed losses taken from the winner's stacks: from the sectors it names, in order, "in
    any manner" (AH X.C.6; `lost_sectors`), then the lowest sectors first."""
    order = list(side.stacks)
    if side.plan.lost_sectors:
        known = {s for s, _st in side.stacks}
        for i, sector in enumerate(side.plan.lost_sectors):
            if sector not in known:
                refuse(
                    pos,
                    "battle_winner_losses",
                    f"{faction_name(side.faction)} has no forces in the battle in sector {sector}",
                    sector,
                    f"{side.prefix}.lost_sectors[{i}]",
                )
        rank = {sector: i for i, sector in enumerate(side.plan.lost_sectors)}
        order.sort(key=lambda item: rank.get(item[0], len(rank)))
    out: list[LossRow] = []
    for s, st in order:
        take_n, take_sp = min(n, st[0]), min(sp, st[1])
        n, sp = n - take_n, sp - take_sp
        if take_n or take_sp:
            out.append((side.faction, territory, s, take_n, take_sp, 0, rule))
    return out
