"""Coexistence announced and assumed.

WBC XV.8: a territory the Bene Gesserit announced *not* coexisting in a turn may turn
coexisting again in that turn only after every other faction has left it and a different
faction has entered it.

The position remembers, for each such territory, the other factions there at the
announcement and whether the territory has been vacated since (`Position.declared_apart`);
`game_log` notes the vacating after each event, since any event moving forces may empty it.

AH XV.B: in every territory the Bene Gesserit shares with another faction it is assumed
coexisting unless it has said otherwise (`assume_coexisting`, third edition); a territory
announced apart is remembered the same way, and the assumption returns only as WBC XV.8 would
let a declaration (every other faction gone, a different one come in).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dune.engine.board import POLAR_SINK
from dune.engine.factions import BENE_GESSERIT
from dune.engine.position import ForceKey, Position, Stack

#: territory -> (the other factions there when announced apart, vacated since)
Apart = Mapping[str, tuple[frozenset[str], bool]]


def others_in(forces: Mapping[ForceKey, Stack], territory: str) -> frozenset[str]:
    """Factions other than the Bene Gesserit with tokens in the territory."""
    return frozenset(
        f for (f, t, _s), st in forces.items() if t == territory and f != BENE_GESSERIT and any(st)
    )


def announced_apart(pos: Position, territory: str) -> dict[str, tuple[frozenset[str], bool]]:
    """`declared_apart` with the territory announced not coexisting now."""
    apart = dict(pos.declared_apart)
    apart[territory] = (others_in(pos.forces, territory), False)
    return apart


def may_coexist_again(pos: Position, territory: str) -> bool:
    """Whether a territory announced apart this turn may now be declared coexisting."""
    return _may_again(pos.forces, pos.declared_apart, territory)


def _may_again(forces: Mapping[ForceKey, Stack], apart: Apart, territory: str) -> bool:
    entry = apart.get(territory)
    if entry is None:
        return True
    before, vacated = entry
    return vacated and bool(others_in(forces, territory) - before)


def assume_coexisting(pos: Position) -> frozenset[str]:
    """`pos.coexisting` with every territory the BG shares with another faction and has not
    announced apart (AH XV.B)."""
    shared = {
        t
        for (f, t, _s), st in pos.forces.items()
        if f == BENE_GESSERIT and any(st) and t != POLAR_SINK and t not in pos.coexisting
    }
    assumed = {
        t for t in shared if others_in(pos.forces, t) and _may_again(pos.forces, pos.declared_apart, t)
    }
    return pos.coexisting | assumed if assumed else pos.coexisting


def note_vacated(position: Position, changes: dict[str, Any]) -> dict[str, Any]:
    """`changes` plus any territory announced apart that the event left without other factions."""
    apart = changes.get("declared_apart", position.declared_apart)
    forces = changes.get("forces", position.forces)
    emptied = [t for t, (_before, vacated) in apart.items() if not vacated and not others_in(forces, t)]
    if not emptied:
        return changes
    new = dict(apart)
    for t in emptied:
        new[t] = (apart[t][0], True)
    return {**changes, "declared_apart": new}
