"""LoLV 1.07.01 / AH X.A: which battles must be fought."""

from __future__ import annotations

from typing import Any

from gameplay.engine.evaluation import evaluate

from .helpers import at, position


def _battles(**kw: Any) -> list[dict[str, Any]]:
    return [b.to_dict() for b in evaluate(position(**kw)).battles]


def test_1_07_01_two_factions_in_a_territory_battle() -> None:
    """LoLV 1.07.01: wherever two players' forces share a territory, they battle."""
    b = _battles(forces=[at("atreides", "the_great_flat", 3), at("harkonnen", "the_great_flat", 2)], storm=5)
    assert b == [{"territory": "the_great_flat", "factions": ["harkonnen", "atreides"]}]  # storm order from 5


def test_1_07_01_00_storm_between_groups_prevents_battle() -> None:
    """LoLV 1.07.01.00, AH X.A.2.a: no battle across a sector in storm."""
    forces = [at("atreides", "wind_pass", 2, sector=13), at("harkonnen", "wind_pass", 2, sector=16)]
    assert _battles(forces=forces, storm=14) == []
    assert _battles(forces=forces, storm=16) == []  # storm over one group
    assert len(_battles(forces=forces, storm=2)) == 1


def test_1_07_01_01_same_sector_under_storm_still_battles() -> None:
    """LoLV 1.07.01.01: forces in the same sector under the storm still battle."""
    forces = [at("atreides", "wind_pass", 2, sector=14), at("harkonnen", "wind_pass", 2, sector=14)]
    assert len(_battles(forces=forces, storm=14)) == 1


def test_1_07_01_02_no_battle_in_the_polar_sink() -> None:
    forces = [at("atreides", "polar_sink", 2), at("harkonnen", "polar_sink", 2)]
    assert _battles(forces=forces) == []


def test_2_02_12_advisors_and_coexisting_bg_never_battle() -> None:
    """LoLV 2.02.12 / AH XV.A: advisors and coexisting BG tokens are not in combat."""
    forces = [at("harkonnen", "carthag", 3), at("bene_gesserit", "carthag", 0, advisors=2)]
    assert _battles(forces=forces) == []
    forces = [at("harkonnen", "carthag", 3), at("bene_gesserit", "carthag", 2)]
    assert _battles(forces=forces, coexisting=["carthag"]) == []
    assert len(_battles(forces=forces)) == 1


def test_three_factions_battle_with_the_aggressor_first() -> None:
    """LoLV 1.07.02-03: factions listed in storm order; the first is the aggressor."""
    forces = [at(f, "the_great_flat", 1) for f in ("atreides", "emperor", "guild")]
    b = _battles(forces=forces, storm=5)  # order from sector 5: emperor (7), ..., guild (16), atreides (1)
    assert b == [{"territory": "the_great_flat", "factions": ["emperor", "guild", "atreides"]}]


def test_a_storm_split_yields_separate_battles() -> None:
    """WBC VI.10: a territory split by the storm acts as two locations."""
    forces = [
        at("atreides", "wind_pass", 1, sector=13),
        at("emperor", "wind_pass", 1, sector=13),
        at("harkonnen", "wind_pass", 1, sector=15),
        at("guild", "wind_pass", 1, sector=16),
    ]
    b = _battles(forces=forces, storm=14)
    assert sorted(tuple(sorted(x["factions"])) for x in b) == [
        ("atreides", "emperor"),
        ("guild", "harkonnen"),
    ]


def test_allies_never_battle_each_other() -> None:
    forces = [
        at("atreides", "polar_sink", 1),
        at("ecaz", "imperial_basin", 2, sector=9),
        at("moritani", "imperial_basin", 2, sector=9),
    ]
    pos = position(
        ruleset="lolv-2.8.4",
        factions=("atreides", "ecaz", "moritani", "fremen", "guild"),
        forces=forces,
        alliances=[["ecaz", "moritani"]],
    )
    assert evaluate(pos).battles == ()
