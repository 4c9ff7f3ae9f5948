"""What a page offers for a battle plan: the battles of the phase, each side's leaders, cards and the
forces it may dial."""

from __future__ import annotations

from typing import Any

from dune.engine.battle.cards import KH_AWAKENS
from dune.engine.battle.forces import engaged, may_grant_strength, spice_dialing, stacks_in, strength_of
from dune.engine.battle.leaders import leader_options
from dune.engine.battles import battles
from dune.engine.control import occupancy
from dune.engine.editions import advanced, sequenced
from dune.engine.factions import (
    ATREIDES,
)
from dune.engine.numbers import decimal_str
from dune.engine.phases import BATTLE
from dune.engine.position import Position
from dune.engine.storm import played_order


def battle_choices(position: Position) -> list[dict[str, Any]]:
    """The battles still to fight, one row per pair (aggressor first in storm order; from the
    eighth edition only those of the first faction in storm order with a battle left), with
    what each side may put in its plan: leaders, the forces there, the most it can dial (with
    as much spice as it has), whether spice dialing applies, whether the Kwisatz Haderach may
    join. JSON for the table page's battle form; empty outside the battle phase."""
    pos = position
    if pos.setup is None or pos.phase != BATTLE or pos.quick:
        return []
    order = played_order(pos)
    out: list[dict[str, Any]] = []
    every = battles(pos, occupancy(pos), order)
    # Eighth edition: only the current aggressor's battles (AH X.A.3, WBC X.1, LoLV 1.07.02).
    fighting = {f for b in every for f in b.factions}
    now = next((f for f in order if f in fighting), None) if sequenced(pos) else None
    for b in every:
        for i, a in enumerate(b.factions):
            for d in b.factions[i + 1 :]:
                if now is not None and now not in (a, d):
                    continue
                row: dict[str, Any] = {"territory": b.territory, "aggressor": a, "defender": d, "sides": {}}
                for f, o in ((a, d), (d, a)):
                    mine = engaged(pos, b.territory, stacks_in(pos, f, b.territory), stacks_in(pos, o, b.territory))
                    n, sp = sum(st[0] for _s, st in mine), sum(st[1] for _s, st in mine)
                    spice = pos.states[f].spice
                    paid = n + sp if spice is None else min(spice, n + sp)
                    kh = (
                        f == ATREIDES
                        and advanced(pos)
                        and not pos.kh_dead
                        and pos.kh_losses >= KH_AWAKENS
                    )
                    row["sides"][f] = {
                        "leaders": leader_options(pos, f, b.territory),
                        "forces": {"normal": n, "special": sp},
                        "most_dial": decimal_str(strength_of(pos, f, o, n, sp, paid)),
                        "spice_dialing": spice_dialing(pos, f),
                        "kwisatz_haderach": kh,
                        # WBC house rules: the Fremen may grant their ally full strength.
                        "full_strength": spice_dialing(pos, f) and may_grant_strength(pos, f),
                    }
                out.append(row)
    return out
