"""Automatic storm losses (games set up with `automatic_losses`): the storm destroys forces in
the sand sectors it passes or stops on (LoLV 1.01.03 also the one it starts from; AH VI.D,
WBC VI.8 not), never in rock or strongholds, not in the Imperial Basin, Arrakeen and Carthag
until Family Atomics (LoLV 3.01.07, WBC VI.7); the Fremen lose half, rounded up (AH VI.D.1,
WBC XV.20, LoLV 2.04.16); nothing in the first turn (WBC VI.11) except where the AH text
destroys under the first placement (AH VI.A). Quick tracking and older logs keep the judge's
taps as the only removals. The judge can put forces back with a reason."""

from __future__ import annotations

import pytest

from dune.engine.choices import allowed_event_types
from dune.engine.codec.position import dump_position, load_position
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply, replay
from dune.engine.position import Position

from .helpers import CLASSIC, at, position, setup_event

RULESETS = ["ah1979", "wbc2018", "lolv-2.8.4"]
#: Every faction's tanks are empty (so reserves are known too).
KNOWN = {f: {"tanks": 0} for f in CLASSIC}
LOSS_RULE = {"ah1979": "AH VI.D", "wbc2018": "WBC VI.8", "lolv-2.8.4": "1.01.03"}
FREMEN_RULE = {"ah1979": "AH VI.D.1", "wbc2018": "WBC XV.20", "lolv-2.8.4": "2.04.16"}


def _storm_phase(
    ruleset: str, forces: list[dict[str, object]], storm: int = 12, auto: bool = True
) -> Position:
    return position(
        ruleset=ruleset,
        storm=storm,
        phase="storm",
        turn=3,
        forces=forces,
        per_faction=KNOWN,
        automatic_losses=auto,
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_storm_destroys_forces_in_sand_it_passes(ruleset: str) -> None:
    forces = [
        at("emperor", "the_great_flat", 3, special=1, sector=14),
        at("harkonnen", "false_wall_west", 2, sector=15),  # rock: sheltered
        at("guild", "sietch_tabr", 2, sector=13),  # stronghold: sheltered
        at("atreides", "funeral_plain", 2, sector=14),
    ]
    pos = apply(_storm_phase(ruleset, forces), {"type": "storm_moved", "sectors": 3})
    assert ("emperor", "the_great_flat", 14) not in pos.forces
    assert ("atreides", "funeral_plain", 14) not in pos.forces
    assert pos.forces[("harkonnen", "false_wall_west", 15)] == (2, 0, 0)
    assert pos.forces[("guild", "sietch_tabr", 13)] == (2, 0, 0)
    assert pos.states["emperor"].tanks == (3, 1)
    assert {row[-1] for row in pos.losses} == {LOSS_RULE[ruleset]}
    assert {(row[0], row[1]) for row in pos.losses} == {
        ("emperor", "the_great_flat"),
        ("atreides", "funeral_plain"),
    }


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_no_automatic_losses_in_older_logs(ruleset: str) -> None:
    forces = [at("emperor", "the_great_flat", 3, sector=14)]
    pos = apply(_storm_phase(ruleset, forces, auto=False), {"type": "storm_moved", "sectors": 3})
    assert pos.forces[("emperor", "the_great_flat", 14)] == (3, 0, 0) and pos.losses == ()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_start_sector_only_in_the_lolv(ruleset: str) -> None:
    forces = [at("emperor", "rock_outcroppings", 2, sector=12)]  # under the storm before it moves
    pos = apply(_storm_phase(ruleset, forces), {"type": "storm_moved", "sectors": 2})
    destroyed = ("emperor", "rock_outcroppings", 12) not in pos.forces
    assert destroyed == (ruleset == "lolv-2.8.4")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_3_01_07_imperial_basin_sheltered_until_family_atomics(ruleset: str) -> None:
    forces = [at("emperor", "imperial_basin", 2, sector=9), at("harkonnen", "carthag", 2)]
    before = apply(_storm_phase(ruleset, forces, storm=7), {"type": "storm_moved", "sectors": 3})
    assert before.forces[("emperor", "imperial_basin", 9)] == (2, 0, 0)
    assert before.forces[("harkonnen", "carthag", 10)] == (2, 0, 0)
    after = apply(
        _storm_phase(ruleset, forces, storm=7).evolve(family_atomics=True),
        {"type": "storm_moved", "sectors": 3},
    )
    assert ("emperor", "imperial_basin", 9) not in after.forces
    assert ("harkonnen", "carthag", 10) not in after.forces


@pytest.mark.parametrize("ruleset", RULESETS)
def test_2_04_16_fremen_lose_half_rounded_up(ruleset: str) -> None:
    forces = [at("fremen", "the_great_flat", 4, special=1, sector=14)]
    pos = apply(_storm_phase(ruleset, forces), {"type": "storm_moved", "sectors": 3})
    assert pos.forces[("fremen", "the_great_flat", 14)] == (1, 1, 0)
    assert pos.losses == (("fremen", "the_great_flat", 14, 3, 0, 0, FREMEN_RULE[ruleset]),)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_wbc_vi_11_first_placement_destroys_only_under_the_ah_text(ruleset: str) -> None:
    setup = setup_event(ruleset, automatic_losses=True)
    pos = replay([setup, {"type": "phase_advanced", "phase": "storm"}])
    pos = pos.evolve(forces={**pos.forces, ("emperor", "the_great_flat", 14): (2, 0, 0)})
    placed = apply(pos, {"type": "storm_placed", "sector": 14})
    destroyed = ("emperor", "the_great_flat", 14) not in placed.forces
    assert destroyed == (ruleset == "ah1979")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_judge_corrects_an_automatic_loss_with_a_reason(ruleset: str) -> None:
    forces = [at("emperor", "the_great_flat", 3, sector=14)]
    pos = apply(_storm_phase(ruleset, forces), {"type": "storm_moved", "sectors": 3})
    back = {
        "type": "loss_corrected",
        "faction": "emperor",
        "territory": "the_great_flat",
        "sector": 14,
        "normal": 3,
        "reason": "Weather Control held the storm",
    }
    with pytest.raises(IllegalAction):
        apply(pos, {**back, "reason": " "})
    fixed = apply(pos, back)
    assert fixed.forces[("emperor", "the_great_flat", 14)] == (3, 0, 0)
    assert fixed.states["emperor"].tanks == (0, 0)


def _put_back(faction: str, territory: str, sector: int, **counts: int) -> dict[str, object]:
    return {
        "type": "loss_corrected",
        "faction": faction,
        "territory": territory,
        "sector": sector,
        "reason": "Weather Control held the storm",
        **counts,
    }


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_a_correction_puts_back_at_most_what_the_rules_removed_there(ruleset: str) -> None:
    """The Emperor had 4 forces in the tanks before the storm took 3 more: a correction of
    that loss may return the 3 the storm took, not 4, even though the tanks hold 7."""
    known = {**KNOWN, "emperor": {"tanks": 4}}
    forces = [at("emperor", "the_great_flat", 3, sector=14)]
    pos = apply(
        position(
            ruleset=ruleset,
            storm=12,
            phase="storm",
            turn=3,
            forces=forces,
            per_faction=known,
            automatic_losses=True,
        ),
        {"type": "storm_moved", "sectors": 3},
    )
    assert pos.states["emperor"].tanks == (7, 0)
    with pytest.raises(IllegalAction) as refused:
        apply(pos, _put_back("emperor", "the_great_flat", 14, normal=4))
    assert refused.value.field == "normal"
    assert refused.value.rule == LOSS_RULE[ruleset]  # the rule it was removed by
    assert "only 3 Emperor forces from The Great Flat (sector 14)" in refused.value.message
    assert apply(pos, _put_back("emperor", "the_great_flat", 14, normal=3)).states["emperor"].tanks == (4, 0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_what_is_not_put_back_stays_listed(ruleset: str) -> None:
    """Two factions lose forces and the spice in The Great Flat to one storm; putting back part
    of one stack leaves the rest of that loss, the other faction's and the spice listed, so each
    can still be corrected."""
    forces = [at("emperor", "the_great_flat", 3, sector=14), at("atreides", "funeral_plain", 2, sector=14)]
    stormy = _storm_phase(ruleset, forces).evolve(spice_on_board={"the_great_flat": 10})
    pos = apply(stormy, {"type": "storm_moved", "sectors": 3})
    fixed = apply(pos, _put_back("emperor", "the_great_flat", 14, normal=2))
    assert fixed.forces[("emperor", "the_great_flat", 14)] == (2, 0, 0)
    assert sorted(row[:6] for row in fixed.losses) == [
        ("atreides", "funeral_plain", 14, 2, 0, 0),
        ("emperor", "the_great_flat", 14, 1, 0, 0),
    ]
    assert fixed.spice_lost == pos.spice_lost != ()  # the spice the storm took stays listed too
    done = apply(fixed, _put_back("atreides", "funeral_plain", 14, normal=2))
    assert [row[0] for row in done.losses] == ["emperor"]
    # What is left stays listed as the storm phase moves on; the record after that clears it.
    on = apply(done, {"type": "phase_advanced", "phase": "spice_blow"})
    assert [row[0] for row in on.losses] == ["emperor"]
    assert apply(on, {"type": "phase_advanced", "phase": "bidding"}).losses == ()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_a_correction_refusal_names_its_field(ruleset: str) -> None:
    """No reason, more than the tanks hold, special forces the storm did not take: each
    refusal names the field at fault, so a page shows it there."""
    forces = [at("emperor", "the_great_flat", 3, special=1, sector=14)]
    pos = apply(_storm_phase(ruleset, forces), {"type": "storm_moved", "sectors": 3})
    cases = [
        ({**_put_back("emperor", "the_great_flat", 14, normal=1), "reason": ""}, "reason"),
        (_put_back("emperor", "the_great_flat", 14, special=2), "special"),
    ]
    for event, field in cases:
        with pytest.raises(IllegalAction) as refused:
            apply(pos, event)
        assert refused.value.field == field
        assert refused.value.to_dict()["field"] == field
    # Where the storm took nothing, the tanks are the limit.
    calm = _storm_phase(ruleset, [], storm=12).evolve(states={**pos.states, "emperor": pos.states["emperor"]})
    with pytest.raises(IllegalAction) as refused:
        apply(calm, _put_back("emperor", "the_great_flat", 14, normal=4))
    assert refused.value.field == "normal"
    assert refused.value.message == "Emperor has only 3 forces in the tanks"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_quick_tracking_offers_no_loss_correction(ruleset: str) -> None:
    """Quick tracking has no automatic losses to correct (and no tanks to take forces from)."""
    quick = replay([setup_event(ruleset, quick=True)])
    assert "loss_corrected" not in allowed_event_types(quick)
    full = _storm_phase(ruleset, [])
    assert "loss_corrected" in allowed_event_types(full)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_the_storm_s_losses_stay_listed_when_its_phase_moves_on_at_once(ruleset: str) -> None:
    """A storm recorded with its next phase in one tap ("Move, then Spice Blow"): what the storm
    destroyed is still listed after the phase moves on, and can be put back from there; the
    next record clears the list as usual."""
    forces = [at("emperor", "the_great_flat", 3, sector=14), at("atreides", "funeral_plain", 2, sector=14)]
    moved = apply(_storm_phase(ruleset, forces), {"type": "storm_moved", "sectors": 3})
    # Read back from its snapshot (as a server does between two requests): the same.
    moved = load_position(dump_position(moved))
    on = apply(moved, {"type": "phase_advanced", "phase": "spice_blow"})
    assert on.phase == "spice_blow" and on.losses == moved.losses != ()
    fixed = apply(on, _put_back("emperor", "the_great_flat", 14, normal=3))
    assert fixed.forces[("emperor", "the_great_flat", 14)] == (3, 0, 0)
    assert [row[0] for row in fixed.losses] == ["atreides"]
    with pytest.raises(IllegalAction):  # no more than the storm took
        apply(fixed, _put_back("atreides", "funeral_plain", 14, normal=3))
