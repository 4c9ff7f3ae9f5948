"""The Karama card recorded with the events it enables (`karama: true`): a shipment bought at
the Guild rate (LoLV 3.01.11.03, WBC Player Aid 18), a card bought without paying or a faction's
Karama power over cards (3.01.11.04, 1.14.04, 1.14.09, 1.14.10; WBC VIII.10, WBC XVII.1;
AH VIII.C), played from the hand (3.01.11.00; the BG's worthless card counts as one, 2.02.22), the
Emperor's free revival of three forces or a leader (1.14.02, WBC XVII.9), the Fremen's worm
(1.14.03, WBC XVII.8) and the Ixians' HMS move (1.14.07). Under the LoLV the faction Karama
powers belong to the Advanced game (1.13.00, 1.13.05) and are used once a game (1.14.00); under
the WBC "once" means once per card. The checks added to flags older logs already hold (the
worm's, the HMS's) and the once-a-game powers apply from the fourth edition of the rulings;
each is tested under the third, which accepts what it accepted, and the fourth."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import ACCOUNTED, REFINED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply, log_of
from dune.engine.position import Position

from .helpers import AH_WBC, CLASSIC, LOLV, at, position, started

RULESETS = ("ah1979", "wbc2018", LOLV)
#: Who cites what for the Karama card's general uses, by ruleset.
SHIPMENT_RULE = {"ah1979": "WBC Player Aid 18", "wbc2018": "WBC Player Aid 18", LOLV: "3.01.11.03"}
CARD_RULE = {"ah1979": "AH VIII.C", "wbc2018": "WBC VIII.10", LOLV: "3.01.11.00"}
REVIVAL_RULE = {"ah1979": "WBC XVII.9", "wbc2018": "WBC XVII.9", LOLV: "1.14.02"}


def _pos(ruleset: str, edition: int = ACCOUNTED, **kw: Any) -> Position:
    return position(ruleset=ruleset, factions=CLASSIC, edition=edition, **kw)


def _ship(**kw: Any) -> dict[str, Any]:
    event = {"type": "forces_placed", "faction": "harkonnen", "territory": "carthag", "sector": 10}
    return event | {"normal": 2, "karama": True} | kw


@pytest.mark.parametrize("ruleset", RULESETS)
def test_3_01_11_03_a_shipment_at_the_guild_rate_is_recorded(ruleset: str) -> None:
    pos = _pos(ruleset, phase="shipment_movement", per_faction={"harkonnen": {"tanks": 0}})
    shipped = apply(pos, _ship())
    assert shipped.forces[("harkonnen", "carthag", 10)] == (2, 0, 0)
    assert log_of(shipped)[-1].karama is True  # kept in the log with the shipment
    with pytest.raises(IllegalAction) as info:
        apply(pos, _ship(source="tanks"))
    assert (info.value.rule, info.value.field) == (SHIPMENT_RULE[ruleset], "source")
    with pytest.raises(IllegalAction) as info:
        apply(_pos(ruleset, phase="bidding", per_faction={"harkonnen": {"tanks": 0}}), _ship())
    assert (info.value.rule, info.value.field) == (SHIPMENT_RULE[ruleset], "karama")
    assert "shipment and movement phase" in info.value.message


@pytest.mark.parametrize("ruleset", RULESETS)
def test_3_01_11_04_a_card_bought_with_a_karama_is_recorded(ruleset: str) -> None:
    """A Karama card leaves a hand (3.01.11.00); the BG's worthless card does as well (2.02.22)."""
    pos = _pos(
        ruleset, phase="bidding", per_faction={"harkonnen": {"cards": 1}, "bene_gesserit": {"cards": 1}}
    )
    bought = apply(pos, {"type": "cards_set", "faction": "harkonnen", "count": 2, "karama": True})
    assert bought.states["harkonnen"].cards == 2
    assert apply(pos, {"type": "cards_set", "faction": "bene_gesserit", "count": 1, "karama": True})
    empty = _pos(ruleset, phase="bidding", per_faction={"harkonnen": {"cards": 0}})
    with pytest.raises(IllegalAction) as info:
        apply(empty, {"type": "cards_set", "faction": "harkonnen", "count": 1, "karama": True})
    assert (info.value.rule, info.value.field) == (CARD_RULE[ruleset], "karama")
    assert (
        apply(empty, {"type": "cards_set", "faction": "harkonnen", "count": 1}).states["harkonnen"].cards == 1
    )


def _revival(ruleset: str, phase: str = "revival", **kw: Any) -> Position:
    tanks = {"emperor": {"tanks": 5, "tanks_special": 1}, "guild": {"tanks": 3}}
    return _pos(ruleset, phase=phase, per_faction=tanks, **kw)


REVIVE = {"type": "forces_revived", "faction": "emperor", "normal": 2, "special": 1, "karama": True}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_14_02_the_emperor_revives_three_forces_with_a_karama(ruleset: str) -> None:
    pos = apply(_revival(ruleset), REVIVE)
    assert pos.states["emperor"].reserves == (13, 5)  # 11 and 4 before
    for event, field in (
        ({**REVIVE, "normal": 3}, "normal"),
        ({**REVIVE, "faction": "guild", "special": 0}, "faction"),
    ):
        with pytest.raises(IllegalAction) as info:
            apply(_revival(ruleset), event)
        assert (info.value.rule, info.value.field) == (REVIVAL_RULE[ruleset], field)


@pytest.mark.parametrize("edition", [REFINED, ACCOUNTED])
def test_1_14_02_the_lolv_emperor_revives_in_the_revival_phase_of_the_advanced_game(edition: int) -> None:
    """1.14.02: in the revival phase the Emperor's Karama revives up to three forces or one
    leader at no cost; 1.13.05: an Advanced power. The flag is new to
    `forces_revived`, so these checks hold in every edition."""
    with pytest.raises(IllegalAction) as info:
        apply(_revival(LOLV, phase="shipment_movement", edition=edition), REVIVE)
    assert (info.value.rule, info.value.field) == ("1.14.02", "karama")
    with pytest.raises(IllegalAction) as info:  # the Basic game has no Karama powers (1.13.05)
        apply(_revival(LOLV, options=[], edition=edition), REVIVE)
    assert (info.value.rule, info.value.field) == ("1.14.00", "karama")


def test_1_14_00_the_emperor_revives_with_a_karama_once_a_game() -> None:
    """1.14.00: each faction's Karama power is played once in a game. From the fourth edition; the third took the judge's word."""
    once = apply(_revival(LOLV), {**REVIVE, "special": 0})
    assert once.karama_used == {"emperor"}
    with pytest.raises(IllegalAction) as info:
        apply(once, {**REVIVE, "normal": 1, "special": 0})
    assert (info.value.rule, info.value.field) == ("1.14.00", "karama")
    leader = {"type": "leader_changed", "faction": "emperor", "leader": "bashar", "status": "active"}
    tanks = {"emperor": {"leader_status": {"bashar": "tanks_face_up"}}}
    twice = _pos(LOLV, phase="revival", per_faction=tanks, karama_used=["emperor"])
    with pytest.raises(IllegalAction) as info:  # a leader revived with the card is the same power
        apply(twice, {**leader, "karama": True})
    assert (info.value.rule, info.value.field) == ("1.14.00", "karama")
    third = apply(_revival(LOLV, edition=REFINED), {**REVIVE, "special": 0})
    again = apply(third, {**REVIVE, "normal": 1, "special": 0})
    assert again.states["emperor"].reserves == (14, 4) and again.karama_used == frozenset()
    third_leader = _pos(LOLV, REFINED, phase="revival", per_faction=tanks, karama_used=["emperor"])
    assert ("active", None) in apply(third_leader, {**leader, "karama": True}).states["emperor"].leaders


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_wbc_xvii_9_the_emperor_revives_with_a_karama_at_any_time(ruleset: str) -> None:
    """WBC XVII.9: at any time no other ruling forbids; WBC Player Aid 8: once per card."""
    once = apply(_revival(ruleset, phase="shipment_movement"), {**REVIVE, "special": 0})
    twice = apply(once, {**REVIVE, "normal": 1, "special": 0})
    assert twice.states["emperor"].reserves == (14, 4)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_14_02_the_emperor_revives_a_leader_with_a_karama(ruleset: str) -> None:
    tanks = {"emperor": {"leader_status": {"bashar": "tanks_face_up"}}, "guild": {"leader_status": {}}}
    pos = _pos(ruleset, phase="revival", per_faction=tanks)
    revived = apply(
        pos,
        {
            "type": "leader_changed",
            "faction": "emperor",
            "leader": "bashar",
            "status": "active",
            "karama": True,
        },
    )
    assert ("active", None) in revived.states["emperor"].leaders
    active = {
        "type": "leader_changed",
        "faction": "emperor",
        "leader": "caid",
        "status": "active",
        "karama": True,
    }
    with pytest.raises(IllegalAction) as info:  # Caid is no leader in the tanks
        apply(pos, active)
    assert (info.value.rule, info.value.field) == (REVIVAL_RULE[ruleset], "status")


def _worms(
    ruleset: str, edition: int = ACCOUNTED, factions: tuple[str, ...] = CLASSIC, **kw: Any
) -> Position:
    return position(ruleset=ruleset, factions=factions, edition=edition, phase="spice_blow", **kw)


KARAMA_WORM = {"type": "worm", "territory": "the_great_flat", "karama": True}
NO_FREMEN = ("atreides", "bene_gesserit", "emperor", "harkonnen", "guild", "ecaz")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("edition", [REFINED, ACCOUNTED])
def test_1_14_03_only_the_fremen_place_a_karama_worm(ruleset: str, edition: int) -> None:
    """1.14.03: only the Fremen place a worm in a sand territory with a Karama (WBC XVII.8, AH
    questions A.8 likewise). From the fourth edition; the third took
    the judge's word."""
    factions = NO_FREMEN if ruleset == LOLV else tuple(f for f in CLASSIC if f != "fremen")
    pos = _worms(ruleset, edition, factions=factions)
    assert apply(_worms(ruleset, edition), KARAMA_WORM).worms == 1
    if edition == REFINED:
        assert apply(pos, KARAMA_WORM).worms == 1
        return
    with pytest.raises(IllegalAction) as info:
        apply(pos, KARAMA_WORM)
    rule = {"ah1979": "AH questions A.8", "wbc2018": "WBC XVII.8", LOLV: "1.14.03"}[ruleset]
    assert (info.value.rule, info.value.field) == (rule, "karama")


@pytest.mark.parametrize("edition", [REFINED, ACCOUNTED])
def test_1_14_00_the_lolv_karama_worm_once_a_game(edition: int) -> None:
    """1.14.00: a faction's Karama power is played once in a game. From the fourth edition; the
    third took the judge's word. The WBC lets every card summon one (WBC XVII.8)."""
    once = apply(_worms(LOLV, edition), KARAMA_WORM)
    assert apply(once, {**KARAMA_WORM, "karama": False}).worms == 2
    wbc = apply(apply(_worms("wbc2018", edition), KARAMA_WORM), KARAMA_WORM)
    assert wbc.worms == 2
    if edition == REFINED:
        twice = apply(once, KARAMA_WORM)
        assert twice.worms == 2 and twice.karama_used == frozenset()
        return
    assert once.karama_used == {"fremen"}
    with pytest.raises(IllegalAction) as info:
        apply(once, KARAMA_WORM)
    assert (info.value.rule, info.value.field) == ("1.14.00", "karama")


@pytest.mark.parametrize("edition", [REFINED, ACCOUNTED])
def test_1_13_05_no_karama_worm_in_the_lolv_basic_game(edition: int) -> None:
    """1.13.05: the one-time Karama powers belong to the Advanced game (1.13.00). From the fourth edition; the
    third took the judge's word."""
    basic = _worms(LOLV, edition, options=[])
    if edition == REFINED:
        assert apply(basic, KARAMA_WORM).worms == 1
        return
    with pytest.raises(IllegalAction) as info:
        apply(basic, KARAMA_WORM)
    assert (info.value.rule, info.value.field) == ("1.14.00", "karama")


def test_1_14_00_the_ixians_move_the_hms_with_a_karama_once_a_game() -> None:
    """1.14.07 with 1.14.00: the Ixians' Karama move of the HMS, once in a game. From the
    fourth edition; the third took the judge's word."""
    factions = ("atreides", "ixians", "emperor", "fremen", "harkonnen", "guild")
    pos = apply(
        started(LOLV, factions, storm=0), {"type": "hms_moved", "territory": "the_great_flat", "sector": 14}
    )
    pos = apply(pos, {"type": "phase_advanced", "phase": "shipment_movement"})
    pos = apply(
        pos,
        {
            "type": "forces_placed",
            "faction": "ixians",
            "territory": "hidden_mobile_stronghold",
            "sector": None,
            "normal": 2,
        },
    )
    move = {"type": "hms_moved", "territory": "the_greater_flat", "sector": 15, "karama": True}
    moved = apply(pos, move)
    assert moved.karama_used == {"ixians"}
    with pytest.raises(IllegalAction) as info:
        apply(moved, {**move, "territory": "the_great_flat", "sector": 14})
    assert (info.value.rule, info.value.field) == ("1.14.00", "karama")
    forces = [at("ixians", "hidden_mobile_stronghold", 2, sector=None)]
    old = position(
        ruleset=LOLV,
        factions=factions,
        edition=REFINED,
        phase="shipment_movement",
        hms=["the_great_flat", 14],
        forces=forces,
    )
    twice = apply(apply(old, move), {**move, "territory": "the_great_flat", "sector": 14})
    assert twice.hms == ("the_great_flat", 14) and twice.karama_used == frozenset()
