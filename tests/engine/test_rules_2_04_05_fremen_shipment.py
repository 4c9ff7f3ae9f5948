"""Where the Fremen send their reserves: the Great Flat or any territory within two of it
(LoLV 2.04.05, AH IX.C.1.h, WBC IX.11-13), into the storm at half loss (LoLV 2.04.17,
AH IX.C.1.c.i, WBC IX.11); allied with the Guild they may ship anywhere, but not into the
storm (WBC IX.12, WBC IX.16); ornithopters do not widen the range (WBC IX.13)."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import started, to_phase

RULE = {"ah1979": "AH IX.C.1.h", "wbc2018": "WBC IX.11", "lolv-2.8.4": "2.04.05"}


def _send(territory: str, sector: int, n: int = 4) -> dict[str, object]:
    return {
        "type": "forces_placed",
        "faction": "fremen",
        "territory": territory,
        "sector": sector,
        "normal": n,
    }


def _movement(ruleset: str, storm: int = 0, **extra: object) -> Position:
    return to_phase(started(ruleset, storm=storm, **extra), "shipment_movement")


@pytest.mark.parametrize("ruleset", sorted(RULE))
def test_2_04_05_fremen_send_only_near_the_great_flat(ruleset: str) -> None:
    pos = _movement(ruleset)
    assert apply(pos, _send("the_great_flat", 14)).forces[("fremen", "the_great_flat", 14)] == (4, 0, 0)
    assert ("fremen", "plastic_basin", 12) in apply(pos, _send("plastic_basin", 12)).forces
    with pytest.raises(IllegalAction) as info:
        apply(pos, _send("tueks_sietch", 4))
    assert info.value.rule == RULE[ruleset]


@pytest.mark.parametrize("ruleset", sorted(RULE))
def test_2_04_17_fremen_send_into_the_storm_at_half_loss(ruleset: str) -> None:
    """Without automatic losses the judge records the loss; with them, half (rounded up) go."""
    manual = apply(_movement(ruleset, storm=14), _send("the_great_flat", 14, 5))
    assert manual.forces[("fremen", "the_great_flat", 14)] == (5, 0, 0)
    auto = apply(_movement(ruleset, storm=14, automatic_losses=True), _send("the_great_flat", 14, 5))
    assert auto.forces[("fremen", "the_great_flat", 14)] == (2, 0, 0)
    assert auto.states["fremen"].tanks == (3, 0)
    assert [row[3] for row in auto.losses] == [3]


@pytest.mark.parametrize(
    ("ruleset", "refusal"),
    # The Fremen's reserves by Guild shipment: allowed by WBC IX.12 and IX.16; the AH text's
    # Guild alliance ships the Fremen planet to planet only (AH IX.C.1.i); the LoLV Fremen
    # have no off-planet reserves to ship (2.04.03).
    [("ah1979", "AH IX.C.1.i"), ("wbc2018", None), ("lolv-2.8.4", "2.04.03")],
)
def test_wbc_ix_12_fremen_allied_with_the_guild_ship_anywhere_but_not_into_storm(
    ruleset: str, refusal: str | None
) -> None:
    """WBC IX.12, IX.16: allied with the Guild, the Fremen may ship reserves anywhere by
    Guild shipment, never into the storm; AH IX.C.1.i and LoLV 2.04.03 do not allow it."""
    pos = _movement(ruleset, storm=4).evolve(alliances=(("fremen", "guild"),))
    if refusal is None:
        assert ("fremen", "carthag", 10) in apply(pos, _send("carthag", 10)).forces
    else:
        with pytest.raises(IllegalAction) as info:
            apply(pos, _send("carthag", 10))
        assert info.value.rule == refusal
    assert ("fremen", "the_great_flat", 14) in apply(pos, _send("the_great_flat", 14)).forces
    with pytest.raises(IllegalAction):
        apply(pos, _send("tueks_sietch", 4))  # Guild shipment never goes into the storm
