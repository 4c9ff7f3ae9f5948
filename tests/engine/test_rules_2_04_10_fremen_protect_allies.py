"""LoLV 2.04.10: the Fremen decide whether to protect their allies from a worm; the judge
records it on the worm (`allies_spared`, true unless said otherwise, so older logs read as
before). AH XII.E.6 (the Fremen shield's alliance: allies are not devoured) and WBC VII.8 (the Fremen
may not withdraw it) spare the allies whatever the Fremen wish, so they refuse the choice."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import at, position

FORCES = [
    at("fremen", "the_great_flat", 2),
    at("atreides", "the_great_flat", 3),
    at("emperor", "the_great_flat", 1),
]
WORM = {"type": "worm", "territory": "the_great_flat"}


def _pos(ruleset: str) -> Position:
    return position(
        ruleset=ruleset,
        phase="spice_blow",
        forces=FORCES,
        alliances=[["atreides", "fremen"]],
        automatic_losses=True,
        per_faction={f: {"tanks": 0} for f in ("fremen", "atreides", "emperor")},
    )


def test_2_04_10_the_fremen_may_leave_their_ally_to_the_worm() -> None:
    spared = apply(_pos("lolv-2.8.4"), WORM)
    assert ("atreides", "the_great_flat", 14) in spared.forces
    assert ("emperor", "the_great_flat", 14) not in spared.forces
    exposed = apply(_pos("lolv-2.8.4"), {**WORM, "allies_spared": False})
    assert ("atreides", "the_great_flat", 14) not in exposed.forces
    assert ("fremen", "the_great_flat", 14) in exposed.forces  # 2.04.07: never the Fremen
    assert exposed.states["atreides"].tanks == (3, 0)


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH XII.E.6"), ("wbc2018", "WBC VII.8")])
def test_wbc_vii_8_the_fremen_cannot_withdraw_the_protection(ruleset: str, rule: str) -> None:
    with pytest.raises(IllegalAction) as info:
        apply(_pos(ruleset), {**WORM, "allies_spared": False})
    assert info.value.rule == rule and info.value.field == "allies_spared"
