"""WBC house rules (Fremen): "the Fremen may permit their ally" to count its forces at full
strength for no cost in its own battles (`full_strength` on the ally's plan); LoLV 2.04.21
(Battle Hardened) is the Fremen's alone."""

from __future__ import annotations

import pytest

from dune.engine.battle.choices import battle_choices
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos
from tests.engine.helpers import LOLV


def _body() -> dict[str, object]:
    return battle(
        {"faction": "atreides", "dial": 5, "leader": "gurney_halleck", "full_strength": True},
        {"faction": "harkonnen", "dial": 1, "spice": 1, "leader": "feyd_rautha"},
    )


def test_wbc_house_rules_the_fremen_ally_dials_at_full_strength() -> None:
    after = apply(battle_pos("wbc2018", alliances=[["atreides", "fremen"]]), _body())
    assert after.states["atreides"].spice == 10  # nothing paid
    with pytest.raises(IllegalAction) as err:
        apply(battle_pos("wbc2018"), _body())
    assert (err.value.rule, err.value.field) == ("WBC house rules (Fremen)", "aggressor.full_strength")


def test_2_04_21_battle_hardened_is_the_fremens_alone() -> None:
    with pytest.raises(IllegalAction) as err:
        apply(battle_pos(LOLV, alliances=[["atreides", "fremen"]]), _body())
    assert (err.value.rule, err.value.field) == ("2.04.21", "aggressor.full_strength")


def test_wbc_house_rules_the_battle_form_offers_the_grant_to_the_fremens_ally_only() -> None:
    """WBC house rules (Fremen): `battle_choices` says which side may be granted full strength."""
    rows = battle_choices(battle_pos("wbc2018", alliances=[["atreides", "fremen"]]))
    assert rows[0]["sides"]["atreides"]["full_strength"] is True
    assert rows[0]["sides"]["harkonnen"]["full_strength"] is False
    assert battle_choices(battle_pos(LOLV, alliances=[["atreides", "fremen"]]))[0]["sides"]["atreides"]["full_strength"] is False
