"""The format registry: one definition per format, asked by everything format-dependent.

Rule texts: WBC 2018 format ("Preliminary Heat Duration", "Final Round Duration", house rules
on the faction draw, diplomacy chips, best-faction awards); LoLV 2.8.4 0.02 (ten turns), 0.08
(two dealt alliance cards), 4.01.01 (table sizes), 4.01.08 (time limit).
"""

from __future__ import annotations

import dataclasses

import pytest

from dune.clock_limits import LIMITS
from dune.engine.ids import CLASSIC_FACTIONS, FACTIONS
from dune.engine.rulesets import RULESETS
from dune.formats import FORMATS, ROUND_KINDS, FactionDeal, UnknownFormat, format_choices, get_format
from dune.points import SYSTEMS
from dune.refusals import Refusal


@pytest.mark.parametrize(
    ("key", "kind", "clock", "turns"),
    [
        ("lolv", "heat", "lolv", 10),
        ("lolv", "final", "lolv", 10),
        ("wbc", "heat", "wbc_heat", 10),
        ("wbc", "final", "wbc_final", 15),
    ],
)
def test_clock_and_turn_limit_per_round_kind(key: str, kind: str, clock: str, turns: int) -> None:
    """LoLV 0.02 / 4.01.08: one limit for every game; WBC: heats 10 turns, the final 15."""
    fmt = get_format(key)
    assert fmt.clock_key(kind) == clock
    assert fmt.turn_limit(kind) == turns
    assert fmt.clock(kind) is LIMITS[clock]


def test_unknown_format_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(UnknownFormat) as info:
        get_format("chess")
    assert isinstance(info.value, Refusal) and info.value.field == "format"
    assert "WBC Dune" in info.value.message and "Landsraad of Las Vegas" in info.value.message
    for bad in (None, 3, ["wbc"]):
        with pytest.raises(UnknownFormat):
            get_format(bad)


def test_unknown_round_kind_is_refused() -> None:
    with pytest.raises(UnknownFormat) as info:
        get_format("wbc").clock_key("semi")
    assert info.value.field == "kind"


@pytest.mark.parametrize("fmt", list(FORMATS.values()), ids=list(FORMATS))
def test_every_format_names_things_that_exist(fmt) -> None:  # type: ignore[no-untyped-def]
    """Contract over every registered format: its ruleset, points system, clocks, factions."""
    assert fmt.ruleset in RULESETS
    assert fmt.scoring in SYSTEMS and fmt.points_system().key == fmt.scoring
    assert set(fmt.clocks) == set(ROUND_KINDS)
    assert set(fmt.factions) <= set(FACTIONS) and set(fmt.final_factions) <= set(FACTIONS)
    assert fmt.tiebreak_labels == fmt.points_system().tiebreak_labels
    assert fmt.result_kinds and len(set(fmt.result_kinds)) == len(fmt.result_kinds)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fmt.key = "other"  # type: ignore[misc]


def test_wbc_draws_the_classic_factions_and_lolv_deals_two_cards() -> None:
    """WBC house rules: the six classic factions are drawn; LoLV 0.08: two cards, keep one."""
    wbc, lolv = get_format("wbc"), get_format("lolv")
    assert wbc.faction_deal is FactionDeal.DRAW and not wbc.deals_cards and wbc.faction_trades
    assert wbc.factions == CLASSIC_FACTIONS == wbc.final_factions
    assert lolv.deals_cards and not lolv.faction_trades and lolv.final_factions == FACTIONS


def test_only_wbc_has_diplomacy_chips_and_best_faction_awards() -> None:
    assert get_format("wbc").diplomacy_chips == 3 and get_format("wbc").awards
    assert get_format("lolv").diplomacy_chips == 0 and not get_format("lolv").awards


def test_a_format_with_an_unknown_ruleset_or_system_cannot_be_defined() -> None:
    with pytest.raises(ValueError, match="unknown ruleset"):
        dataclasses.replace(get_format("wbc"), key="x", ruleset="nope")
    with pytest.raises(ValueError, match="unknown points system"):
        dataclasses.replace(get_format("wbc"), key="x", scoring="nope")


def test_choices_list_every_format_by_name() -> None:
    assert format_choices() == [("wbc", "WBC Dune"), ("lolv", "Landsraad of Las Vegas")]
