"""The Bene Gesserit reveal their prediction only when it came true (ninth edition): at the
Mentat Pause of the predicted turn, the predicted faction having met the requirements for
victory (LoLV 2.02.03) or won (AH IV.A), alone or with an ally."""

from __future__ import annotations

import pytest

from dune.engine.codec.position import load_position
from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from tests.engine.helpers import ALL_RULESETS, at, snap

REVEAL = {"type": "bg_prediction_revealed"}
HELD = [at("harkonnen", "carthag", 3), at("harkonnen", "arrakeen", 3), at("harkonnen", "tueks_sietch", 3)]
RULE = {"ah1979": "AH IV.A", "wbc2018": "AH IV.A", "lolv-2.8.4": "2.02.03"}


def _pos(ruleset: str, forces: list[dict[str, object]], **kw: object) -> object:
    return load_position(snap(ruleset, forces=forces, phase="mentat_pause", turn=3, bg_prediction={"faction": "harkonnen", "turn": 3}, **kw))


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_02_03_ah_iv_a_no_reveal_on_a_turn_nobody_won(ruleset: str) -> None:
    """LoLV 2.02.03, AH IV.A."""
    with pytest.raises(IllegalAction) as err:
        apply(_pos(ruleset, HELD[:2]), REVEAL)
    assert err.value.rule == RULE[ruleset]
    assert apply(_pos(ruleset, HELD), REVEAL).prediction_revealed
    assert apply(_pos(ruleset, HELD[:2], edition=SEQUENCED), REVEAL).prediction_revealed  # as before
