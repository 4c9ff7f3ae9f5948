"""The storm moves once in each storm phase (LoLV 1.01.02, AH VI.C; Weather Control replaces
the move rather than adding one: WBC VI.3, LoLV 3.01.23)."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply

from .helpers import in_turn, next_turn

RULE = {"ah1979": "AH VI.C", "wbc2018": "AH VI.C", "lolv-2.8.4": "1.01.02"}


@pytest.mark.parametrize("ruleset", sorted(RULE))
def test_1_01_02_second_storm_move_in_one_phase_refused(ruleset: str) -> None:
    pos = apply(in_turn(2, ruleset=ruleset), {"type": "storm_moved", "sectors": 3})
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "storm_moved", "sectors": 2})
    assert info.value.rule == RULE[ruleset]
    later = apply(next_turn(pos), {"type": "storm_moved", "sectors": 2})
    assert later.storm == 5
