"""LoLV 2.02.19: advisors under the storm cannot flip to fighters (a LoLV rule only; the AH
and WBC Bene Gesserit coexists by declaration instead), so the AH/WBC test shows the flip
unrestricted there."""

from __future__ import annotations

import pytest

from dune.engine.editions import LIMITED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply

from .helpers import at, position

LOLV = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
FLIP = {"type": "forces_flipped", "territory": "the_great_flat", "sector": 14, "side": "fighters", "count": 2}


def test_2_02_19_advisors_under_storm_cannot_flip() -> None:
    forces = [at("bene_gesserit", "the_great_flat", 0, advisors=2, sector=14)]
    stormed = position(ruleset="lolv-2.8.4", factions=LOLV, storm=14, forces=forces)
    with pytest.raises(IllegalAction) as info:
        apply(stormed, FLIP)
    assert info.value.rule == "2.02.19"
    calm = position(ruleset="lolv-2.8.4", factions=LOLV, storm=2, forces=forces)
    assert apply(calm, FLIP).forces[("bene_gesserit", "the_great_flat", 14)] == (2, 0, 0)


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_2_02_19_is_not_a_rule_of_the_1979_game(ruleset: str) -> None:
    """The AH/WBC rulesets have no such restriction (their flag is off): the flip stands. (The
    tokens have no advisor side there from the sixth edition, AH XV.A, WBC XV.5: the fifth's.)"""
    forces = [at("bene_gesserit", "the_great_flat", 0, advisors=2, sector=14)]
    pos = position(ruleset=ruleset, storm=14, forces=forces, edition=LIMITED)
    assert apply(pos, FLIP).forces[("bene_gesserit", "the_great_flat", 14)] == (2, 0, 0)
