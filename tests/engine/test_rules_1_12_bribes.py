"""Bribes: spice paid to another player lies in front of the recipient's shield until the
Mentat Pause (LoLV 1.12.02). From the third edition of the rulings the engine refuses what the
texts refuse: a bribe between allies (1.12.01: allies make deals, never bribes), before the
first storm (1.12.04) or once the Mentat Pause has begun (1.12.05); under the WBC spice changes
hands in the collection round only, allies included (WBC XIII.1). The AH text lets spice be
part of any deal at any time (AH XIII.C). The second edition accepted all of these."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import CORRECTED, REFINED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import CLASSIC, position

LOLV = ("atreides", "moritani", "emperor", "fremen", "harkonnen", "guild")
BRIBE: dict[str, Any] = {
    "type": "spice_in_front",
    "faction": "atreides",
    "delta": 2,
    "from_faction": "emperor",
}
SPICE = {"per_faction": {"emperor": {"spice": 10}, "atreides": {"spice": 5}}}


def _pos(ruleset: str, edition: int = REFINED, **kw: Any) -> Position:
    factions = LOLV if ruleset == "lolv-2.8.4" else CLASSIC
    return position(ruleset=ruleset, factions=factions, edition=edition, **SPICE, **kw)


def _refused(pos: Position, rule: str, event: dict[str, Any] = BRIBE) -> None:
    with pytest.raises(IllegalAction) as info:
        apply(pos, event)
    assert info.value.rule == rule


def test_1_12_01_no_bribe_between_allies() -> None:
    allied = _pos("lolv-2.8.4", phase="bidding", alliances=[["atreides", "emperor"]])
    _refused(allied, "1.12.01")
    assert apply(_pos("lolv-2.8.4", phase="bidding"), BRIBE).states["atreides"].spice_front == 2
    # The second edition took the judge's word.
    old = _pos("lolv-2.8.4", CORRECTED, phase="bidding", alliances=[["atreides", "emperor"]])
    assert apply(old, BRIBE).states["atreides"].spice_front == 2


def test_1_12_04_no_bribe_before_the_first_storm() -> None:
    _refused(_pos("lolv-2.8.4", turn=1, phase="setup", storm=None), "1.12.04")
    assert (
        apply(_pos("lolv-2.8.4", CORRECTED, turn=1, phase="setup", storm=None), BRIBE).states["emperor"].spice
        == 8
    )


def test_1_12_05_no_bribe_once_the_mentat_pause_has_begun() -> None:
    _refused(_pos("lolv-2.8.4", phase="mentat_pause"), "1.12.05")
    assert apply(_pos("lolv-2.8.4", phase="spice_collection"), BRIBE).states["atreides"].spice_front == 2
    assert (
        apply(_pos("lolv-2.8.4", CORRECTED, phase="mentat_pause"), BRIBE).states["atreides"].spice_front == 2
    )


def test_1_12_02_extortion_from_the_bank_is_no_bribe() -> None:
    """2.12.09.03: the Extortion's bank spice is not a bribe, so the Mentat Pause takes it."""
    event = {"type": "spice_in_front", "faction": "moritani", "delta": 5}
    assert apply(_pos("lolv-2.8.4", phase="mentat_pause"), event).states["moritani"].spice_front == 5


@pytest.mark.parametrize("allied", [False, True])
def test_wbc_xiii_1_spice_changes_hands_in_the_collection_round_only(allied: bool) -> None:
    alliances = [["atreides", "emperor"]] if allied else []
    _refused(_pos("wbc2018", phase="bidding", alliances=alliances), "WBC XIII.1")
    pos = _pos("wbc2018", phase="spice_collection", alliances=alliances)
    assert apply(pos, BRIBE).states["emperor"].spice == 8
    old = _pos("wbc2018", CORRECTED, phase="bidding", alliances=alliances)
    assert apply(old, BRIBE).states["emperor"].spice == 8


def test_ah_xiii_c_spice_may_be_part_of_any_deal_at_any_time() -> None:
    """AH only: the 1979 text sets no time for a bribe's spice and does not bar allies."""
    for phase in ("bidding", "mentat_pause"):
        pos = _pos("ah1979", phase=phase, alliances=[["atreides", "emperor"]])
        assert apply(pos, BRIBE).states["emperor"].spice == 8


@pytest.mark.parametrize("ruleset, rule", [("lolv-2.8.4", "1.12.02"), ("wbc2018", "AH XIII.C"), ("ah1979", "AH XIII.C")])
def test_1_12_02_a_bribe_to_the_payer_itself_is_refused_citing_each_texts_rule(ruleset: str, rule: str) -> None:
    _refused(_pos(ruleset, phase="spice_collection"), rule, {**BRIBE, "from_faction": "atreides"})
