"""A table plays only its own ruleset's pieces, and a refusal cites its own rules: the 1979
equipment holds no Hidden Mobile Stronghold, No-Field token, Terror token, Ambassador or
Atomics Aftermath (AH II), and the WBC plays no expansions (WBC Rule Set); a LoLV number is
never cited at an AH or WBC table."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import load_position
from dune.engine.errors import InvalidPosition, UnknownIdentifier
from dune.engine.game_log import apply
from tests.engine.helpers import AH_WBC, LOLV, snap

OWN = {"ah1979": "AH II", "wbc2018": "WBC Rule Set (no expansions)"}

PIECES: list[tuple[str, Any]] = [
    ("hms", ["the_great_flat", 14]),
    ("aftermath", "arrakeen"),
    ("terror", ["arrakeen"]),
    ("ambassadors", {"carthag": "atreides"}),
    ("no_field", ["arrakeen", 9]),
]


@pytest.mark.parametrize("ruleset", AH_WBC)
@pytest.mark.parametrize(("key", "value"), PIECES)
def test_ah_ii_wbc_rule_set_no_expansion_pieces_in_a_position(ruleset: str, key: str, value: Any) -> None:
    with pytest.raises(InvalidPosition) as err:
        load_position(snap(ruleset, **{key: value}))
    assert err.value.rule == OWN[ruleset]
    assert "there is no" in err.value.message


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_ii_wbc_rule_set_no_hidden_mobile_stronghold_to_ship_into(ruleset: str) -> None:
    pos = load_position(snap(ruleset, phase="shipment_movement"))
    event = {"type": "forces_placed", "faction": "atreides", "territory": "hidden_mobile_stronghold", "sector": None, "normal": 1}
    with pytest.raises(UnknownIdentifier) as err:
        apply(pos, event)
    assert err.value.rule == OWN[ruleset]


def test_2_07_02_the_lolv_hms_needs_the_ixians() -> None:
    pos = load_position(snap(LOLV, phase="shipment_movement"))
    event = {"type": "forces_placed", "faction": "atreides", "territory": "hidden_mobile_stronghold", "sector": None, "normal": 1}
    with pytest.raises(UnknownIdentifier) as err:
        apply(pos, event)
    assert err.value.rule == "2.07.02"
