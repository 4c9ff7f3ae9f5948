"""Positions the texts make impossible, refused by `load_position` from the ninth edition and
loaded as before in the eighth: a leader held by its own faction (AH X.B.2.a.ii: captives come
"from the losing player"; 2.08.16: gholas are other factions' dead leaders), a captive in the
LoLV Basic game (2.05.00), two allies in one territory at the Mentat Pause (1.06.06,
1.10.02.06), Duke Vidal without the Ecaz or the Moritani (2.11.16, 2.12.12), a WBC final set
up with three-faction alliances (WBC Final Round Format)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import load_position
from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction, InvalidPosition, RuleViolation
from dune.engine.game_log import apply, replay
from tests.engine.helpers import LOLV, at, setup_event, snap

TLEILAXU_GAME = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "tleilaxu")


def _refused(data: dict[str, Any], rule: str) -> None:
    with pytest.raises(InvalidPosition) as err:
        load_position(data)
    assert err.value.rule == rule
    load_position({**data, "edition": SEQUENCED})  # as the eighth edition loaded it


def test_ah_x_b_2_a_ii_the_harkonnen_hold_no_leader_of_their_own() -> None:
    """AH X.B.2.a.ii, 2.05.10."""
    for ruleset, rule in (("ah1979", "AH X.B.2.a.ii"), ("wbc2018", "AH X.B.2.a.ii"), (LOLV, "2.05.10")):
        own = snap(ruleset, per_faction={"harkonnen": {"leader_status": {"feyd_rautha": "captured:harkonnen"}}})
        _refused(own, rule)


def test_2_08_16_a_tleilaxu_leader_is_no_ghola_of_the_tleilaxu() -> None:
    own = snap(LOLV, factions=TLEILAXU_GAME, per_faction={"tleilaxu": {"leader_status": {"zoal": "held:tleilaxu"}}})
    _refused(own, "2.08.16")


def test_2_05_00_no_captives_in_the_basic_game() -> None:
    basic = snap(LOLV, options=[], per_faction={"atreides": {"leader_status": {"duncan_idaho": "captured:harkonnen"}}})
    _refused(basic, "2.05.00")
    advanced = snap(LOLV, per_faction={"atreides": {"leader_status": {"duncan_idaho": "captured:harkonnen"}}})
    load_position(advanced)


def test_1_10_02_06_no_two_allies_in_one_territory_at_the_mentat_pause() -> None:
    """1.06.06, 1.10.02.06."""
    forces = [at("atreides", "imperial_basin", 3), at("fremen", "imperial_basin", 2)]
    data = snap(LOLV, forces=forces, phase="mentat_pause", alliances=[["atreides", "fremen"]])
    _refused(data, "1.06.06")
    load_position({**data, "phase": "battle"})
    apart = snap(LOLV, forces=[at("atreides", "imperial_basin", 3), at("fremen", "polar_sink", 2)], phase="mentat_pause", alliances=[["atreides", "fremen"]])
    load_position(apart)


def test_2_12_12_duke_vidal_needs_the_ecaz_or_the_moritani() -> None:
    """2.11.16, 2.12.12."""
    _refused(snap(LOLV, vidal="atreides"), "2.12.12")


def test_wbc_house_rules_no_three_faction_alliances_at_the_final() -> None:
    """WBC Final Round Format: the final (15 turns) forbids them; a heat of six allows them."""
    with pytest.raises(RuleViolation) as err:
        replay([setup_event("wbc2018", turns=15, three_alliances=True)])
    assert err.value.rule == "WBC Final Round Format"
    replay([setup_event("wbc2018", turns=10, three_alliances=True)])
    replay([setup_event("wbc2018", turns=15, three_alliances=True, edition=SEQUENCED)])


def test_1_06_06_the_mentat_pause_waits_for_allies_to_part() -> None:
    """1.06.06, 1.10.02.06: the Mentat Pause is refused while two allies share a territory, so
    no position reached by the log is one `load_position` refuses."""
    forces = [at("atreides", "imperial_basin", 3), at("fremen", "imperial_basin", 2)]
    pos = load_position(snap(LOLV, forces=forces, phase="spice_collection", alliances=[["atreides", "fremen"]]))
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "phase_advanced", "phase": "mentat_pause"})
    assert (err.value.rule, err.value.field) == ("1.06.06", "phase")
    old = load_position(snap(LOLV, forces=forces, phase="spice_collection", alliances=[["atreides", "fremen"]], edition=SEQUENCED))
    apply(old, {"type": "phase_advanced", "phase": "mentat_pause"})
