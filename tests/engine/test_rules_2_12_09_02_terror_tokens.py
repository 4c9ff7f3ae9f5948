"""Moritani Terror tokens: placed in strongholds without one, storm or not, never on the Shield
Wall or in the HMS (LoLV 2.12.05, 4.02.07); revealed tokens leave the game (2.12.07); Atomics
clears the territory, nobody ships there again, and the Moritani's and its ally's hand limit
drops by one (2.12.09.02). LoLV only: the Moritani are in no other text."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import at, position

FACTIONS = ("atreides", "moritani", "emperor", "fremen", "harkonnen", "guild")


def _table(**kw: object) -> Position:
    return position(
        ruleset="lolv-2.8.4",
        factions=FACTIONS,
        storm=10,
        per_faction={f: {"tanks": 0} for f in FACTIONS},
        **kw,
    )


def test_2_12_05_terror_tokens_go_into_strongholds_even_under_storm() -> None:
    pos = apply(_table(), {"type": "terror_placed", "territory": "carthag"})
    assert pos.terror == frozenset({"carthag"})
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "terror_placed", "territory": "carthag"})
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "terror_placed", "territory": "shield_wall"})
    assert info.value.rule == "2.12.05"
    moved = apply(pos, {"type": "terror_placed", "territory": "arrakeen", "from_territory": "carthag"})
    assert moved.terror == frozenset({"arrakeen"})


def test_2_12_09_02_atomics_clear_the_territory_and_close_it_to_shipment() -> None:
    pos = _table(forces=[at("harkonnen", "carthag", 4)], alliances=[["moritani", "emperor"]])
    pos = apply(pos, {"type": "terror_placed", "territory": "carthag"})
    pos = apply(pos, {"type": "terror_revealed", "territory": "carthag", "effect": "atomics"})
    assert pos.aftermath == "carthag" and pos.terror == frozenset()
    assert ("harkonnen", "carthag", 10) not in pos.forces
    assert pos.states["harkonnen"].tanks == (4, 0)
    ship = {"type": "forces_placed", "faction": "fremen", "territory": "carthag", "sector": 10, "normal": 1}
    with pytest.raises(IllegalAction) as info:
        apply(pos.evolve(storm=0, phase="shipment_movement", alliances=(("fremen", "guild"),)), ship)
    assert info.value.rule == "2.12.09.02"
    for f in ("moritani", "emperor"):
        with pytest.raises(IllegalAction):
            apply(pos, {"type": "cards_set", "faction": f, "count": 4})
        assert apply(pos, {"type": "cards_set", "faction": f, "count": 3}).states[f].cards == 3
    assert apply(pos, {"type": "cards_set", "faction": "atreides", "count": 4}).states["atreides"].cards == 4
