"""Occupancy and control of the strongholds at the Mentat Pause.

Only *active* forces occupy: BG advisors (LoLV 2.02.12) and BG forces in a territory
declared coexisting (AH XV.A, WBC IV.1) never control, contest or battle. A stronghold
is controlled by the one faction whose active forces stand there alone (LoLV glossary:
Control); the ruleset decides the Shield Wall (WBC house rules, LoLV 4.02) and the Ecaz
co-occupation (LoLV 2.11.14).
"""

from __future__ import annotations

from dataclasses import dataclass

from dune.engine.board import (
    HIDDEN_MOBILE_STRONGHOLD,
    PRINTED_STRONGHOLDS,
    SHIELD_WALL,
    SHIELD_WALL_LEFT_SECTOR,
)
from dune.engine.factions import BENE_GESSERIT, ECAZ, IXIANS
from dune.engine.position import Position


@dataclass(frozen=True, slots=True)
class Occupancy:
    """Who stands where, computed once per position.

    `active[territory][faction][sector]` is the number of active forces (normal + special);
    `inert` the territories where BG forces stand as advisors or coexisting.
    """

    active: dict[str, dict[str, dict[int | None, int]]]
    inert: frozenset[str]
    #: per faction: every token on the board, and twice the WBC weighted token count
    tokens: dict[str, int]
    halves: dict[str, int]

    def factions_in(self, territory: str) -> set[str]:
        return set(self.active.get(territory, ()))

    def factions_in_sector(self, territory: str, sector: int | None) -> set[str]:
        here = self.active.get(territory, {})
        return {f for f, by_sector in here.items() if by_sector.get(sector)}


def occupancy(position: Position) -> Occupancy:
    """One pass over the board: active forces by territory, inert BG territories, and each
    faction's token counts (plain, and WBC-weighted in halves: normal 2, starred 4,
    advisors / coexisting 1)."""
    active: dict[str, dict[str, dict[int | None, int]]] = {}
    inert: set[str] = set()
    tokens: dict[str, int] = {}
    halves: dict[str, int] = {}
    coexisting = position.coexisting
    for (f, t, s), (n, sp, a) in position.forces.items():
        tokens[f] = tokens.get(f, 0) + n + sp + a
        if f == BENE_GESSERIT:
            if a or (t in coexisting and n + sp):
                inert.add(t)
            if t in coexisting:
                halves[f] = halves.get(f, 0) + n + sp + a
                continue
        halves[f] = halves.get(f, 0) + 2 * n + 4 * sp + a
        count = n + sp
        if count:
            here = active.get(t)
            if here is None:
                active[t] = {f: {s: count}}
            else:
                by_sector = here.get(f)
                if by_sector is None:
                    here[f] = {s: count}
                else:
                    by_sector[s] = by_sector.get(s, 0) + count
    return Occupancy(active=active, inert=frozenset(inert), tokens=tokens, halves=halves)


def shield_wall_counts(position: Position) -> bool:
    """The Shield Wall is a stronghold for victory after the 4th worm (WBC, LoLV 4.02.00)."""
    rule = position.ruleset.shield_wall
    return rule is not None and position.worms >= rule.worms_needed


def strongholds_in_play(position: Position) -> tuple[str, ...]:
    """The strongholds that count for victory in this position."""
    out = PRINTED_STRONGHOLDS
    setup = position.setup
    if setup is not None and IXIANS in setup.factions:
        out = out + (HIDDEN_MOBILE_STRONGHOLD,)
    if shield_wall_counts(position):
        out = out + (SHIELD_WALL,)
    return out


def occupants(position: Position, occ: Occupancy, stronghold: str) -> set[str]:
    """Factions whose active forces stand in the stronghold (the counting part of it)."""
    if stronghold == SHIELD_WALL:
        rule = position.ruleset.shield_wall
        if rule is not None and rule.left_side_only:
            # LoLV 4.02.01: only the side touching the Imperial Basin counts.
            return occ.factions_in_sector(SHIELD_WALL, SHIELD_WALL_LEFT_SECTOR)
    return occ.factions_in(stronghold)


def controller(position: Position, occ: Occupancy, stronghold: str) -> str | None:
    """The faction controlling the stronghold, or None (empty or contested)."""
    present = occupants(position, occ, stronghold)
    if len(present) == 1:
        return next(iter(present))
    if len(present) == 2 and ECAZ in present and position.ruleset.ecaz_co_occupy:
        # LoLV 2.11.14: Ecaz and ally share it; it counts once and they control it.
        other = next(f for f in present if f != ECAZ)
        if other in position.allies_of(ECAZ):
            return ECAZ
    # Two or more factions (WBC house rules for the Shield Wall: nobody controls it).
    return None


def control(position: Position, occ: Occupancy) -> dict[str, str | None]:
    return {s: controller(position, occ, s) for s in strongholds_in_play(position)}
