"""What a traitor call gives back, by each ruleset's own text (ninth edition).

LoLV 1.07.06.06.00: the caller "adds their leader back to their leader pool to be available
again this PHASE", and a Kwisatz Haderach beside it may be considered not used. AH X.C.8 (no
surviving leader in battle in another territory in the same round) and WBC XV.3 (the Kwisatz
Haderach in one space a turn) give nothing back: a second battle elsewhere with that leader or
the Kwisatz Haderach is refused at AH and WBC tables, citing the table's own rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from tests.engine.battle_helpers import battle, battle_pos, plan
from tests.engine.helpers import LOLV, at

TWO_BATTLES = [
    at("atreides", "arrakeen", 5),
    at("harkonnen", "arrakeen", 4),
    at("atreides", "carthag", 3),
    at("harkonnen", "carthag", 10),
]


def _after_call(ruleset: str, **kw: Any) -> Any:
    """Arrakeen: the Harkonnen call Thufir Hawat a traitor with Feyd-Rautha on their wheel."""
    pos = battle_pos(ruleset, forces=TWO_BATTLES, **kw)
    first = battle(plan(ruleset, "atreides", 3, leader="thufir_hawat"), plan(ruleset, "harkonnen", 1, leader="feyd_rautha", traitor=True))
    return apply(pos, first)


def _feyd_again(ruleset: str) -> dict[str, Any]:
    return battle(plan(ruleset, "atreides", 1, leader="gurney_halleck"), plan(ruleset, "harkonnen", 2, leader="feyd_rautha"), territory="carthag")


def test_lolv_1_07_06_06_00_the_callers_leader_is_available_again_this_phase() -> None:
    after = _after_call(LOLV)
    again = apply(after, _feyd_again(LOLV))
    assert again.states["atreides"].tanks[0] > after.states["atreides"].tanks[0]


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH X.C.8"), ("wbc2018", "AH X.C.8")])
def test_ah_x_c_8_the_callers_leader_has_fought_in_that_territory(ruleset: str, rule: str) -> None:
    """AH X.C.8 (the WBC plays it): the traitor's caller used its leader in Arrakeen."""
    after = _after_call(ruleset)
    with pytest.raises(IllegalAction) as err:
        apply(after, _feyd_again(ruleset))
    assert (err.value.rule, err.value.field) == (rule, "defender.leader")


def test_ah_x_c_8_the_eighth_edition_gave_the_leader_back_at_every_table() -> None:
    """A game recorded under the eighth edition replays as it did."""
    after = _after_call("ah1979", edition=SEQUENCED)
    apply(after, _feyd_again("ah1979"))


def _kh_call(ruleset: str, **kw: Any) -> Any:
    """Arrakeen: the Atreides call Feyd-Rautha a traitor with Gurney Halleck and the Kwisatz
    Haderach on their wheel."""
    pos = battle_pos(ruleset, forces=TWO_BATTLES, kh_losses=8, **kw)
    first = battle(
        plan(ruleset, "atreides", 1, leader="gurney_halleck", kwisatz_haderach=True, traitor=True),
        plan(ruleset, "harkonnen", 2, leader="feyd_rautha"),
    )
    return apply(pos, first)


def _kh_again(ruleset: str) -> dict[str, Any]:
    return battle(
        plan(ruleset, "atreides", 1, leader="duncan_idaho", kwisatz_haderach=True),
        plan(ruleset, "harkonnen", 2, leader="piter_de_vries"),
        territory="carthag",
    )


def test_lolv_1_07_06_06_00_the_kwisatz_haderach_is_considered_unused() -> None:
    apply(_kh_call(LOLV), _kh_again(LOLV))


@pytest.mark.parametrize(("ruleset", "rule"), [("wbc2018", "WBC XV.3"), ("ah1979", "AH X.B.2.a.i")])
def test_wbc_xv_3_the_kwisatz_haderach_fought_beside_the_caller(ruleset: str, rule: str) -> None:
    """WBC XV.3: one space a turn; AH X.B.2.a.i: one leader a turn."""
    after = _kh_call(ruleset)
    with pytest.raises(IllegalAction) as err:
        apply(after, _kh_again(ruleset))
    assert (err.value.rule, err.value.field) == (rule, "aggressor.kwisatz_haderach")
    apply(_kh_call(ruleset, edition=SEQUENCED), _kh_again(ruleset))  # as the eighth edition ruled
