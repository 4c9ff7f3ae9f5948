"""Alliances: once per faction per nexus under the LoLV (1.10.01.01; AH XII.D.2 lets a faction
that broke away ally again at once); alliances outside a nexus through the Moritani
(2.12.10-11, breaking existing alliances) and the Ecaz Ambassador (2.11.10.11) where the
ruleset has them (1.10.01.06); `alliance_formed.how` records which. The nexus rules run under
every ruleset; the Moritani's and the Ecaz's alliances are LoLV-only."""

from __future__ import annotations

import pytest

from dune.engine.choices import allowed_event_types, legal_choices
from dune.engine.errors import IllegalAction
from dune.engine.events import AllianceFormed, event_from_dict
from dune.engine.game_log import apply
from dune.engine.position import Position, evolve

from .helpers import in_turn, to_phase

LOLV = ("atreides", "moritani", "fremen", "harkonnen", "guild", "ecaz")
FACTIONS = {"ah1979": None, "wbc2018": None, "lolv-2.8.4": LOLV}


def _nexus(ruleset: str) -> Position:
    factions = FACTIONS[ruleset]
    kw = {} if factions is None else {"factions": factions}
    pos = in_turn(2, ruleset=ruleset, phase="spice_blow", **kw)
    return apply(pos, {"type": "worm", "territory": "the_great_flat"})


def _armed(pos: Position) -> Position:
    """A Terror token and the Ecaz Ambassador on the board, for the abilities that trigger
    them (2.12.10, 2.11.10.11)."""
    return evolve(pos, terror=frozenset({"carthag"}), ambassadors={"arrakeen": "ecaz"})


def _ally(pos: Position, *factions: str, how: str | None = None) -> Position:
    event: dict[str, object] = {"type": "alliance_formed", "factions": list(factions)}
    if how is not None:
        event["how"] = how
    return apply(pos, event)


@pytest.mark.parametrize("ruleset", sorted(FACTIONS))
def test_1_10_01_01_ally_once_per_nexus(ruleset: str) -> None:
    pos = _ally(_nexus(ruleset), "atreides", "fremen")
    pos = apply(pos, {"type": "alliance_broken", "faction": "fremen"})
    if ruleset == "lolv-2.8.4":
        with pytest.raises(IllegalAction) as info:
            _ally(pos, "fremen", "guild")
        assert info.value.rule == "1.10.01.01"
    else:
        assert ("fremen", "guild") in _ally(pos, "fremen", "guild").alliances  # AH XII.D.2


@pytest.mark.parametrize("ruleset", sorted(FACTIONS))
def test_1_10_01_01_next_nexus_allows_a_new_alliance(ruleset: str) -> None:
    """LoLV 1.10.01.06 / AH XII.C.5: the next nexus opens alliances again."""
    pos = _ally(_nexus(ruleset), "atreides", "fremen")
    pos = apply(pos, {"type": "alliance_broken", "faction": "fremen"})
    pos = apply(to_phase(pos, "mentat_pause"), {"type": "turn_advanced"})
    pos = apply(to_phase(pos, "spice_blow"), {"type": "worm", "territory": "the_great_flat"})
    assert ("fremen", "guild") in _ally(pos, "fremen", "guild").alliances


def test_2_12_11_moritani_alliance_outside_a_nexus_breaks_existing_ones() -> None:
    """LoLV only: the Moritani are an expansion faction."""
    pos = _ally(_nexus("lolv-2.8.4"), "atreides", "fremen")
    pos = _armed(to_phase(pos, "shipment_movement"))
    pos = _ally(pos, "moritani", "atreides", how="moritani")
    assert pos.alliances == (("atreides", "moritani"),)


def test_2_11_10_11_ecaz_ambassador_allies_two_unallied_factions() -> None:
    """LoLV only: the Ecaz is an expansion faction."""
    pos = _armed(to_phase(_ally(_nexus("lolv-2.8.4"), "atreides", "fremen"), "shipment_movement"))
    assert ("ecaz", "guild") in _ally(pos, "ecaz", "guild", how="ecaz_ambassador").alliances
    with pytest.raises(IllegalAction) as info:
        _ally(pos, "ecaz", "atreides", how="ecaz_ambassador")
    assert info.value.rule == "2.11.10.11"


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_1_10_01_06_no_ability_alliances_in_the_1979_game(ruleset: str) -> None:
    """AH XII.C.5: no alliance outside a nexus; the LoLV's exceptions are its expansion
    factions' (test_2_12_11, test_2_11_10_11)."""
    pos = to_phase(_nexus(ruleset), "bidding")
    with pytest.raises(IllegalAction):
        _ally(pos, "atreides", "fremen", how="ecaz_ambassador")


def test_1_10_01_06_old_logs_without_how_mean_a_nexus() -> None:
    """The event's reading, the same for every ruleset (no position involved)."""
    event = event_from_dict({"type": "alliance_formed", "factions": ["atreides", "fremen"]})
    assert isinstance(event, AllianceFormed) and event.how == "nexus"
    assert event.to_dict()["how"] == "nexus"


def test_1_10_01_06_ability_alliances_are_offered_outside_a_nexus() -> None:
    """The choices offer the Moritani's and the Ecaz's alliances outside a nexus (LoLV only)."""
    pos = _armed(to_phase(_nexus("lolv-2.8.4"), "shipment_movement"))
    ways = legal_choices(pos, "alliance_formed")["choices"]["ways"]
    assert {"factions": ["moritani", "fremen"], "how": "moritani"} in ways
    assert {"factions": ["guild", "ecaz"], "how": "ecaz_ambassador"} in ways
    assert all(w["how"] == "moritani" or "ecaz" in w["factions"] for w in ways)
    assert "alliance_formed" in allowed_event_types(pos)
    assert "alliance_formed" not in allowed_event_types(to_phase(_nexus("wbc2018"), "shipment_movement"))
