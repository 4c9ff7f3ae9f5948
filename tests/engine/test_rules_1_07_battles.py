"""LoLV 1.07.01 / AH X.A: which battles must be fought. The texts agree, so each test runs
under every ruleset (declared coexistence is AH/WBC's, advisors are the LoLV's)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.evaluation import evaluate

from .helpers import AH_WBC, ALL_RULESETS, at, position


def _battles(ruleset: str, **kw: Any) -> list[dict[str, Any]]:
    return [b.to_dict() for b in evaluate(position(ruleset=ruleset, **kw)).battles]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_01_two_factions_in_a_territory_battle(ruleset: str) -> None:
    """LoLV 1.07.01 / AH X.A.1: wherever two players' forces share a territory, they battle."""
    forces = [at("atreides", "the_great_flat", 3), at("harkonnen", "the_great_flat", 2)]
    b = _battles(ruleset, forces=forces, storm=5)
    assert b == [{"territory": "the_great_flat", "factions": ["harkonnen", "atreides"]}]  # storm order from 5


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_01_00_storm_between_groups_prevents_battle(ruleset: str) -> None:
    """LoLV 1.07.01.00, AH X.A.2.a: no battle across a sector in storm."""
    forces = [at("atreides", "wind_pass", 2, sector=13), at("harkonnen", "wind_pass", 2, sector=16)]
    assert _battles(ruleset, forces=forces, storm=14) == []
    assert _battles(ruleset, forces=forces, storm=16) == []  # storm over one group
    assert len(_battles(ruleset, forces=forces, storm=2)) == 1


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_01_01_same_sector_under_storm_still_battles(ruleset: str) -> None:
    """LoLV 1.07.01.01 / AH X.A.2.a: forces in the same sector under the storm still battle."""
    forces = [at("atreides", "wind_pass", 2, sector=14), at("harkonnen", "wind_pass", 2, sector=14)]
    assert len(_battles(ruleset, forces=forces, storm=14)) == 1


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_07_01_02_no_battle_in_the_polar_sink(ruleset: str) -> None:
    """LoLV 1.07.01.02 / AH X.A.2.b: the Polar Sink is a haven."""
    forces = [at("atreides", "polar_sink", 2), at("harkonnen", "polar_sink", 2)]
    assert _battles(ruleset, forces=forces) == []


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_02_12_advisors_and_coexisting_bg_never_battle(ruleset: str) -> None:
    """LoLV 2.02.12 / AH XV.A: advisors and coexisting BG tokens are not in combat; BG
    fighters (tokens not declared coexisting) are."""
    if ruleset == "lolv-2.8.4":
        forces = [at("harkonnen", "carthag", 3), at("bene_gesserit", "carthag", 0, advisors=2)]
        assert _battles(ruleset, forces=forces) == []
    forces = [at("harkonnen", "carthag", 3), at("bene_gesserit", "carthag", 2)]
    # AH XV.B: coexistence is assumed unless the BG states otherwise; WBC XV.6: undeclared
    # tokens do not coexist.
    apart = {"declared_apart": {"carthag": {"factions": ["harkonnen"], "vacated": False}}}
    assert len(_battles(ruleset, forces=forces, **(apart if ruleset == "ah1979" else {}))) == 1
    assert (_battles(ruleset, forces=forces) == []) is (ruleset == "ah1979")
    if ruleset in AH_WBC:  # declared coexistence (AH XV.B, WBC XV.6)
        assert _battles(ruleset, forces=forces, coexisting=["carthag"]) == []


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_three_factions_battle_with_the_aggressor_first(ruleset: str) -> None:
    """LoLV 1.07.02-03 / AH X.A.3-4: factions listed in storm order; the first is the
    aggressor."""
    forces = [at(f, "the_great_flat", 1) for f in ("atreides", "emperor", "guild")]
    b = _battles(
        ruleset, forces=forces, storm=5
    )  # order from sector 5: emperor (7), ..., guild (16), atreides (1)
    assert b == [{"territory": "the_great_flat", "factions": ["emperor", "guild", "atreides"]}]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_a_storm_split_yields_separate_battles(ruleset: str) -> None:
    """WBC VI.10 (AH X.A.2.a, LoLV 1.07.01.00): a territory split by the storm acts as two
    locations."""
    forces = [
        at("atreides", "wind_pass", 1, sector=13),
        at("emperor", "wind_pass", 1, sector=13),
        at("harkonnen", "wind_pass", 1, sector=15),
        at("guild", "wind_pass", 1, sector=16),
    ]
    b = _battles(ruleset, forces=forces, storm=14)
    assert sorted(tuple(sorted(x["factions"])) for x in b) == [
        ("atreides", "emperor"),
        ("guild", "harkonnen"),
    ]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_allies_never_battle_each_other(ruleset: str) -> None:
    """AH XII.E.5: allies may never battle one another (under WBC they may share a territory
    after allying there, WBC XII.1); under the LoLV allies share a territory only as the
    Ecaz and its ally (2.11.11)."""
    if ruleset in AH_WBC:
        forces = [at("atreides", "the_great_flat", 2), at("harkonnen", "the_great_flat", 2)]
        pos = position(ruleset=ruleset, forces=forces, alliances=[["atreides", "harkonnen"]])
    else:
        forces = [
            at("atreides", "polar_sink", 1),
            at("ecaz", "imperial_basin", 2, sector=9),
            at("moritani", "imperial_basin", 2, sector=9),
        ]
        pos = position(
            ruleset=ruleset,
            factions=("atreides", "ecaz", "moritani", "fremen", "guild"),
            forces=forces,
            alliances=[["ecaz", "moritani"]],
        )
    assert evaluate(pos).battles == ()
