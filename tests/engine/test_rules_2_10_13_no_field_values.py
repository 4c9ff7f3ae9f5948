"""The Richese No-Field tokens at hand: three, numbered 0, 3 and 5 (LoLV 2.10.03); a revealed one
lies face up in front of the shield (2.10.13) until the Richese next ship with a No-Field token,
which returns it to the supply (2.10.10); the Richese's ally may ship with one of the supply,
revealed at once (2.10.19). From the fourth edition of the rulings the engine refuses a revealed
number already face up and a Richese No-Field shipment with none in the supply, and
`load_position` refuses more than three tokens; the third took the judge's word. The ally's
shipment, new to `forces_placed`, is checked in every edition. LoLV only: the Richese is in no
other text."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import ACCOUNTED, REFINED
from dune.engine.errors import IllegalAction, InvalidPosition, UnknownIdentifier
from dune.engine.evaluation import Evaluation, evaluate
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import LOLV, position, snap

FACTIONS = ("atreides", "richese", "emperor", "fremen", "harkonnen", "guild")
PLACE = {"type": "no_field_placed", "territory": "the_great_flat", "sector": 14}


def _pos(edition: int = ACCOUNTED, **kw: Any) -> Position:
    """A LoLV table in the shipment and movement phase, nothing in the tanks."""
    per_faction = {f: {"tanks": 0} for f in FACTIONS}
    for f, values in kw.pop("per_faction", {}).items():
        per_faction[f] = values
    kw |= {"phase": "shipment_movement", "per_faction": per_faction}
    return position(ruleset=LOLV, factions=FACTIONS, edition=edition, **kw)


def _reveal(number: int) -> dict[str, Any]:
    return {"type": "no_field_revealed", "normal": number}


def _ally_ship(number: int, normal: int, faction: str = "emperor") -> dict[str, Any]:
    return {
        "type": "forces_placed",
        "faction": faction,
        "territory": "the_great_flat",
        "sector": 14,
        "normal": normal,
        "no_field": number,
    }


def test_2_10_13_a_revealed_token_lies_face_up_in_front_of_the_shield() -> None:
    pos = apply(apply(_pos(), PLACE), _reveal(3))
    assert pos.supplies.no_field_face_up == {3}
    answer = evaluate(pos)
    board = answer.to_dict()["board"]
    assert (board["no_field_face_up"], board["no_field_supply"]) == ([3], 2)
    assert Evaluation.from_dict(answer.to_dict()) == answer
    assert load_position(dump_position(pos)) == pos
    again = apply(pos, PLACE)  # the next No-Field shipment returns it (2.10.10)
    assert again.supplies.no_field_face_up == frozenset()
    assert evaluate(again).to_dict()["board"]["no_field_supply"] == 2  # one on the board


@pytest.mark.parametrize("edition", [REFINED, ACCOUNTED])
def test_2_10_13_a_number_face_up_is_not_revealed_again(edition: int) -> None:
    """2.10.13: a revealed No-Field token lies face up before the Richese shield, so the token on
    the board shows another number than those face up (2.10.03). From the fourth edition; the
    third took the judge's word."""
    pos = _pos(edition, no_field=["the_great_flat", 14], no_field_face_up=[3])
    if edition == REFINED:
        assert apply(pos, _reveal(3)).supplies.no_field_face_up == {3}
        return
    with pytest.raises(IllegalAction) as info:
        apply(pos, _reveal(3))
    assert (info.value.rule, info.value.field) == ("2.10.13", "normal")
    assert apply(pos, _reveal(5)).supplies.no_field_face_up == {3, 5}


@pytest.mark.parametrize("edition", [REFINED, ACCOUNTED])
def test_2_10_10_no_no_field_shipment_without_a_token_in_the_supply(edition: int) -> None:
    """2.10.10: a No-Field shipment needs a token left in the Richese supply. The Richese's own
    shipment without one is refused from the fourth edition (the third took the judge's word); the ally's, new to
    `forces_placed`, in every edition."""
    alliance = [["emperor", "richese"]]
    one_left = _pos(edition, no_field_face_up=[3], no_field=["carthag", 10], alliances=alliance)
    assert apply(one_left, _ally_ship(5, 5)).supplies.no_field_face_up == {3, 5}
    none_left = _pos(edition, no_field_face_up=[3, 5], no_field=["carthag", 10], alliances=alliance)
    with pytest.raises(IllegalAction) as info:
        apply(none_left, _ally_ship(0, 0))
    assert (info.value.rule, info.value.field) == ("2.10.10", "no_field")
    pos = _pos(edition, no_field_face_up=[0, 3, 5], alliances=alliance)
    if edition == REFINED:
        assert apply(pos, PLACE).supplies.no_field_face_up == frozenset()
        return
    with pytest.raises(IllegalAction) as info:
        apply(pos, PLACE)
    assert info.value.rule == "2.10.10"


def test_2_10_19_the_ally_ships_with_a_token_of_the_supply() -> None:
    pos = _pos(alliances=[["emperor", "richese"]])
    shipped = apply(pos, _ally_ship(5, 5))
    assert shipped.forces[("emperor", "the_great_flat", 14)] == (5, 0, 0)
    assert shipped.supplies.no_field_face_up == {5}
    assert load_position(dump_position(shipped)) == shipped
    zero = apply(pos, _ally_ship(0, 0))  # nothing lands, the token lies face up
    assert zero.supplies.no_field_face_up == {0}
    assert ("emperor", "the_great_flat", 14) not in zero.forces
    few = _pos(
        alliances=[["emperor", "richese"]], per_faction={"emperor": {"reserves": 2, "reserves_special": 0}}
    )
    assert apply(few, _ally_ship(3, 2)).forces[("emperor", "the_great_flat", 14)] == (2, 0, 0)


@pytest.mark.parametrize(
    ("event", "rule", "field"),
    [
        (_ally_ship(5, 5, faction="guild"), "2.10.19", "faction"),  # not the Richese's ally
        (_ally_ship(5, 5, faction="richese"), "2.10.19", "faction"),  # their own: no_field_placed
        (_ally_ship(3, 5), "2.10.13", "normal"),  # the token's number lands
        (_ally_ship(4, 4), "2.10.03", "no_field"),
        ({**_ally_ship(5, 5), "source": "tanks"}, "2.10.19", "source"),
    ],
)
def test_2_10_19_bad_ally_shipments_are_refused(event: dict[str, Any], rule: str, field: str) -> None:
    with pytest.raises(IllegalAction) as info:
        apply(_pos(alliances=[["emperor", "richese"]]), event)
    assert (info.value.rule, info.value.field) == (rule, field)
    face_up = _pos(alliances=[["emperor", "richese"]], no_field_face_up=[5])
    with pytest.raises(IllegalAction) as info:
        apply(face_up, _ally_ship(5, 5))
    assert (info.value.rule, info.value.field) == ("2.10.13", "no_field")


def test_2_10_03_load_position_refuses_more_than_three_tokens() -> None:
    """2.10.03: the Richese have three No-Field tokens, one each of 0, 3 and 5. From the fourth
    edition; snapshots of the third keep loading."""
    data = snap(ruleset=LOLV, factions=FACTIONS, no_field=["carthag", 10], no_field_face_up=[0, 3, 5])
    with pytest.raises(InvalidPosition) as info:
        load_position({**data, "edition": ACCOUNTED})
    assert (info.value.rule, info.value.field) == ("2.10.03", "no_field_face_up")
    old = load_position({**data, "edition": REFINED})  # older snapshots keep loading
    assert load_position(dump_position(old)) == old
    with pytest.raises(UnknownIdentifier) as unknown:
        load_position(snap(ruleset=LOLV, factions=FACTIONS, no_field_face_up=[4]))
    assert unknown.value.field == "no_field_face_up"
    with pytest.raises(InvalidPosition) as info:
        load_position(snap(ruleset=LOLV, factions=FACTIONS, no_field_face_up=[3, 3]))
    assert (info.value.rule, info.value.field) == ("2.10.03", "no_field_face_up")
    others = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
    without = snap(ruleset=LOLV, factions=others, no_field_face_up=[3])
    with pytest.raises(InvalidPosition) as info:
        load_position(without)
    assert info.value.rule == "2.10.13"
    assert load_position({**without, "edition": REFINED}).supplies.no_field_face_up == {3}
