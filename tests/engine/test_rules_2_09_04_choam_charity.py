"""CHOAM Charity with the CHOAM faction, derived by the engine and confirmed in one record: the
CHOAM collect 2 from the bank for each faction in the game before the others collect, and pay
the others' charity from their own spice (LoLV 2.09.04, 1.03.01, 2.02.09); the Inflation token
placed at a Mentat Pause (2.09.09) doubles every amount at the next turn's charity (2.09.10) or
cancels it (2.09.11), the other side the turn after, then leaves the game (2.09.12)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.errors import IllegalAction, WrongPhase
from dune.engine.game_log import apply
from dune.engine.income import charity_due, inflation_now
from dune.engine.position import Position
from tests.engine.helpers import LOLV, snap

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "choam")
SPICE = {"atreides": 0, "bene_gesserit": 5, "emperor": 1, "fremen": 3, "harkonnen": 2, "choam": 1}


def _pos(phase: str = "choam_charity", **extra: Any) -> Position:
    per = {f: {"spice": n} for f, n in SPICE.items()}
    return load_position(snap(LOLV, SIX, phase=phase, per_faction=per, **extra))


def _spice(pos: Position) -> dict[str, int | None]:
    return {f: st.spice for f, st in pos.states.items()}


def test_2_09_04_the_choam_collect_2_a_faction_and_pay_the_others_charity() -> None:
    """2.09.04: 2 from the bank for each of the six factions (12), then the Atreides (0 -> 2),
    the Emperor (1 -> 2) and the Bene Gesserit (always 2, 2.02.09) are paid from the CHOAM's
    spice: 1 + 12 - 5 = 8."""
    pos = _pos()
    due = charity_due(pos)
    assert due == {"choam": 12, "atreides": 2, "emperor": 1, "bene_gesserit": 2}
    after = apply(pos, {"type": "charity_collected", "amounts": due})
    assert _spice(after) == {**SPICE, "atreides": 2, "emperor": 2, "bene_gesserit": 7, "choam": 8}
    with pytest.raises(IllegalAction) as err:  # another amount than the rules give
        apply(pos, {"type": "charity_collected", "amounts": {**due, "choam": 10}})
    assert err.value.rule == "1.03.01" and "CHOAM 12" in err.value.message and err.value.field == "amounts"


def test_2_09_09_the_inflation_token_is_placed_once_at_the_mentat_pause_by_the_choam() -> None:
    pos = _pos("mentat_pause", turn=3)
    placed = apply(pos, {"type": "inflation_placed", "face": "double"})
    assert placed.inflation == ("double", 3)
    assert load_position(dump_position(placed)) == placed
    with pytest.raises(IllegalAction) as again:
        apply(placed, {"type": "inflation_placed", "face": "cancel"})
    assert again.value.rule == "2.09.09" and again.value.field == "face"
    with pytest.raises(WrongPhase):
        apply(_pos("choam_charity"), {"type": "inflation_placed", "face": "double"})
    classic = load_position(snap(LOLV, phase="mentat_pause"))
    with pytest.raises(IllegalAction) as none:
        apply(classic, {"type": "inflation_placed", "face": "double"})
    assert "only the CHOAM" in none.value.message


def test_2_09_10_welfare_state_doubles_every_charity() -> None:
    pos = _pos(turn=4, inflation=["double", 3])
    assert inflation_now(pos) == "double"
    due = charity_due(pos)
    assert due == {"choam": 24, "atreides": 4, "emperor": 2, "bene_gesserit": 4}
    after = apply(pos, {"type": "charity_collected", "amounts": due})
    assert _spice(after)["choam"] == 1 + 24 - 10 and _spice(after)["atreides"] == 4


def test_2_09_11_market_crash_cancels_every_charity() -> None:
    pos = _pos(turn=4, inflation=["cancel", 3])
    assert charity_due(pos) == {}
    after = apply(pos, {"type": "charity_collected", "amounts": {}})
    assert _spice(after) == SPICE


def test_2_09_12_the_token_flips_for_the_next_turn_then_leaves_the_game() -> None:
    assert inflation_now(_pos(turn=3, inflation=["double", 3])) is None  # placed at this turn's end
    assert inflation_now(_pos(turn=5, inflation=["double", 3])) == "cancel"
    assert charity_due(_pos(turn=5, inflation=["double", 3])) == {}
    assert inflation_now(_pos(turn=6, inflation=["double", 3])) is None
    assert charity_due(_pos(turn=6, inflation=["double", 3]))["choam"] == 12
