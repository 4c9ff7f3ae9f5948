"""The order of the battles (eighth edition): the first player in storm order is the aggressor
until all its battles are fought, then the next (AH X.A.3, WBC X.1 with the Guild in player dot
order, LoLV 1.07.02). With the storm on sector 0 and the markers on the dots 1, 4, ... in seat
order, the storm order is Atreides, Bene Gesserit, Emperor, Fremen, Harkonnen, Guild."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.battle.choices import battle_choices
from dune.engine.editions import COUNTED, CURRENT
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos, plan
from tests.engine.helpers import ALL_RULESETS, LOLV, at

RULE = {"ah1979": "AH X.A.3", "wbc2018": "WBC X.1", LOLV: "1.07.02"}

FORCES = [
    at("atreides", "arrakeen", 5),
    at("harkonnen", "arrakeen", 4),
    at("emperor", "carthag", 5, sector=10),
    at("fremen", "carthag", 4, sector=10),
]


def _two_battles(ruleset: str, edition: int = CURRENT) -> Any:
    return battle_pos(ruleset, FORCES, edition=edition)


def _carthag(ruleset: str) -> dict[str, Any]:
    return battle(
        plan(ruleset, "emperor", 5, leader="hasimir_fenring", lost_normal=5),
        plan(ruleset, "fremen", 0, leader="jamis"),
        territory="carthag",
    )


def _arrakeen(ruleset: str) -> dict[str, Any]:
    return battle(
        plan(ruleset, "atreides", 5, leader="thufir_hawat", lost_normal=5),
        plan(ruleset, "harkonnen", 0, leader="umman_kudu"),
    )


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_02_the_first_players_battles_come_first(ruleset: str) -> None:
    pos = _two_battles(ruleset)
    with pytest.raises(IllegalAction) as err:
        apply(pos, _carthag(ruleset))
    assert err.value.rule == RULE[ruleset] and err.value.field == "territory"
    assert "Atreides comes first in storm order" in err.value.message and "Arrakeen" in err.value.message
    after = apply(pos, _arrakeen(ruleset))
    after = apply(after, _carthag(ruleset))
    assert ("fremen", "carthag", 10) not in after.forces


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_02_the_seventh_edition_took_the_judges_word(ruleset: str) -> None:
    pos = _two_battles(ruleset, edition=COUNTED)
    assert ("fremen", "carthag", 10) not in apply(pos, _carthag(ruleset)).forces


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_02_the_battle_form_offers_the_current_aggressors_battles(ruleset: str) -> None:
    pos = _two_battles(ruleset)
    assert [(r["territory"], r["aggressor"]) for r in battle_choices(pos)] == [("arrakeen", "atreides")]
    after = apply(pos, _arrakeen(ruleset))
    assert [(r["territory"], r["aggressor"]) for r in battle_choices(after)] == [("carthag", "emperor")]
    old = _two_battles(ruleset, edition=COUNTED)
    assert {r["territory"] for r in battle_choices(old)} == {"arrakeen", "carthag"}
