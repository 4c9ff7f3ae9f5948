"""LoLV 1.13.00: the table chooses the Basic or the Advanced game at setup (`game_setup.options`
holds "advanced" for the Advanced game). Each faction sheet lists its Basic abilities (2.xx.00);
the rest, and the Karama powers (1.14.00), apply only in the Advanced game: the Fremen's half
storm losses (2.04.16) and storm migration (2.04.17), the BG's advisors and flips (2.02.11-21),
the Tleilaxu's gholas (2.08.16), the Auditor's protections (2.09.19), the Ixians' Karama move of
the HMS (1.14.07). From the third edition of the rulings; games of the second played every
ability. The 1979 texts have one game: AH and WBC refuse the option."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import CORRECTED, REFINED
from dune.engine.errors import IllegalAction, InvalidPosition, RuleViolation
from dune.engine.game_log import apply, replay
from dune.engine.position import Position

from .helpers import at, position, setup_event

LOLV = "lolv-2.8.4"
FREMEN = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
TLEILAXU = ("atreides", "tleilaxu", "choam", "fremen", "harkonnen", "guild")


def _game(options: list[str], edition: int = REFINED, **kw: Any) -> Position:
    return position(ruleset=LOLV, edition=edition, options=options, **kw)


def test_1_13_00_the_advanced_game_is_a_setup_option() -> None:
    pos = replay([setup_event(LOLV, options=["advanced"])])
    assert pos.setup is not None and pos.setup.options == {"advanced"}
    basic = replay([setup_event(LOLV, options=[])])
    assert basic.setup is not None and basic.setup.options == frozenset()
    for ruleset in ("ah1979", "wbc2018"):
        with pytest.raises(RuleViolation):
            replay([setup_event(ruleset, options=["advanced"])])


def _storm(options: list[str], edition: int = REFINED) -> Position:
    pos = _game(
        options,
        edition,
        factions=FREMEN,
        phase="storm",
        turn=3,
        storm=0,
        automatic_losses=True,
        forces=[at("fremen", "the_great_flat", 4, sector=14)],
        per_faction={"fremen": {"tanks": 0}},
    )
    return apply(pos, {"type": "storm_moved", "sectors": 14})


def test_2_04_16_half_storm_losses_in_the_advanced_game_only() -> None:
    assert _storm(["advanced"]).forces[("fremen", "the_great_flat", 14)] == (2, 0, 0)
    assert ("fremen", "the_great_flat", 14) not in _storm([]).forces
    assert _storm([], CORRECTED).forces[("fremen", "the_great_flat", 14)] == (2, 0, 0)


def test_2_04_17_storm_migration_in_the_advanced_game_only() -> None:
    ship = {
        "type": "forces_placed",
        "faction": "fremen",
        "territory": "the_great_flat",
        "sector": 14,
        "normal": 2,
    }
    kw: dict[str, Any] = {"factions": FREMEN, "phase": "shipment_movement", "storm": 14}
    kw["per_faction"] = {"fremen": {"tanks": 0}}
    assert apply(_game(["advanced"], **kw), ship).forces
    with pytest.raises(IllegalAction) as info:
        apply(_game([], **kw), ship)
    assert info.value.rule == "1.06.02.04"
    assert apply(_game([], CORRECTED, **kw), ship).forces


def test_2_02_00_no_advisors_nor_flips_in_the_basic_game() -> None:
    kw: dict[str, Any] = {"factions": FREMEN, "phase": "shipment_movement", "storm": 0}
    kw["per_faction"] = {"bene_gesserit": {"tanks": 0}}
    advisor = {"type": "forces_placed", "faction": "bene_gesserit", "territory": "carthag", "sector": 10}
    advisor["advisors"] = 1
    with pytest.raises(IllegalAction) as info:
        apply(_game([], **kw), advisor)
    assert info.value.rule == "2.02.00" and info.value.field == "advisors"
    assert apply(_game(["advanced"], **kw), advisor).forces
    flip = {"type": "forces_flipped", "territory": "carthag", "sector": 10, "side": "fighters", "count": 1}
    kw["forces"] = [at("bene_gesserit", "carthag", 0, advisors=1)]
    with pytest.raises(IllegalAction) as info:
        apply(_game([], **kw), flip)
    assert info.value.rule == "2.02.00"
    assert apply(_game(["advanced"], **kw), flip).forces[("bene_gesserit", "carthag", 10)] == (1, 0, 0)


def test_2_08_00_no_gholas_and_an_unprotected_auditor_in_the_basic_game() -> None:
    ghola = {"atreides": {"leader_status": {"duncan_idaho": "held:tleilaxu"}}}
    with pytest.raises(InvalidPosition) as info:
        _game([], factions=TLEILAXU, per_faction=ghola)
    assert info.value.rule == "2.08.00"
    assert _game(["advanced"], factions=TLEILAXU, per_faction=ghola)
    auditor = {"choam": {"leader_status": {"auditor": "captured:harkonnen"}}}
    assert _game([], factions=TLEILAXU, per_faction=auditor)  # 2.09.19 is Advanced
    with pytest.raises(InvalidPosition):
        _game(["advanced"], factions=TLEILAXU, per_faction=auditor)


def test_1_14_00_no_karama_move_of_the_hms_in_the_basic_game() -> None:
    ixians = ("atreides", "ixians", "emperor", "fremen", "harkonnen", "guild")
    kw: dict[str, Any] = {"factions": ixians, "phase": "shipment_movement", "storm": 0}
    kw |= {
        "hms": ["the_great_flat", 14],
        "forces": [at("ixians", "hidden_mobile_stronghold", 2, sector=None)],
    }
    move = {"type": "hms_moved", "territory": "funeral_plain", "sector": 14, "karama": True}
    with pytest.raises(IllegalAction) as info:
        apply(_game([], **kw), move)
    assert info.value.rule == "1.14.00"
    assert apply(_game(["advanced"], **kw), move).hms == ("funeral_plain", 14)
