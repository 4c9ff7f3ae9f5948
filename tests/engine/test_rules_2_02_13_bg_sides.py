"""The Bene Gesserit's two sides (LoLV 2.02.10): advisors are sent only where the BG has no
fighters (2.02.11), fighters are never shipped where its advisors are (2.02.13), so the two
never share a territory, and a flip turns every force of the territory (checked from the third
edition of the rulings). Advisors never flip to fighters beside an ally (2.02.18 PEACETIME;
under AH XII.E.5.a and WBC XV.10 BG tokens beside an ally stay coexisting): the refusal cites
that rule, and from the third edition an Ecaz ally is no exception."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import CORRECTED, REFINED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import CLASSIC, at, position

LOLV = "lolv-2.8.4"
WITH_ECAZ = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "ecaz")


def _pos(edition: int = REFINED, ruleset: str = LOLV, **kw: Any) -> Position:
    kw.setdefault("phase", "shipment_movement")
    kw.setdefault("storm", 0)
    kw.setdefault("per_faction", {"bene_gesserit": {"tanks": 0}})
    return position(ruleset=ruleset, edition=edition, **kw)


def _ship(normal: int = 0, advisors: int = 0) -> dict[str, Any]:
    return {
        "type": "forces_placed",
        "faction": "bene_gesserit",
        "territory": "the_great_flat",
        "sector": 14,
        "normal": normal,
        "advisors": advisors,
    }


def _refused(pos: Position, event: dict[str, Any], rule: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        apply(pos, event)
    assert info.value.rule == rule
    return info.value


FIGHTERS = [at("bene_gesserit", "the_great_flat", 2, sector=14)]
ADVISORS = [at("bene_gesserit", "the_great_flat", 0, advisors=2, sector=14)]


def test_2_02_11_no_advisors_sent_where_the_bg_has_fighters() -> None:
    error = _refused(_pos(forces=FIGHTERS), _ship(advisors=1), "2.02.11")
    assert error.field == "advisors"
    assert apply(_pos(forces=ADVISORS), _ship(advisors=1)).forces[
        ("bene_gesserit", "the_great_flat", 14)
    ] == (0, 0, 3)
    assert apply(_pos(CORRECTED, forces=FIGHTERS), _ship(advisors=1)).forces[
        ("bene_gesserit", "the_great_flat", 14)
    ] == (2, 0, 1)


def test_2_02_13_no_fighters_shipped_where_the_bg_has_advisors() -> None:
    error = _refused(_pos(forces=ADVISORS), _ship(normal=1), "2.02.13")
    assert error.field == "normal"
    assert apply(_pos(forces=FIGHTERS), _ship(normal=1)).forces[("bene_gesserit", "the_great_flat", 14)] == (
        3,
        0,
        0,
    )
    assert apply(_pos(CORRECTED, forces=ADVISORS), _ship(normal=1)).forces


def _flip(side: str, count: int) -> dict[str, Any]:
    return {
        "type": "forces_flipped",
        "territory": "the_great_flat",
        "sector": 14,
        "side": side,
        "count": count,
    }


def test_2_02_13_a_flip_turns_the_whole_territory() -> None:
    _refused(_pos(forces=ADVISORS), _flip("fighters", 1), "2.02.13")
    _refused(_pos(forces=FIGHTERS), _flip("advisors", 1), "2.02.13")
    assert apply(_pos(forces=ADVISORS), _flip("fighters", 2)).forces[
        ("bene_gesserit", "the_great_flat", 14)
    ] == (
        2,
        0,
        0,
    )
    assert apply(_pos(CORRECTED, forces=ADVISORS), _flip("fighters", 1)).forces


def test_2_02_18_peacetime_no_flip_to_fighters_beside_an_ally() -> None:
    forces = [*ADVISORS, at("atreides", "the_great_flat", 3, sector=14)]
    for edition in (CORRECTED, REFINED):
        allied = _pos(edition, forces=forces, alliances=[["atreides", "bene_gesserit"]])
        error = _refused(allied, _flip("fighters", 2), "2.02.18")
        assert "Atreides" in error.message


def test_2_02_18_peacetime_holds_for_an_ecaz_ally_from_the_third_edition() -> None:
    forces = [*ADVISORS, at("ecaz", "the_great_flat", 3, sector=14)]
    kw: dict[str, Any] = {"factions": WITH_ECAZ, "forces": forces, "alliances": [["bene_gesserit", "ecaz"]]}
    _refused(_pos(**kw), _flip("fighters", 2), "2.02.18")
    old = apply(_pos(CORRECTED, **kw), _flip("fighters", 2))  # 2.11.11 was read as covering it
    assert old.forces[("bene_gesserit", "the_great_flat", 14)] == (2, 0, 0)


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH XII.E.5.a"), ("wbc2018", "WBC XV.10")])
def test_ah_xii_e_5_a_bg_tokens_beside_an_ally_stay_coexisting(ruleset: str, rule: str) -> None:
    forces = [*ADVISORS, at("atreides", "the_great_flat", 3, sector=14)]
    allied = _pos(ruleset=ruleset, factions=CLASSIC, forces=forces, alliances=[["atreides", "bene_gesserit"]])
    _refused(allied, _flip("fighters", 2), rule)
