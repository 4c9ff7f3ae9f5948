"""A malformed snapshot is refused naming its field, never a crash: every field of a rich
position (the golden records' last snapshots), of a faction's sheet and of a forces row, set
to any JSON value, either loads and evaluates or raises a `RuleViolation` (the API's 400)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dune.engine import evaluate
from dune.engine.codec.position import load_position
from dune.engine.errors import RuleViolation

REPLAYS = Path(__file__).parent / "replays"


def _last_snapshot(name: str) -> dict[str, Any]:
    snapshot: dict[str, Any] = json.loads((REPLAYS / name).read_text(encoding="utf-8").splitlines()[-1])["snapshot"]
    return snapshot


BASES = [_last_snapshot("wbc_10_turns_6_players.jsonl"), _last_snapshot("lolv_quick_tracking_victory.jsonl")]
BASE = BASES[0]
TOP = sorted({key for base in BASES for key in base} | {"edition", "automatic_losses", "ambassadors", "hms",
                                                        "no_field", "spice_on_board", "declared_apart", "losses",
                                                        "nexus_allied", "karama_used", "acting", "vidal",
                                                        "declared", "terror", "terror_spent", "worm_pending",
                                                        "aftermath", "storm_moved", "flyers", "moves"})
SHEET = sorted({key for base in BASES for sheet in base["factions"].values() for key in sheet} | {"spice_front"})
ROW = ["faction", "territory", "sector", "normal", "special", "advisors"]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["atreides", "arrakeen", "wbc2018", "storm", "1", "bid"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=6) | st.sampled_from(["atreides", "arrakeen", "faction", "turn"]), inner, max_size=3
    ),
    max_leaves=6,
)


def _refused_or_answered(snapshot: dict[str, Any]) -> None:
    try:
        position = load_position(snapshot)
    except RuleViolation as refused:
        assert refused.rule and str(refused)
        return
    evaluate(position)


#: The shapes seen to crash the loader before (each a 500 from the API).
KNOWN = [
    ("coexisting", [["x"]]), ("attempts", [["atreides"]]), ("turn", None), ("ruleset", []),
    ("ruleset", {"a": 1}), ("options", 5), ("options", [[1]]), ("alliances", [5]), ("alliances", "ab"),
    ("bg_prediction", 3), ("seats", [[1]]), ("forces", 7), ("forces", [5]), ("factions", []),
    ("moves", [{"faction": "atreides"}]), ("outcome", {"kind": "solo_stronghold", "sides": [1]}),
    ("attempts", [[1, 2]]), ("attempts", 3), ("card_names", 5),
]


@pytest.mark.parametrize(("key", "value"), KNOWN, ids=lambda v: repr(v))
def test_known_malformed_values_are_refused(key: str, value: Any) -> None:
    """Each of these is refused (never loaded as if it were a position), naming its field."""
    for base in BASES:
        snapshot = copy.deepcopy(base)
        if key == "card_names":
            snapshot["factions"][next(iter(snapshot["factions"]))][key] = value
        else:
            snapshot[key] = value
        with pytest.raises(RuleViolation) as refused:
            load_position(snapshot)
        assert refused.value.rule
        named = refused.value.field or str(refused.value)
        assert key in named, f"the refusal of {key}={value!r} names {named!r}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(TOP), value=JSON, base=st.sampled_from([0, 1]))
@example(key="turn", value=None, base=0)
def test_any_top_level_field_any_value(key: str, value: Any, base: int) -> None:
    snapshot = copy.deepcopy(BASES[base])
    snapshot[key] = value
    _refused_or_answered(snapshot)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(SHEET), value=JSON, base=st.sampled_from([0, 1]))
def test_any_faction_sheet_field_any_value(key: str, value: Any, base: int) -> None:
    snapshot = copy.deepcopy(BASES[base])
    snapshot["factions"][next(iter(snapshot["factions"]))][key] = value
    _refused_or_answered(snapshot)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(ROW), value=JSON, base=st.sampled_from([0, 1]))
def test_any_forces_row_field_any_value(key: str, value: Any, base: int) -> None:
    snapshot = copy.deepcopy(BASES[base])
    snapshot["forces"][0][key] = value
    _refused_or_answered(snapshot)
