"""AH questions A.8: under the 1979 rules a worm the Fremen summon with a Karama signals no
nexus (only a Shai-Hulud card does), so no alliance is made on it; it still counts as a worm.
WBC XVII.8 rules that it does cause a nexus, and the LoLV counts every worm (4.02.00). From the
third edition of the rulings; the second opened a nexus in every ruleset."""

from __future__ import annotations

import pytest

from dune.engine.editions import CORRECTED, REFINED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply

from .helpers import position

KARAMA_WORM = {"type": "worm", "territory": "the_great_flat", "karama": True}
ALLY = {"type": "alliance_formed", "factions": ["atreides", "fremen"]}


def test_ah_questions_a_8_a_karama_worm_opens_no_nexus_under_ah() -> None:
    pos = apply(position(ruleset="ah1979", edition=REFINED, phase="spice_blow"), KARAMA_WORM)
    assert not pos.nexus and pos.worms == 1
    with pytest.raises(IllegalAction) as info:
        apply(pos, ALLY)
    assert info.value.rule == "AH XII.A"
    old = apply(position(ruleset="ah1979", edition=CORRECTED, phase="spice_blow"), KARAMA_WORM)
    assert old.nexus


@pytest.mark.parametrize("ruleset", ["wbc2018", "lolv-2.8.4"])
def test_wbc_xvii_8_a_karama_worm_opens_a_nexus(ruleset: str) -> None:
    pos = apply(position(ruleset=ruleset, edition=REFINED, phase="spice_blow"), KARAMA_WORM)
    assert pos.nexus
    assert ("atreides", "fremen") in apply(pos, ALLY).alliances
