"""The Ecaz Ambassador supply: at setup the Ecaz Ambassador and five drawn at random, face up
in front of the shield (LoLV 2.11.03); only those are placed (2.11.05); a triggered one is set
aside (2.11.07), the Ecaz Ambassador going back to the supply (2.11.10.11) and the Bene
Gesserit one out of the game (2.11.10.02); the storm sends them back to the supply (2.11.09);
once the five random ones have all been triggered, five are drawn anew (2.11.08). A supply the
judge never recorded is not checked, so older logs keep their meaning. From the fourth edition
of the rulings a recorded supply is enforced (placements from it only, 2.11.05) and
`load_position` refuses the supplies the texts make impossible (2.11.03, 2.11.08, 2.11.10); the
third took the judge's word. The supply events are new, so their own checks hold in every
edition. LoLV only: the Ecaz is in no other text."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import ACCOUNTED, CORRECTED, REFINED
from dune.engine.errors import IllegalAction, InvalidPosition, RuleViolation
from dune.engine.evaluation import Evaluation, evaluate
from dune.engine.game_log import apply, is_legal, replay
from dune.engine.impossible import AMBASSADOR_SYMBOLS
from dune.engine.position import Position

from .helpers import LOLV, at, position, setup_event, snap

FACTIONS = ("atreides", "ecaz", "emperor", "fremen", "harkonnen", "guild")
FIVE = ["atreides", "emperor", "fremen", "guild", "ixians"]
SEVEN = ["ecaz", "atreides", "emperor", "guild", "ixians", "choam", "richese"]
STRONGHOLDS = ("carthag", "arrakeen", "tueks_sietch", "sietch_tabr", "habbanya_sietch")
#: Two factions in every stronghold, so one of them may trigger any Ambassador there (2.11.07).
GUESTS = [at(f, t) for t in STRONGHOLDS for f in ("atreides", "harkonnen")]


def _pos(edition: int = ACCOUNTED, **kw: Any) -> Position:
    kw.setdefault("phase", "shipment_movement")
    kw.setdefault("forces", GUESTS)
    return position(ruleset=LOLV, factions=FACTIONS, edition=edition, **kw)


def _place(territory: str, symbol: str) -> dict[str, Any]:
    return {"type": "ambassador_placed", "territory": territory, "ambassador": symbol}


def _remove(territory: str, by: str | None = None) -> dict[str, Any]:
    return {"type": "ambassador_removed", "territory": territory, "triggered_by": by}


def test_2_11_03_the_setup_supply_is_the_ecaz_ambassador_and_five_random_ones() -> None:
    setup = replay([setup_event(LOLV, FACTIONS)])
    assert setup.supplies.ambassadors is None  # nobody recorded it yet
    drawn = apply(setup, {"type": "ambassadors_drawn", "ambassadors": FIVE})
    assert drawn.supplies.ambassadors == {"ecaz", *FIVE}
    answer = evaluate(drawn)
    board = answer.to_dict()["board"]
    assert board["ambassador_supply"] == sorted(["ecaz", *FIVE])
    assert Evaluation.from_dict(answer.to_dict()) == answer
    assert (board["ambassadors_aside"], board["ambassadors_out"]) == ([], [])
    assert load_position(dump_position(drawn)) == drawn
    same = apply(setup, {"type": "ambassador_supply_set", "supply": ["ecaz", *FIVE]})
    assert same.supplies == drawn.supplies
    with pytest.raises(IllegalAction) as info:  # the Ecaz Ambassador is part of it
        apply(setup, {"type": "ambassador_supply_set", "supply": [*FIVE, "choam"]})
    assert (info.value.rule, info.value.field) == ("2.11.03", "supply")


@pytest.mark.parametrize("edition", [REFINED, ACCOUNTED])
def test_2_11_05_only_ambassadors_of_the_supply_are_placed(edition: int) -> None:
    """2.11.05: the Ecaz place Ambassadors out of their supply. Once the supply is recorded (by
    events no older log holds), a placement takes its token from it and one not in it is
    refused, in every edition."""
    pos = _pos(edition, ambassador_supply=["ecaz", "fremen"])
    placed = apply(pos, _place("carthag", "fremen"))
    assert placed.supplies.ambassadors == {"ecaz"}
    assert placed.ambassadors == {"carthag": "fremen"}
    assert load_position(dump_position(placed)) == placed
    with pytest.raises(IllegalAction) as info:
        apply(pos, _place("carthag", "guild"))
    assert (info.value.rule, info.value.field) == ("2.11.05", "ambassador")
    assert "not in the Ecaz supply" in info.value.message


@pytest.mark.parametrize("edition", [CORRECTED, REFINED, ACCOUNTED])
def test_2_11_05_an_unknown_supply_is_not_checked(edition: int) -> None:
    """A judge who never recorded the supply (every older log) places as before."""
    placed = apply(_pos(edition), _place("carthag", "guild"))
    assert placed.ambassadors == {"carthag": "guild"} and placed.supplies.ambassadors is None
    gone = apply(placed, _remove("carthag", "atreides"))
    assert gone.supplies == placed.supplies  # nothing tracked off the board


def test_2_11_07_a_triggered_ambassador_is_set_aside() -> None:
    """2.11.07 sets a triggered token aside; 2.11.10.11 sends the Ecaz Ambassador back to the
    supply; 2.11.10.02 takes the Bene Gesserit one out of the game."""
    placed = {"carthag": "fremen", "arrakeen": "ecaz", "tueks_sietch": "bene_gesserit"}
    pos = _pos(ambassador_supply=["guild"], ambassadors=placed)
    pos = apply(pos, _remove("carthag", "atreides"))
    assert pos.supplies.ambassadors_aside == {"fremen"}
    pos = apply(pos, _remove("arrakeen", "harkonnen"))
    assert pos.supplies.ambassadors == {"guild", "ecaz"}
    pos = apply(pos, _remove("tueks_sietch", "atreides"))
    assert pos.supplies.ambassadors_out == {"bene_gesserit"}
    assert pos.ambassadors == {}
    board = evaluate(pos).to_dict()["board"]
    assert (board["ambassadors_aside"], board["ambassadors_out"]) == (["fremen"], ["bene_gesserit"])
    assert load_position(dump_position(pos)) == pos


def test_2_11_09_the_storm_sends_ambassadors_back_to_the_supply() -> None:
    kw: dict[str, Any] = {"ambassador_supply": ["ecaz"], "ambassadors": {"carthag": "fremen"}}
    kw |= {"phase": "storm", "storm": 8, "automatic_losses": True, "forces": []}
    stormed = apply(_pos(**kw), {"type": "storm_moved", "sectors": 3})  # 9..11: Carthag (10)
    assert stormed.ambassadors == {} and stormed.supplies.ambassadors == {"ecaz", "fremen"}
    by_hand = apply(_pos(ambassador_supply=["ecaz"], ambassadors={"carthag": "fremen"}), _remove("carthag"))
    assert by_hand.supplies.ambassadors == {"ecaz", "fremen"}  # triggered by nobody: stormed


def test_2_11_08_five_new_ones_once_all_five_random_ones_are_triggered() -> None:
    aside = ["atreides", "emperor", "fremen", "guild"]
    pos = _pos(ambassador_supply=["ecaz"], ambassadors_aside=aside, ambassadors={"carthag": "ixians"})
    draw = {
        "type": "ambassadors_drawn",
        "ambassadors": ["atreides", "choam", "richese", "tleilaxu", "harkonnen"],
    }
    with pytest.raises(IllegalAction) as info:  # the Ixian Ambassador has not been triggered
        apply(pos, draw)
    assert (info.value.rule, info.value.field) == ("2.11.08", "ambassadors")
    pos = apply(pos, _remove("carthag", "atreides"))
    drawn = apply(pos, draw)
    assert drawn.supplies.ambassadors == {"ecaz", "atreides", "choam", "richese", "tleilaxu", "harkonnen"}
    assert drawn.supplies.ambassadors_aside == frozenset()  # back with the unused tokens
    out = _pos(ambassador_supply=["ecaz"], ambassadors_aside=aside[:3], ambassadors_out=["bene_gesserit"])
    with pytest.raises(IllegalAction) as info:
        apply(out, {**draw, "ambassadors": ["bene_gesserit", *draw["ambassadors"][1:]]})
    assert (info.value.rule, info.value.field) == ("2.11.10.02", "ambassadors")


def test_2_11_08_the_first_draw_is_at_setup_unless_the_supply_is_recorded() -> None:
    with pytest.raises(IllegalAction) as info:
        apply(_pos(), {"type": "ambassadors_drawn", "ambassadors": FIVE})
    assert (info.value.rule, info.value.field) == ("2.11.08", "ambassadors")
    with pytest.raises(IllegalAction) as info:  # five others than the Ecaz's
        apply(replay([setup_event(LOLV, FACTIONS)]), {"type": "ambassadors_drawn", "ambassadors": FIVE[:4]})
    assert (info.value.rule, info.value.field) == ("2.11.03", "ambassadors")


@pytest.mark.parametrize(
    ("event", "rule", "field"),
    [
        ({"supply": ["ecaz", "moritani"]}, "2.11.10", "supply"),
        ({"supply": ["ecaz", "fremen"]}, "2.11.10", "supply"),  # the Fremen one is on the board
        ({"supply": ["ecaz", "guild"], "set_aside": ["guild"]}, "2.11.10", "set_aside"),
        ({"supply": SEVEN}, "2.11.03", "supply"),
        ({"supply": ["guild"], "set_aside": ["ecaz"]}, "2.11.10.11", "set_aside"),
        ({"supply": ["guild"], "out_of_game": ["atreides"]}, "2.11.10.02", "out_of_game"),
        (
            {"supply": ["guild", "choam", "richese"], "set_aside": ["atreides", "emperor"]},
            "2.11.08",
            "supply",
        ),
    ],
)
def test_2_11_10_impossible_supplies_are_refused(event: dict[str, Any], rule: str, field: str) -> None:
    pos = _pos(ambassadors={"carthag": "fremen"})
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "ambassador_supply_set", **event})
    assert (info.value.rule, info.value.field) == (rule, field)
    assert rule in str(info.value)


@pytest.mark.parametrize(
    ("extra", "rule", "field"),
    [
        ({"ambassador_supply": ["ecaz", "fremen"]}, "2.11.10", "ambassador_supply"),  # on the board too
        ({"ambassador_supply": ["moritani"]}, "2.11.10", "ambassador_supply"),
        ({"ambassador_supply": ["guild"], "ambassadors_aside": ["guild"]}, "2.11.10", "ambassadors_aside"),
        ({"ambassador_supply": SEVEN}, "2.11.03", "ambassador_supply"),
        ({"ambassador_supply": [], "ambassadors_aside": ["ecaz"]}, "2.11.10.11", "ambassadors_aside"),
        ({"ambassador_supply": [], "ambassadors_out": ["guild"]}, "2.11.10.02", "ambassadors_out"),
        (
            {"ambassador_supply": ["guild", "choam", "richese", "atreides", "emperor"]},
            "2.11.08",
            "ambassador_supply",
        ),
    ],
)
def test_2_11_03_load_position_refuses_impossible_supplies(
    extra: dict[str, Any], rule: str, field: str
) -> None:
    """From the fourth edition; snapshots of the third keep loading."""
    data = snap(ruleset=LOLV, factions=FACTIONS, ambassadors={"carthag": "fremen"}, **extra)
    with pytest.raises(InvalidPosition) as info:
        load_position({**data, "edition": ACCOUNTED})
    assert (info.value.rule, info.value.field) == (rule, field)
    old = load_position({**data, "edition": REFINED})  # older snapshots keep loading
    assert load_position(dump_position(old)) == old


def test_2_11_03_a_supply_needs_the_ecaz_and_is_stated_before_what_is_set_aside() -> None:
    others = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
    without = snap(ruleset=LOLV, factions=others, ambassador_supply=["fremen"])
    with pytest.raises(InvalidPosition) as info:
        load_position(without)
    assert info.value.rule == "2.11.03"
    assert load_position({**without, "edition": REFINED}).supplies.ambassadors == {"fremen"}
    with pytest.raises(InvalidPosition) as info:
        load_position(snap(ruleset=LOLV, factions=FACTIONS, ambassadors_aside=["fremen"]))
    assert info.value.field == "ambassador_supply"


# --- every token in one place, whatever the judge records ---------------------------------


def _event(data: st.DataObject, pos: Position) -> dict[str, Any]:
    kind = data.draw(st.sampled_from(("place", "place", "trigger", "storm", "draw")))
    if kind == "place":
        territory = data.draw(st.sampled_from(STRONGHOLDS))
        return _place(territory, data.draw(st.sampled_from(sorted(AMBASSADOR_SYMBOLS))))
    if kind in ("trigger", "storm") and pos.ambassadors:
        territory = data.draw(st.sampled_from(sorted(pos.ambassadors)))
        by = data.draw(st.sampled_from(("atreides", "harkonnen"))) if kind == "trigger" else None
        return _remove(territory, by)
    symbols = sorted(AMBASSADOR_SYMBOLS - {"ecaz"})
    return {"type": "ambassadors_drawn", "ambassadors": data.draw(st.permutations(symbols))[:5]}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_2_11_10_each_ambassador_is_in_one_place(data: st.DataObject) -> None:
    """Whatever is recorded (fourth edition), each of the eleven tokens (2.11.03) is in the supply, on the
    board, set aside, out of the game or unused, never two of these (2.11.10); the supply holds
    at most six and every position survives a snapshot round trip."""
    pos = _pos(ambassador_supply=["ecaz", *FIVE])
    for _ in range(data.draw(st.integers(5, 25))):
        event = _event(data, pos)
        if is_legal(pos, event):
            pos = apply(pos, event)
        else:
            with pytest.raises(RuleViolation):
                apply(pos, event)
        sup = pos.supplies
        assert sup.ambassadors is not None
        places = [sup.ambassadors, set(pos.ambassadors.values()), sup.ambassadors_aside, sup.ambassadors_out]
        assert sum(len(p) for p in places) == len(set().union(*places)) <= len(AMBASSADOR_SYMBOLS)
        assert len(sup.ambassadors) <= 6
        assert load_position(dump_position(pos)) == pos
