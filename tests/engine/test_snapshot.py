"""`load_position` / `dump_position`: the issue's snapshot shape, round trips, and the
refusal of impossible positions with typed errors and rule numbers."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from dune.engine import evaluate, load_position
from dune.engine.codec.position import dump_position
from dune.engine.errors import InvalidPosition, RuleViolation, UnknownIdentifier
from dune.engine.game_log import apply, replay

from .helpers import at, in_turn, position, snap

ISSUE_EXAMPLE: dict[str, Any] = {
    "ruleset": "wbc2018",
    "turn": 5,
    "last_turn": False,
    "storm": 7,
    "worms": 4,
    "family_atomics": False,
    "factions": {
        "atreides": {"marker": 1, "spice": 10, "cards": 2, "leaders": 4, "reserves": 5, "tanks": 0},
        "fremen": {"marker": 4, "spice": 3, "cards": 1, "leaders": 5},
        "harkonnen": {"marker": 10, "spice": 8, "cards": 5, "leaders": 3},
        "bene_gesserit": {"marker": 13},
    },
    "forces": [
        {
            "faction": "atreides",
            "territory": "arrakeen",
            "sector": 9,
            "normal": 5,
            "special": 0,
            "advisors": 0,
        },
        {
            "faction": "atreides",
            "territory": "carthag",
            "sector": 10,
            "normal": 10,
            "special": 0,
            "advisors": 0,
        },
        {
            "faction": "fremen",
            "territory": "sietch_tabr",
            "sector": 13,
            "normal": 4,
            "special": 2,
            "advisors": 0,
        },
        {
            "faction": "bene_gesserit",
            "territory": "carthag",
            "sector": 10,
            "normal": 1,
            "special": 0,
            "advisors": 0,
        },
    ],
    "alliances": [["atreides", "fremen"]],
    "bg_prediction": {"faction": "harkonnen", "turn": 5},
    "coexisting": ["carthag"],
}


def test_issue_example_loads_and_evaluates_to_json() -> None:
    pos = load_position(ISSUE_EXAMPLE)
    ev = evaluate(pos)
    json.dumps(ev.to_dict())
    assert set(ev.to_dict()) >= {
        "storm_order",
        "first_player",
        "control",
        "battles",
        "win_attempts",
        "victory",
        "end_of_game",
        "stats",
        "pp",
        "adjudication",
    }
    assert ev.control["carthag"] == "atreides"  # the coexisting BG does not contest
    assert ev.stats["bene_gesserit"].tokens == Fraction(1, 2)
    assert ev.stats["atreides"].tokens == 15
    assert ev.stats["harkonnen"].leaders == 3


def test_dump_then_load_is_the_same_position() -> None:
    pos = load_position(ISSUE_EXAMPLE)
    assert load_position(json.loads(json.dumps(dump_position(pos)))) == pos


def test_dump_then_load_after_a_replayed_game() -> None:
    pos = in_turn(4, phase="battle")
    again = load_position(dump_position(pos))
    assert again == pos
    assert evaluate(again) == evaluate(pos)


def _refused(data: dict[str, Any], error: type[RuleViolation] = InvalidPosition) -> RuleViolation:
    with pytest.raises(error) as info:
        load_position(data)
    return info.value


def test_more_forces_than_a_faction_owns() -> None:
    """AH II.B: a faction owns its twenty tokens (special ones among them), no more."""
    e = _refused(snap(forces=[at("atreides", "arrakeen", 21)]))
    assert e.rule == "AH II.B" and "20" in e.message
    e = _refused(snap(forces=[at("emperor", "arrakeen", 1, 6)]))
    assert "special" in e.message
    data = snap(
        forces=[at("atreides", "arrakeen", 10)], per_faction={"atreides": {"reserves": 8, "tanks": 5}}
    )
    assert "do not add up" in _refused(data).message


def test_unknown_territory_or_sector() -> None:
    _refused(snap(forces=[at("atreides", "caladan", 1, sector=3)]), UnknownIdentifier)
    e = _refused(snap(forces=[at("atreides", "arrakeen", 1, sector=4)]), UnknownIdentifier)
    assert "Arrakeen spans sectors 9, not 4" in e.message
    _refused(snap(forces=[at("atreides", "polar_sink", 1, sector=3)]), UnknownIdentifier)


def test_forces_of_two_factions_where_the_rules_forbid_it() -> None:
    three = [at("atreides", "carthag"), at("harkonnen", "carthag"), at("emperor", "carthag")]
    assert _refused(snap(forces=three)).rule == "AH IX.C.2.f"
    # Players sharing a territory may ally (WBC XII.1-2): a reachable position.
    allies = [at("atreides", "the_great_flat"), at("fremen", "the_great_flat")]
    load_position(snap(forces=allies, alliances=[["atreides", "fremen"]]))


def test_a_faction_the_ruleset_does_not_have() -> None:
    e = _refused(snap(factions=("atreides", "fremen", "ecaz")))
    assert "Ecaz is not a faction of WBC 2018" in e.message and e.input == "ecaz"
    _refused({**snap(), "ruleset": "dune2099"}, UnknownIdentifier)


@pytest.mark.parametrize("ruleset, rule", [("ah1979", "AH III.E.1"), ("wbc2018", "AH III.E.1"), ("lolv-2.8.4", "0.10")])
def test_0_10_markers_off_the_dots_cite_the_tables_own_rule(ruleset: str, rule: str) -> None:
    data = snap(ruleset=ruleset)
    data["factions"]["fremen"]["marker"] = 5
    assert _refused(data).rule == rule
    data["factions"]["fremen"]["marker"] = data["factions"]["atreides"]["marker"]
    assert _refused(data).rule == rule


def test_bad_markers_and_alliances() -> None:
    assert _refused(snap(alliances=[["atreides", "fremen", "guild"]])).rule == "WBC house rules (alliances)"


def test_quick_snapshot_keeps_unknowns_null() -> None:
    data = snap(forces=[at("harkonnen", "carthag")], quick=True)
    ev = evaluate(load_position(data))
    assert ev.stats["harkonnen"].forces is None
    assert ev.stats["harkonnen"].tokens is None
    assert ev.stats["harkonnen"].spice is None
    assert ev.stats["harkonnen"].strongholds == 1


def test_replayed_dump_is_json() -> None:
    pos = replay([])
    with pytest.raises(InvalidPosition):
        dump_position(pos)


def test_events_on_a_snapshot_without_reserves_are_refused_not_crashed() -> None:
    """A snapshot may leave reserves unknown; a shipment from them is then a refusal."""
    from dune.engine import apply
    from dune.engine.errors import IllegalAction

    pos = load_position(snap(forces=[at("harkonnen", "carthag")], phase="shipment_movement"))
    with pytest.raises(IllegalAction) as info:
        apply(
            pos,
            {
                "type": "forces_placed",
                "faction": "emperor",
                "territory": "arrakeen",
                "sector": 9,
                "normal": 1,
            },
        )
    assert "unknown" in info.value.message


def test_1_01_03_the_last_events_automatic_losses_are_kept_in_the_snapshot() -> None:
    """What the storm just destroyed (WBC VI.8, LoLV 1.01.03) is part of the snapshot, so a page
    reading the stored snapshot can show it; the next event clears it."""
    pos = position(
        phase="storm",
        storm=12,
        automatic_losses=True,
        forces=[at("harkonnen", "the_great_flat", 3, sector=14)],
        per_faction={"harkonnen": {"tanks": 0}},
    )
    hit = apply(pos, {"type": "storm_moved", "sectors": 3})
    dumped = dump_position(hit)
    assert dumped["losses"] == [
        {
            "faction": "harkonnen",
            "territory": "the_great_flat",
            "sector": 14,
            "normal": 3,
            "special": 0,
            "advisors": 0,
            "spice": 0,
            "rule": "WBC VI.8",
        }
    ]
    assert load_position(dumped).losses == hit.losses
    calm = apply(apply(hit, {"type": "phase_advanced", "phase": "spice_blow"}), {"type": "phase_advanced", "phase": "bidding"})
    assert "losses" not in dump_position(calm)
