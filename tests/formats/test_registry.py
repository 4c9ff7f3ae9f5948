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
from dune.points.registry import SYSTEMS
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
    assert fmt.turn_limit(kind) == turns == fmt.ruleset.turn_limit_for(kind)
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
    assert RULESETS[fmt.ruleset.key] is fmt.ruleset
    assert issubclass(type(fmt.points), SYSTEMS[fmt.points.key])
    assert set(fmt.clocks) == set(ROUND_KINDS) == set(fmt.tracking)
    assert set(fmt.factions) <= set(fmt.ruleset.factions) and set(fmt.final_factions) <= set(FACTIONS)
    assert fmt.finalist_seats == fmt.points.finalist_seats
    assert fmt.result_kinds and len(set(fmt.result_kinds)) == len(fmt.result_kinds)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fmt.key = "other"  # type: ignore[misc]


def test_wbc_draws_the_classic_factions_and_lolv_deals_two_cards() -> None:
    """WBC house rules: the six classic factions are drawn; LoLV 0.08: two cards, keep one."""
    wbc, lolv = get_format("wbc"), get_format("lolv")
    assert wbc.faction_deal is FactionDeal.DRAW and not wbc.deals_cards and wbc.faction_trades
    assert wbc.factions == CLASSIC_FACTIONS == wbc.final_factions
    assert lolv.deals_cards and not lolv.faction_trades and lolv.final_factions == FACTIONS


def test_only_wbc_has_diplomacy_chips_call_timers_and_best_faction_awards() -> None:
    """WBC time guidelines: three chips per player and call-the-clock timers; the LoLV has
    neither (it times the whole game, 4.01.08)."""
    wbc, lolv = get_format("wbc"), get_format("lolv")
    assert wbc.diplomacy_chips == 3 and wbc.call_timers and wbc.awards
    assert lolv.diplomacy_chips == 0 and lolv.call_timers == () and not lolv.awards


def test_heats_are_tracked_quickly_and_finals_in_full() -> None:
    for fmt in FORMATS.values():
        assert fmt.tracking_for("heat") == "quick" and fmt.tracking_for("final") == "full"


def test_the_heat_faction_pools_come_from_the_format() -> None:
    """WBC house rules: one pool, the classic factions; LoLV 0.08: a classic and an expansion card."""
    assert get_format("wbc").heat_factions == (CLASSIC_FACTIONS,)
    classic, expansion = get_format("lolv").heat_factions
    assert classic == CLASSIC_FACTIONS and set(expansion).isdisjoint(classic) and len(expansion) == 6


def test_a_format_whose_clock_and_ruleset_disagree_on_turns_cannot_be_defined() -> None:
    wbc = get_format("wbc")
    with pytest.raises(ValueError, match="clock allows 15 turns"):
        dataclasses.replace(wbc, key="x", clocks={"heat": wbc.clock("final"), "final": wbc.clock("final")})
    with pytest.raises(ValueError, match="not in the ruleset"):
        dataclasses.replace(get_format("lolv"), key="x", ruleset=wbc.ruleset, clocks=wbc.clocks)


def test_choices_list_every_format_by_name() -> None:
    assert format_choices() == [
        ("wbc", "WBC Dune"),
        ("lolv", "Landsraad of Las Vegas"),
        ("ah1979", "Avalon Hill 1979 (club)"),
    ]


def test_1_13_00_lolv_tables_play_the_advanced_game() -> None:
    """LoLV 1.13.00: the Advanced game is a setup option; the LoLV format's tables play it
    (every faction ability, the Karama powers); the WBC format has no such option."""
    assert get_format("lolv").game_options == ("advanced",)
    assert get_format("wbc").game_options == ()
    with pytest.raises(ValueError, match="option 'advanced' for 'wbc2018': unknown option"):
        dataclasses.replace(get_format("wbc"), key="x", game_options=("advanced",))
