"""Spiritual advisors and the BG's two sides, from the fifth edition: under the LoLV an advisor
follows another faction's off-planet shipment, one, into the same territory and sector
(2.02.05, 2.02.11) - not the Fremen's sending; fighters and advisors never share a territory
(2.02.20); a Basic-game BG starts with a fighter in the Polar Sink (2.02.02). Under AH and the
WBC the tokens have no advisor side: they coexist by territory (AH XV.A, WBC XV.5)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import load_position
from dune.engine.editions import ACCOUNTED, LIMITED
from dune.engine.errors import IllegalAction, InvalidPosition
from dune.engine.game_log import apply, replay
from dune.engine.position import Position
from tests.engine.helpers import AH_WBC, LOLV, at, setup_event, snap


def _moving(ruleset: str = LOLV, edition: int | None = None) -> Position:
    per = {f: {"reserves": 20 - n, "tanks": 0} for f, n in (("bene_gesserit", 1), ("harkonnen", 10), ("fremen", 10), ("atreides", 10))}
    extra = {} if edition is None else {"edition": edition}
    forces = [
        at("bene_gesserit", "polar_sink", 1),
        at("harkonnen", "carthag", 10),
        at("fremen", "sietch_tabr", 10),
        at("atreides", "arrakeen", 10),
    ]
    return load_position(snap(ruleset, forces=forces, phase="shipment_movement", per_faction=per, **extra))


def _place(faction: str, territory: str, sector: int | None, **counts: int) -> dict[str, Any]:
    return {"type": "forces_placed", "faction": faction, "territory": territory, "sector": sector, **counts}


def test_2_02_11_an_advisor_follows_a_shipment_into_its_sector() -> None:
    """LoLV 2.02.05, 2.02.11: after the Harkonnen ship to the Great Flat, one advisor there."""
    pos = apply(_moving(), _place("harkonnen", "the_great_flat", 14, normal=3))
    after = apply(pos, _place("bene_gesserit", "the_great_flat", 14, advisors=1))
    assert after.forces[("bene_gesserit", "the_great_flat", 14)] == (0, 0, 1)
    with pytest.raises(IllegalAction) as err:
        apply(after, _place("bene_gesserit", "the_great_flat", 14, advisors=1))  # one per shipment
    assert err.value.rule == "2.02.11" and err.value.field == "advisors"
    with pytest.raises(IllegalAction):
        apply(pos, _place("bene_gesserit", "the_great_flat", 14, advisors=2))
    with pytest.raises(IllegalAction):
        apply(pos, _place("bene_gesserit", "funeral_plain", 14, advisors=1))


def test_2_02_05_no_advisor_after_the_fremens_sending() -> None:
    """LoLV 2.02.05 ("from off-planet"): the Fremen's reserves are on the planet (2.04.03)."""
    pos = apply(_moving(), _place("fremen", "the_great_flat", 14, normal=3))
    with pytest.raises(IllegalAction) as err:
        apply(pos, _place("bene_gesserit", "the_great_flat", 14, advisors=1))
    assert err.value.rule == "2.02.11"
    apply(_moving(edition=ACCOUNTED), _place("bene_gesserit", "the_great_flat", 14, advisors=1))


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_xv_a_no_advisor_side_under_ah_and_the_wbc(ruleset: str) -> None:
    """AH XV.A, WBC XV.5: coexistence by territory, by declaration; no advisor tokens."""
    pos = apply(_moving(ruleset), _place("harkonnen", "the_great_flat", 14, normal=3))
    with pytest.raises(IllegalAction) as err:
        apply(pos, _place("bene_gesserit", "the_great_flat", 14, advisors=1))
    assert err.value.rule == pos.ruleset.cite["no_advisors"]
    apply(pos, _place("bene_gesserit", "the_great_flat", 14, normal=1))


def test_2_02_20_fighters_and_advisors_never_share_a_territory_in_a_position() -> None:
    """LoLV 2.02.20 (they flip to match), as a position."""
    with pytest.raises(InvalidPosition) as err:
        load_position(snap(LOLV, forces=[at("bene_gesserit", "arrakeen", 1, 0, 1)]))
    assert err.value.rule == "2.02.20"
    load_position(snap(LOLV, forces=[at("bene_gesserit", "arrakeen", 1, 0, 1)], edition=ACCOUNTED))


def test_2_02_02_a_basic_game_bg_starts_with_a_fighter_in_the_polar_sink() -> None:
    """LoLV 2.02.02; the advisor anywhere is the Advanced 2.02.08."""
    fremen = at("fremen", "sietch_tabr", 10)
    with pytest.raises(IllegalAction) as err:
        replay([setup_event(LOLV, options=[], placements=[fremen, at("bene_gesserit", "arrakeen", 0, 0, 1)])])
    assert err.value.rule == "2.02.02"
    basic = replay([setup_event(LOLV, options=[], placements=[fremen, at("bene_gesserit", "polar_sink", 1)])])
    assert basic.forces[("bene_gesserit", "polar_sink", None)] == (1, 0, 0)
    advanced = replay([setup_event(LOLV, placements=[fremen, at("bene_gesserit", "arrakeen", 1)])])
    assert advanced.forces[("bene_gesserit", "arrakeen", 9)] == (0, 0, 1)


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_wbc_xv_5_a_position_holding_advisors_is_refused_under_ah_and_the_wbc(ruleset: str) -> None:
    """AH XV.A, WBC XV.5 (sixth edition): a snapshot with BG advisors is impossible, citing the
    table's own rule, wherever they stand (the Polar Sink too); the tokens coexist by
    declaration (`coexisting`). A snapshot of the fifth edition keeps loading."""
    for forces in (
        [at("bene_gesserit", "old_gap", 0, 0, 1, sector=8)],
        [at("bene_gesserit", "polar_sink", 1, 0, 1)],
        [at("bene_gesserit", "old_gap", 1, sector=8), at("bene_gesserit", "old_gap", 0, 0, 1, sector=9)],
    ):
        with pytest.raises(InvalidPosition) as err:
            load_position(snap(ruleset, forces=forces))
        assert err.value.rule == {"ah1979": "AH XV.A", "wbc2018": "WBC XV.5"}[ruleset]
        assert err.value.field == "forces"
        assert "no advisor side" in err.value.message
        load_position(snap(ruleset, forces=forces, edition=LIMITED))
    coexisting = [at("bene_gesserit", "old_gap", 1, sector=8), at("harkonnen", "old_gap", 2, sector=8)]
    pos = load_position(snap(ruleset, forces=coexisting, coexisting=["old_gap"]))
    assert "old_gap" in pos.coexisting


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_xv_a_no_flip_to_advisors_under_ah_and_the_wbc(ruleset: str) -> None:
    """AH XV.A-B, WBC XV.5-7 (sixth edition): coexistence is declared, never flipped."""
    pos = load_position(snap(ruleset, forces=[at("bene_gesserit", "old_gap", 2, sector=8)], phase="shipment_movement"))
    flip = {"type": "forces_flipped", "territory": "old_gap", "sector": 8, "side": "advisors", "count": 1}
    with pytest.raises(IllegalAction) as err:
        apply(pos, flip)
    assert err.value.rule == {"ah1979": "AH XV.A", "wbc2018": "WBC XV.5"}[ruleset]
    assert err.value.field == "side"
    old = load_position(snap(ruleset, forces=[at("bene_gesserit", "old_gap", 2, sector=8)], phase="shipment_movement", edition=LIMITED))
    assert apply(old, flip).forces[("bene_gesserit", "old_gap", 8)] == (1, 0, 1)


def test_2_02_20_lolv_positions_keep_their_advisors() -> None:
    """The LoLV tokens have two sides (2.02.10): advisors alone in a territory load."""
    pos = load_position(snap(LOLV, forces=[at("bene_gesserit", "old_gap", 0, 0, 2, sector=8)]))
    assert pos.forces[("bene_gesserit", "old_gap", 8)] == (0, 0, 2)
