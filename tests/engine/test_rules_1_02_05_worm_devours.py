"""Automatic worm losses: a worm devours every force in its sand territory except the Fremen
and their allies (LoLV 1.02.05, 2.04.07, 2.04.10; AH VII.A.2.a-b; WBC VII.8), before the nexus
under the LoLV and once the nexus is over under AH XII.B / WBC VII.9 (so the Fremen may ride
first). Rock territories are never devoured (AH VII.A.2.d)."""

from __future__ import annotations

import pytest

from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import CLASSIC, at, position

RULESETS = ["ah1979", "wbc2018", "lolv-2.8.4"]
#: Every faction's tanks are empty (so reserves are known too).
KNOWN = {f: {"tanks": 0} for f in CLASSIC}
RULE = {"ah1979": "AH VII.A.2.a", "wbc2018": "WBC VII.9", "lolv-2.8.4": "1.02.05"}


def _blow(ruleset: str, forces: list[dict[str, object]], auto: bool = True) -> Position:
    return position(
        ruleset=ruleset,
        storm=2,
        phase="spice_blow",
        turn=3,
        forces=forces,
        per_faction=KNOWN,
        automatic_losses=auto,
    )


FORCES = [
    at("emperor", "the_great_flat", 3, sector=14),
    at("fremen", "the_great_flat", 2, sector=14),
    at("harkonnen", "the_great_flat", 1, sector=14),
]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_02_05_worm_devours_all_but_the_fremen_and_their_allies(ruleset: str) -> None:
    pos = _blow(ruleset, FORCES).evolve(alliances=(("fremen", "harkonnen"),))
    pos = apply(pos, {"type": "worm", "territory": "the_great_flat"})
    if ruleset != "lolv-2.8.4":
        assert ("emperor", "the_great_flat", 14) in pos.forces  # the nexus comes first
        pos = apply(pos, {"type": "phase_advanced", "phase": "bidding"})
    assert ("emperor", "the_great_flat", 14) not in pos.forces
    assert pos.forces[("fremen", "the_great_flat", 14)] == (2, 0, 0)
    assert pos.forces[("harkonnen", "the_great_flat", 14)] == (1, 0, 0)
    assert pos.states["emperor"].tanks == (3, 0)
    assert pos.losses == (("emperor", "the_great_flat", 14, 3, 0, 0, RULE[ruleset]),)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_02_05_no_automatic_devouring_in_older_logs(ruleset: str) -> None:
    pos = apply(_blow(ruleset, FORCES, auto=False), {"type": "worm", "territory": "the_great_flat"})
    pos = apply(pos, {"type": "phase_advanced", "phase": "bidding"})
    assert pos.forces[("emperor", "the_great_flat", 14)] == (3, 0, 0)


@pytest.mark.parametrize(
    ("ruleset", "safe"),
    # AH XII.B / WBC VII.9: the worm eats once the nexus is over, so the Fremen's new ally is
    # safe (WBC VII.8); LoLV 1.02.05: it has eaten before the nexus that makes the alliance.
    [("ah1979", True), ("wbc2018", True), ("lolv-2.8.4", False)],
)
def test_wbc_vii_9_forces_ridden_away_before_the_worm_eats_are_safe(ruleset: str, safe: bool) -> None:
    """An alliance formed in the nexus protects the Fremen's new ally (WBC VII.8) only where
    the worm eats after the nexus."""
    pos = apply(_blow(ruleset, FORCES), {"type": "worm", "territory": "the_great_flat"})
    pos = apply(pos, {"type": "alliance_formed", "factions": ["fremen", "emperor"]})
    pos = apply(pos, {"type": "phase_advanced", "phase": "bidding"})
    assert (("emperor", "the_great_flat", 14) in pos.forces) is safe
    assert pos.states["emperor"].tanks == ((0, 0) if safe else (3, 0))
    assert ("harkonnen", "the_great_flat", 14) not in pos.forces
