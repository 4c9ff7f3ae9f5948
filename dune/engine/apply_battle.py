"""Recording a battle (`battle`): the resolution of `battle.resolve.resolve_battle` applied."""

from __future__ import annotations

from typing import Any

from dune.engine.battle.captives import leaders_after
from dune.engine.battle.resolve import resolve_battle
from dune.engine.events import Battle
from dune.engine.losses import remove
from dune.engine.position import Position, evolve
from dune.engine.spice import blow_sector, without_spice


def apply_battle(pos: Position, ev: Battle) -> dict[str, Any]:
    """The forces, leaders, cards and spice the battle's resolution says are lost or won,
    listed in `Position.losses` with their rules."""
    r = resolve_battle(pos, ev)
    changes = remove(pos, list(r.losses), {"states": dict(pos.states)})
    if not r.losses:
        changes["losses"] = ()
    states = changes["states"]
    leaders = leaders_after(pos, r.leaders)
    for f, st in list(states.items()):
        update: dict[str, Any] = {}
        if f in leaders and tuple(leaders[f]) != st.leaders:
            update["leaders"] = tuple(leaders[f])
        gone = r.discarded.get(f, ())
        if gone and st.cards is not None:
            update["cards"] = max(0, st.cards - len(gone))
            if st.card_names is not None:
                names = list(st.card_names)
                for card in gone:
                    if card in names:
                        names.remove(card)
                update["card_names"] = tuple(names)
        delta = r.spice.get(f, 0)
        if delta and st.spice is not None:
            update["spice"] = max(0, st.spice + delta)
        if update:
            states[f] = evolve(st, **update)
    changes["fought"] = r.fought
    if r.kh_losses != pos.kh_losses:
        changes["kh_losses"] = r.kh_losses
    if r.kh_dead != pos.kh_dead:
        changes["kh_dead"] = r.kh_dead
    sector = blow_sector(r.territory)
    if r.board_spice_lost and sector is not None:
        rule = pos.ruleset.cite.get("explosion", "explosion")
        changes = without_spice(pos, [(r.territory, sector, r.board_spice_lost, rule)], changes)
    return changes
