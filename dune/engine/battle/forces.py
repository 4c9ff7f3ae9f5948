"""The forces in a battle: the stacks each side has there, what they are worth and what may be dialed
(LoLV 1.07.04, AH X.B.1, WBC X.7, spice dialing 1.13.03)."""

from __future__ import annotations

from fractions import Fraction

from dune.engine.editions import advanced, distinguished, sheltered
from dune.engine.factions import (
    BENE_GESSERIT,
    EMPEROR,
    FREMEN,
    IXIANS,
)
from dune.engine.position import Position, Stack
from dune.engine.storm import separated


def stacks_in(pos: Position, faction: str, territory: str) -> list[tuple[int | None, Stack]]:
    """The faction's stacks in the territory that fight (fighters; not coexisting BG)."""
    if faction == BENE_GESSERIT and territory in pos.coexisting:
        return []
    return sorted(
        ((s, st) for (f, t, s), st in pos.forces.items() if f == faction and t == territory and st[0] + st[1]),
        key=lambda item: -1 if item[0] is None else item[0],
    )


def engaged(
    pos: Position, territory: str, mine: list[tuple[int | None, Stack]], theirs: list[tuple[int | None, Stack]]
) -> list[tuple[int | None, Stack]]:
    """My stacks not separated by the storm from every stack of the opponent (1.07.01.00)."""
    shelter = sheltered(pos)
    return [
        (s, st)
        for s, st in mine
        if any(not separated(territory, s, o, pos.storm, shelter) for o, _st in theirs)
    ]


def _values(pos: Position, faction: str, opponent: str) -> tuple[Fraction, Fraction]:
    """A normal and a starred force's worth in battle and in taking losses (AH X.B.1.a-b;
    LoLV 2.03.08-09, 2.04.18 and 2.07.09, the first three Advanced abilities)."""
    adv = advanced(pos)
    if faction == FREMEN and adv:
        return Fraction(1), Fraction(2)  # Fedaykin (2.04.18, AH X.B.1.a)
    if faction == EMPEROR and adv:
        return Fraction(1), Fraction(1 if opponent == FREMEN else 2)  # Sardaukar (2.03.08-09, AH X.B.1.b)
    if faction == IXIANS:
        return Fraction(1), Fraction(2)  # Cyborgs (2.07.09)
    return Fraction(1), Fraction(1)


def spice_dialing(pos: Position, faction: str, granted: bool = False) -> bool:
    """Whether spice dialing halves this faction's unsupported forces (LoLV 1.13.03; the
    Fremen count full strength for nothing where the game's rules say so: 2.04.21, WBC house
    rules, a format's `fremen_full_strength`; under the WBC house rules the Fremen may grant it
    to their ally for its battle, `granted`)."""
    rs = pos.ruleset
    if not rs.spice_dialing or not advanced(pos):
        return False
    if faction == FREMEN:
        return not rs.fremen_full_strength
    return not (granted and may_grant_strength(pos, faction))


def may_grant_strength(pos: Position, faction: str) -> bool:
    """Whether the Fremen may let `faction`, their ally, count at full strength for nothing in
    its battles (WBC house rules: "the Fremen may permit their ally to do the same")."""
    rs = pos.ruleset
    return rs.fremen_full_strength and rs.battle.fremen_ally_full_strength and FREMEN in pos.allies_of(faction)


def strength_of(
    pos: Position, faction: str, opponent: str, normal: int, special: int, spice: int, granted: bool = False
) -> Fraction:
    """The most a group of forces is worth with `spice` supporting the worthiest first."""
    vn, vs = _values(pos, faction, opponent)
    if not spice_dialing(pos, faction, granted):
        if faction == IXIANS and distinguished(pos):
            vn = vn / 2  # 2.07.14: the Suboids are worth half in battle, in the Basic game too
        return normal * vn + special * vs
    suboids_half = faction == IXIANS  # 2.07.23: Suboids are always half strength
    supported_sp = min(spice, special)
    supported_n = 0 if suboids_half else min(spice - supported_sp, normal)
    return (
        supported_sp * vs
        + (special - supported_sp) * vs / 2
        + supported_n * vn
        + (normal - supported_n) * vn / 2
    )
