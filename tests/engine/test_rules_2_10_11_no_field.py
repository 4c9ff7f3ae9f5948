"""The Richese No-Field token, shipped in place of forces (LoLV 2.10.10), counts as one force for the occupancy limit (LoLV 2.10.11), one
on the board at a time (2.10.15); revealed, Richese forces from reserves replace it (2.10.13). LoLV only: the Richese is in no
other text (the AH and WBC rulesets refuse the token)."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position, evolve

from .helpers import at, position

FACTIONS = ("atreides", "richese", "emperor", "fremen", "harkonnen", "guild")


def _table(**kw: object) -> Position:
    return position(
        ruleset="lolv-2.8.4",
        factions=FACTIONS,
        storm=0,
        phase="shipment_movement",
        per_faction={f: {"tanks": 0} for f in FACTIONS},
        **kw,
    )


def test_2_10_11_no_field_token_fills_a_stronghold_seat() -> None:
    pos = apply(
        _table(forces=[at("harkonnen", "carthag", 2)]),
        {"type": "no_field_placed", "territory": "carthag", "sector": 10},
    )
    assert pos.no_field == ("carthag", 10)
    with pytest.raises(IllegalAction) as info:
        apply(
            pos,
            {
                "type": "forces_placed",
                "faction": "emperor",
                "territory": "carthag",
                "sector": 10,
                "normal": 1,
            },
        )
    assert info.value.rule == "1.06.02.05"  # a shipment: 1.06.02.05


def test_2_10_15_one_no_field_token_on_the_board() -> None:
    pos = apply(_table(), {"type": "no_field_placed", "territory": "carthag", "sector": 10})
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "no_field_placed", "territory": "arrakeen", "sector": 9})
    assert info.value.rule == "2.10.15"


def test_2_10_13_revealed_token_becomes_forces() -> None:
    pos = apply(_table(), {"type": "no_field_placed", "territory": "carthag", "sector": 10})
    pos = apply(pos, {"type": "no_field_revealed", "normal": 3})
    assert pos.no_field is None
    assert pos.forces[("richese", "carthag", 10)] == (3, 0, 0)


def test_2_10_13_fewer_forces_in_reserve_than_the_token_shows_all_go() -> None:
    """The token shows 5 and only 2 Richese forces are left in reserve: both take its place."""
    pos = apply(_table(), {"type": "no_field_placed", "territory": "carthag", "sector": 10})
    pos = pos.evolve(states={**pos.states, "richese": evolve(pos.states["richese"], reserves=(2, 0))})
    pos = apply(pos, {"type": "no_field_revealed", "normal": 5})
    assert pos.forces[("richese", "carthag", 10)] == (2, 0, 0)
    assert pos.states["richese"].reserves == (0, 0)


@pytest.mark.parametrize("number", [1, 2, 4, 6])
def test_2_10_03_a_no_field_token_shows_0_3_or_5(number: int) -> None:
    pos = apply(_table(), {"type": "no_field_placed", "territory": "carthag", "sector": 10})
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "no_field_revealed", "normal": number})
    assert info.value.rule == "2.10.03" and info.value.field == "normal"
    assert "0, 3 or 5" in info.value.message


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_2_10_11_no_tokens_in_the_1979_game(ruleset: str) -> None:
    pos = position(ruleset=ruleset, storm=0)
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "no_field_placed", "territory": "carthag", "sector": 10})
