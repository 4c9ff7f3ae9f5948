"""Every line of both points tables, and the kinds each format refuses."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dune.engine.ids import FORMATS, ResultKind
from dune.points import LoLVSystem, UnknownSystemError, UnsupportedResultError, WBCSystem
from dune.points.registry import SYSTEMS
from dune.points.registry import build_system as get_system

R = ResultKind

LOLV_TABLE = [
    ("4.01.09.01", R.SOLO_STRONGHOLD, Fraction(3)),
    ("4.01.09.02", R.BG_PREDICTION, Fraction(3)),
    ("4.01.09.03", R.ALLIED_STRONGHOLD, Fraction(2)),
    ("4.01.09.04", R.FREMEN_SPECIAL_SOLO, Fraction(2)),
    ("4.01.09.05", R.FREMEN_SPECIAL_ALLIED, Fraction(1)),
    ("4.01.09.06", R.END_GAME_SOLO, Fraction(1)),
    ("4.01.09.07", R.END_GAME_ALLIED, Fraction(1)),
    ("4.01.09.08", R.GUILD_DEFAULT_SOLO, Fraction(1)),
    ("4.01.09.08", R.FREMEN_DEFAULT_SOLO, Fraction(1)),
    ("4.01.09.09", R.GUILD_DEFAULT_ALLIED, Fraction(1)),
    ("4.01.09.09", R.FREMEN_DEFAULT_ALLIED, Fraction(1)),
    ("4.01.09.10", R.ADJUDICATED, Fraction(1, 2)),
    ("4.01.09.00", R.LOSS, Fraction(0)),
    ("4.01.09.00", R.DROPOUT, Fraction(0)),
]

WBC_TABLE = [
    ("solo victory", R.SOLO_STRONGHOLD, Fraction(2)),
    ("BG prediction victory", R.BG_PREDICTION, Fraction(2)),
    ("solo Fremen default", R.FREMEN_DEFAULT_SOLO, Fraction(2)),
    ("AH IV.B Fremen win scored as solo Fremen default", R.FREMEN_SPECIAL_SOLO, Fraction(2)),
    ("solo Guild default", R.GUILD_DEFAULT_SOLO, Fraction(1)),
    ("2-faction alliance victory", R.ALLIED_STRONGHOLD, Fraction(1)),
    ("2-faction Fremen default", R.FREMEN_DEFAULT_ALLIED, Fraction(1)),
    ("AH IV.B allied Fremen win scored as 2-faction Fremen default", R.FREMEN_SPECIAL_ALLIED, Fraction(1)),
    ("2-faction Guild default", R.GUILD_DEFAULT_ALLIED, Fraction(1, 2)),
    ("3-faction alliance victory or default", R.THREE_ALLIANCE, Fraction(1, 2)),
    ("any adjudicated victory", R.ADJUDICATED, Fraction(1, 2)),
    ("losers gain nothing", R.LOSS, Fraction(0)),
    ("dropouts gain nothing", R.DROPOUT, Fraction(0)),
]


@pytest.mark.parametrize(
    ("rule", "kind", "points"), LOLV_TABLE, ids=[f"{r}-{k.value}" for r, k, _ in LOLV_TABLE]
)
def test_4_01_09_points_allocation(rule: str, kind: ResultKind, points: Fraction) -> None:
    """4.01.09.00-.10: each result earns its listed points (adjudicated half a point)."""
    system = LoLVSystem()
    assert system.points(kind) == points
    assert system.points(kind.value) == points
    assert isinstance(system.points(kind), Fraction)
    assert system.rule_of(kind) == rule


@pytest.mark.parametrize(("line", "kind", "points"), WBC_TABLE, ids=[k.value for _, k, _ in WBC_TABLE])
def test_wbc_qualification_points(line: str, kind: ResultKind, points: Fraction) -> None:
    """WBC Qualification Points: the QP list, whether or not the game was adjudicated."""
    assert WBCSystem().points(kind) == points


def test_every_kind_is_scored_or_refused_by_each_format() -> None:
    """Each format maps every shared result kind exactly once: scored or refused with a rule."""
    for cls in SYSTEMS.values():
        assert set(cls.table) | set(cls.refused) == set(ResultKind)
        assert not set(cls.table) & set(cls.refused)


def test_4_01_09_00_lolv_refuses_three_faction_alliance() -> None:
    """4.01.09.00: the LoLV allocation list has no three-faction alliance victory."""
    with pytest.raises(UnsupportedResultError) as err:
        LoLVSystem().points(R.THREE_ALLIANCE)
    assert err.value.rule == "4.01.09.00"
    assert "'three_alliance'" in str(err.value)


@pytest.mark.parametrize("kind", [R.END_GAME_SOLO, R.END_GAME_ALLIED])
def test_wbc_refuses_end_game_victory(kind: ResultKind) -> None:
    """AH IV.C.1: the most-strongholds win needs Guild and Fremen absent; a WBC table never lacks both."""
    with pytest.raises(UnsupportedResultError) as err:
        WBCSystem().points(kind)
    assert "AH IV.C.1" in err.value.rule


def test_unknown_kind_string_is_refused() -> None:
    with pytest.raises(UnsupportedResultError, match="'stronghold'"):
        LoLVSystem().points("stronghold")


def test_registry_matches_formats_and_refuses_unknown_keys() -> None:
    """SYSTEMS holds one system per format id; any other key raises."""
    assert tuple(SYSTEMS) == FORMATS
    for key, cls in SYSTEMS.items():
        assert cls.key == key
        assert get_system(key).key == key
    with pytest.raises(UnknownSystemError, match="'chess'"):
        get_system("chess")
    with pytest.raises(UnknownSystemError):
        get_system("WBC")
    with pytest.raises(ValueError, match="finalist_seats"):
        get_system("wbc", finalist_seats=0)


def test_descriptions_come_from_parameters() -> None:
    assert "top 5 qualify" in get_system("lolv", finalist_seats=5).description
    assert "4.01.09.10" in LoLVSystem().description
    assert "adjudicated victory 0.5" in WBCSystem().description
