"""The Tleilaxu Ghola card is one card in the deck, played once and discarded (LoLV 3.01.20, AH
questions A.6; the WBC deck holds one): from the ninth edition a second Ghola revival in the
same turn is refused, and so is one by a faction holding no card."""

from __future__ import annotations

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from tests.engine.helpers import ALL_RULESETS, snap

RULE = {"ah1979": "AH questions A.6", "wbc2018": "AH questions A.6", "lolv-2.8.4": "3.01.20"}


def _pos(ruleset: str, **kw: object) -> object:
    per = {f: {"reserves": 15, "tanks": 5, "cards": 1, "spice": 10} for f in ("atreides", "harkonnen")}
    per["emperor"] = {"cards": 0, "reserves": 15, "tanks": 5}
    return load_position(snap(ruleset, phase="revival", per_faction=per, **kw))


def _ghola(faction: str) -> dict[str, object]:
    return {"type": "forces_revived", "faction": faction, "normal": 3, "ghola": True}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_3_01_20_ah_questions_a_6_the_ghola_card_is_used_once(ruleset: str) -> None:
    """LoLV 3.01.20, AH questions A.6."""
    once = apply(_pos(ruleset), _ghola("atreides"))
    assert load_position(dump_position(once)) == once
    with pytest.raises(IllegalAction) as err:
        apply(once, _ghola("harkonnen"))
    assert (err.value.rule, err.value.field) == (RULE[ruleset], "ghola")
    with pytest.raises(IllegalAction) as err:
        apply(_pos(ruleset), _ghola("emperor"))
    assert err.value.rule == RULE[ruleset]
    apply(apply(_pos(ruleset, edition=SEQUENCED), _ghola("atreides")), _ghola("harkonnen"))  # as before
