"""Who set off a Terror token or an Ambassador (`triggered_by`, optional): a faction other than
the token's owner and its ally that has entered the stronghold (LoLV 2.12.06, advisors
included; 2.11.07, not advisors, and not the faction the Ambassador shows). LoLV only: the
Moritani and the Ecaz are in no other text."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.events import event_from_dict
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import at, position

FACTIONS = ("atreides", "moritani", "ecaz", "fremen", "bene_gesserit", "guild")


def _pos(**kw: Any) -> Position:
    kw.setdefault("terror", ["carthag"])
    kw.setdefault("ambassadors", {"carthag": "fremen"})
    return position(ruleset="lolv-2.8.4", factions=FACTIONS, phase="shipment_movement", **kw)


def _refused(pos: Position, event: dict[str, Any], rule: str) -> None:
    with pytest.raises(IllegalAction) as info:
        apply(pos, event)
    assert info.value.rule == rule and info.value.field == "triggered_by"


TERROR = {"type": "terror_revealed", "territory": "carthag"}
AMBASSADOR = {"type": "ambassador_removed", "territory": "carthag"}


def test_2_12_06_a_terror_token_is_triggered_by_a_faction_other_than_an_ally() -> None:
    entered = [at("atreides", "carthag", 2), at("guild", "carthag", 1)]
    pos = _pos(forces=entered, alliances=[["guild", "moritani"]])
    assert "carthag" not in apply(pos, {**TERROR, "triggered_by": "atreides"}).terror
    _refused(pos, {**TERROR, "triggered_by": "guild"}, "2.12.06")  # the Moritani's ally
    _refused(pos, {**TERROR, "triggered_by": "moritani"}, "2.12.06")
    _refused(pos, {**TERROR, "triggered_by": "fremen"}, "2.12.06")  # not there
    advisors = _pos(forces=[at("bene_gesserit", "carthag", 0, advisors=1)])
    assert apply(advisors, {**TERROR, "triggered_by": "bene_gesserit"}).terror == frozenset()
    assert event_from_dict({**TERROR, "triggered_by": "atreides"}).to_dict()["triggered_by"] == "atreides"


def test_2_11_07_an_ambassador_is_triggered_by_another_faction_not_matching_it() -> None:
    entered = [at("atreides", "carthag", 2), at("fremen", "carthag", 1)]
    pos = _pos(forces=entered, terror=[])
    assert apply(pos, {**AMBASSADOR, "triggered_by": "atreides"}).ambassadors == {}
    _refused(pos, {**AMBASSADOR, "triggered_by": "fremen"}, "2.11.07")  # the Fremen Ambassador
    _refused(pos, {**AMBASSADOR, "triggered_by": "ecaz"}, "2.11.07")
    advisors = _pos(forces=[at("bene_gesserit", "carthag", 0, advisors=1)], terror=[])
    _refused(advisors, {**AMBASSADOR, "triggered_by": "bene_gesserit"}, "2.11.07")
    assert apply(pos, AMBASSADOR).ambassadors == {}  # the storm, or a trigger not recorded
