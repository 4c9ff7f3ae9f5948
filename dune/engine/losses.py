"""What the rules destroy by themselves, removed by the engine in full tracking.

When the game's setup asks for it (`game_setup.automatic_losses`; never in quick tracking),
the engine removes what a storm destroys when it moves (LoLV 1.01.03, AH VI.D, WBC VI.8),
what a worm devours (LoLV 1.02.05, AH VII.A.2.a, WBC VII.9) and, under the LoLV, the forces
a faction leaves beside its ally at the end of its shipment-and-movement action (1.06.06,
4.01.16; WBC IX.3). Each removal is listed in `Position.losses` with its rule, so the judge sees it;
`loss_corrected` puts forces back with a reason: at most what the listed removal took from
that stack, and the rest stays listed. The spice they destroy is `spice.py`'s;
`losses_json` lists it beside the forces.
"""

from __future__ import annotations

from typing import Any

from dune.engine.battle.resolution import loss_json
from dune.engine.board import POLAR_SINK, SECTOR_COUNT, TERRITORIES
from dune.engine.editions import advanced, corrected
from dune.engine.factions import BENE_GESSERIT, ECAZ, FREMEN
from dune.engine.position import ForceKey, Position, Stack, evolve
from dune.engine.spice import spice_lost_json
from dune.engine.storm import storm_destroys

#: (faction, territory, sector, normal, special, advisors, rule)
Loss = tuple[str, str, int | None, int, int, int, str]


#: A stack's counts by name, in the order of `Stack` and of a loss's counts.
KINDS = ("normal", "special", "advisors")


def automatic(pos: Position) -> bool:
    """Whether the engine removes what the rules destroy in this game."""
    return pos.setup is not None and pos.setup.automatic_losses and not pos.quick


def remove(pos: Position, losses: list[Loss], base: dict[str, Any] | None = None) -> dict[str, Any]:
    """Position changes sending `losses` to the tanks (on top of `base` changes)."""
    changes = dict(base or {})
    if not losses:
        return changes
    forces: dict[ForceKey, Stack] = dict(changes.get("forces", pos.forces))
    states = dict(changes.get("states", pos.states))
    for f, t, s, n, sp, a, _rule in losses:
        key = (f, t, s)
        old = forces[key]
        new = (old[0] - n, old[1] - sp, old[2] - a)
        if new == (0, 0, 0):
            del forces[key]
        else:
            forces[key] = new
        st = states[f]
        if st.tanks is not None:
            states[f] = evolve(st, tanks=(st.tanks[0] + n + a, st.tanks[1] + sp))
    changes["forces"] = forces
    changes["states"] = states
    changes["losses"] = tuple(losses)
    return changes


def _half_up(n: int, sp: int) -> tuple[int, int]:
    """Half of a stack, rounded up, normal forces first (AH VI.D.1, LoLV 2.04.16)."""
    lose = (n + sp + 1) // 2
    ln = min(n, lose)
    return ln, lose - ln


def storm_hits(pos: Position, start: int, sectors: int, *, placed: bool = False) -> list[Loss]:
    """Forces destroyed by a storm moving `sectors` from `start` (or placed on `start`)."""
    rs = pos.ruleset
    if placed:
        hit = {start}
    else:
        hit = {(start + i) % SECTOR_COUNT for i in range(1, sectors + 1)}
        if sectors and rs.storm_hits_start_sector:
            hit.add(start)
    rule = rs.cite["storm_losses"]
    out: list[Loss] = []
    fremen: dict[str, list[tuple[int | None, Stack]]] = {}
    for (f, t, s), stack in pos.forces.items():
        if s is None or s not in hit or not storm_destroys(t, pos.family_atomics):
            continue
        if f == FREMEN and advanced(pos):
            # LoLV 2.04.16 (an Advanced ability, 1.13.00): a storm that landed on them last turn does not halve them again.
            if not (rs.storm_hits_start_sector and s == start and not placed):
                fremen.setdefault(t, []).append((s, stack))
            continue
        out.append((f, t, s, stack[0], stack[1], stack[2], rule))
    for t, stacks in fremen.items():
        total_n = sum(st[0] for _s, st in stacks)
        total_sp = sum(st[1] for _s, st in stacks)
        ln, lsp = _half_up(total_n, total_sp)
        for s, st in stacks:
            n, sp = min(ln, st[0]), min(lsp, st[1])
            ln, lsp = ln - n, lsp - sp
            if n or sp:
                out.append((FREMEN, t, s, n, sp, 0, rs.cite["fremen_storm"]))
    return out


def shipped_into_storm(
    pos: Position, faction: str, territory: str, sector: int | None, n: int, sp: int
) -> list[Loss]:
    """Fremen reserves sent into the storm lose half, rounded up (AH IX.C.1.c.i, LoLV 2.04.17,
    WBC IX.11); nothing is lost where the storm does not destroy."""
    if not storm_destroys(territory, pos.family_atomics):
        return []
    ln, lsp = _half_up(n, sp)
    if not ln + lsp:
        return []
    return [(faction, territory, sector, ln, lsp, 0, pos.ruleset.cite["fremen_storm"])]


def worm_devours(pos: Position, territory: str, *, allies_spared: bool = True) -> list[Loss]:
    """Everything in a sand territory the worm appears in, except the Fremen and their
    allies (LoLV 1.02.05, 2.04.07, 2.04.10; AH VII.A.2.a-b, VII.A.2.d; WBC VII.8); the allies
    too when the Fremen decline to protect them (LoLV 2.04.10)."""
    t = TERRITORIES.get(territory)
    if t is None or t.kind != "sand":
        return []
    spared = {FREMEN, *(pos.allies_of(FREMEN) if allies_spared else ())} if FREMEN in pos.playing else set()
    rule = pos.ruleset.cite["worm_devours"]
    return [
        (f, tt, s, st[0], st[1], st[2], rule)
        for (f, tt, s), st in pos.forces.items()
        if tt == territory and f not in spared
    ]


def beside_allies(pos: Position, faction: str) -> list[Loss]:
    """LoLV 1.06.06 / 4.01.16: at the end of its shipment-and-movement action, a faction's
    forces in a territory (not the Polar Sink) where allied forces other than advisors
    stand go to the tanks; its own advisors coexist (2.02.12) and the Ecaz and its ally
    co-occupy (2.11.11)."""
    allies = set(pos.allies_of(faction))
    if not allies or ECAZ in allies or faction == ECAZ:
        return []
    allied_here = {
        t
        for (f, t, _s), st in pos.forces.items()
        if f in allies
        and t != POLAR_SINK
        and st[0] + st[1]
        and not (f == BENE_GESSERIT and t in pos.coexisting)
    }
    rule = pos.ruleset.cite["ally_tanks"]
    out: list[Loss] = []
    for (f, t, s), st in pos.forces.items():
        if f == faction and t in allied_here and st[0] + st[1]:
            if f == BENE_GESSERIT and t in pos.coexisting:
                continue
            out.append((f, t, s, st[0], st[1], 0, rule))
    return out


def action_over(pos: Position) -> list[Loss]:
    """What the end of the current faction's shipment-and-movement action removes."""
    if pos.acting is None or not pos.ruleset.ally_tanks_at_action_end:
        return []
    if not automatic(pos) or not corrected(pos):
        return []
    return beside_allies(pos, pos.acting)


def removed_at(pos: Position, key: ForceKey) -> tuple[Stack, str] | None:
    """What the removal listed in `pos.losses` took from the stack at `key` (faction,
    territory, sector) and the rule it took it by; None when it took nothing there."""
    taken = [loss for loss in pos.losses if loss[:3] == key]
    if not taken:
        return None
    stack = (sum(t[3] for t in taken), sum(t[4] for t in taken), sum(t[5] for t in taken))
    return stack, taken[0][6]


def put_back(losses: tuple[Loss, ...], key: ForceKey, stack: Stack) -> tuple[Loss, ...]:
    """`losses` less the `stack` a correction put back at `key`; a row left at nothing goes."""
    left = list(stack)
    out: list[Loss] = []
    for f, t, s, n, sp, a, rule in losses:
        rest = [n, sp, a]
        if (f, t, s) == key:
            for i in range(3):
                back = min(left[i], rest[i])
                rest[i] -= back
                left[i] -= back
        if any(rest):
            out.append((f, t, s, rest[0], rest[1], rest[2], rule))
    return tuple(out)


def losses_json(pos: Position) -> list[dict[str, Any]]:
    """What the last event removed by itself, for the judge's page and the API: forces, then
    spice (rows with no faction), then Ambassadors (rows with `ambassador`)."""
    rows = [loss_json(row, spice=0) for row in pos.losses] + spice_lost_json(pos)
    if pos.pieces_lost:
        rows += pieces_lost_json(pos)
    return rows


def pieces_lost_json(pos: Position) -> list[dict[str, Any]]:
    """The Ambassadors the last event took off the board (the storm, 2.11.09): Ecaz rows with
    no forces and the token's symbol under `ambassador`."""
    return [
        {
            "faction": ECAZ,
            "territory": t,
            "sector": s,
            "normal": 0,
            "special": 0,
            "advisors": 0,
            "spice": 0,
            "ambassador": symbol,
            "rule": rule,
        }
        for symbol, t, s, rule in pos.pieces_lost
    ]
