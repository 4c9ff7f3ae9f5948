"""LoLV 1.06 (shipment and movement), AH IX.C, AH XII.E.5: what a recorded shipment or
move may not do. A refused event changes nothing. Each rule runs under every ruleset whose
text has it, the refusal citing that ruleset's rule; repositioning within a territory is
LoLV-only (1.06.07), declared coexistence AH/WBC-only (the LoLV BG has advisors)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.errors import IllegalAction, RuleViolation
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import ALL_RULESETS, in_turn, next_turn, started, to_phase


def _ship(
    pos: Position, faction: str, territory: str, sector: int | None, normal: int = 1, **kw: Any
) -> Position:
    return apply(
        pos,
        {
            "type": "forces_placed",
            "faction": faction,
            "territory": territory,
            "sector": sector,
            "normal": normal,
            **kw,
        },
    )


def _move(
    pos: Position,
    faction: str,
    src: str,
    ss: int | None,
    dst: str,
    ds: int | None,
    normal: int = 1,
    **kw: Any,
) -> Position:
    return apply(
        pos,
        {
            "type": "forces_moved",
            "faction": faction,
            "from_territory": src,
            "from_sector": ss,
            "to_territory": dst,
            "to_sector": ds,
            "normal": normal,
            **kw,
        },
    )


def _movement(ruleset: str) -> Position:
    return to_phase(in_turn(1, ruleset=ruleset), "shipment_movement")  # storm on sector 0


@pytest.fixture(params=ALL_RULESETS)
def movement(request: pytest.FixtureRequest) -> Position:
    """The shipment and movement phase of turn 1 under each ruleset."""
    return _movement(request.param)


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # No shipment into storm: AH IX.C.1.c (WBC adds nothing), LoLV 1.06.02.04.
    [("ah1979", "AH IX.C.1.c"), ("wbc2018", "AH IX.C.1.c"), ("lolv-2.8.4", "1.06.02.04")],
)
def test_1_06_02_04_no_shipment_into_storm(ruleset: str, rule: str) -> None:
    """LoLV 1.06.02.04 / AH IX.C.1.c: no player may ship into a sector in storm."""
    movement = _movement(ruleset)
    with pytest.raises(IllegalAction) as info:
        _ship(movement, "emperor", "meridian", 0, 3)
    assert info.value.rule == rule
    assert "storm" in info.value.message
    assert _ship(movement, "emperor", "meridian", 1, 3).forces[("emperor", "meridian", 1)] == (3, 0, 0)


def test_ah_ix_c_1_c_i_fremen_may_send_into_storm(movement: Position) -> None:
    """AH IX.C.1.c.i / WBC IX.11 / LoLV 2.04.17: the Fremen may bring reserves into a storm
    sector."""
    pos = _ship(movement, "fremen", "cielago_west", 0, 2)
    assert pos.forces[("fremen", "cielago_west", 0)] == (2, 0, 0)


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # No move into, out of or through storm: AH IX.C.2.c (WBC adds nothing), LoLV 1.06.04.06.
    [("ah1979", "AH IX.C.2.c"), ("wbc2018", "AH IX.C.2.c"), ("lolv-2.8.4", "1.06.04.06")],
)
def test_1_06_04_06_no_move_into_or_out_of_storm(ruleset: str, rule: str) -> None:
    """LoLV 1.06.04.06 / AH IX.C.2.c: no force moves into, out of or through a sector in storm."""
    pos = _movement(ruleset)
    pos = _ship(pos, "emperor", "meridian", 1, 3)
    with pytest.raises(IllegalAction) as info:
        _move(pos, "emperor", "meridian", 1, "cielago_west", 0)
    assert info.value.rule == rule
    pos2 = next_turn(pos)  # storm still on 0 (never moved)
    pos2 = apply(pos2, {"type": "storm_moved", "sectors": 1})  # now on 1
    pos2 = to_phase(pos2, "shipment_movement")
    with pytest.raises(IllegalAction):
        _move(pos2, "emperor", "meridian", 1, "meridian", 0)


def test_1_06_04_07_reposition_within_a_territory() -> None:
    """LoLV 1.06.07: forces may move to another sector of the same territory. LoLV only: the
    AH and WBC texts neither grant nor forbid it."""
    pos = _ship(_movement("lolv-2.8.4"), "emperor", "wind_pass", 13, 2)
    pos = _move(pos, "emperor", "wind_pass", 13, "wind_pass", 15, 2)
    assert ("emperor", "wind_pass", 13) not in pos.forces
    assert pos.forces[("emperor", "wind_pass", 15)] == (2, 0, 0)


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # No shipment into a stronghold held by two others: AH IX.C.1.d (WBC adds nothing),
    # LoLV 1.06.02.05.
    [("ah1979", "AH IX.C.1.d"), ("wbc2018", "AH IX.C.1.d"), ("lolv-2.8.4", "1.06.02.05")],
)
def test_1_06_04_09_occupancy_limit_of_strongholds(ruleset: str, rule: str) -> None:
    """LoLV 1.06.02.05 / 1.06.04.09, AH IX.C.1.d / IX.C.2.f: no third faction enters a
    stronghold held by two."""
    pos = _ship(_movement(ruleset), "emperor", "arrakeen", 9, 2)  # with the Atreides
    with pytest.raises(IllegalAction) as info:
        _ship(pos, "guild", "arrakeen", 9, 1)
    assert info.value.rule == rule
    # BG advisors never count against the limit (LoLV 2.02.12); under AH and the WBC the tokens
    # have no advisor side (AH XV.A, WBC XV.5: coexistence by territory, fifth edition).
    if ruleset == "lolv-2.8.4":
        after = _ship(pos, "bene_gesserit", "arrakeen", 9, 0, advisors=1)  # follows the Emperor (2.02.11)
        assert after.forces[("bene_gesserit", "arrakeen", 9)] == (0, 0, 1)
    else:
        with pytest.raises(IllegalAction) as info:
            _ship(pos, "bene_gesserit", "arrakeen", 9, 0, advisors=1)
        assert info.value.rule == pos.ruleset.cite["no_advisors"]


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
def test_ah_ix_c_1_d_bg_tokens_ship_into_a_stronghold_of_two_to_coexist(ruleset: str) -> None:
    """AH IX.C.1.d: "No player may ship into a stronghold already occupied by two other players,
    except for Bene Gesserit tokens that are peacefully coexisting in the stronghold (see XIV)."
    Where the tokens have no advisor side, the BG's token goes in and coexists there (ninth
    edition); another faction is still refused, and so is the BG under an earlier edition."""
    from dune.engine.editions import SEQUENCED

    pos = _ship(_movement(ruleset), "emperor", "arrakeen", 9, 2)  # with the Atreides
    if ruleset == "wbc2018":  # WBC XV.12: declared as it lands
        pos = apply(pos, {"type": "coexistence_declared", "territory": "arrakeen", "coexisting": True})
    after = _ship(pos, "bene_gesserit", "arrakeen", 9, 1)
    assert after.forces[("bene_gesserit", "arrakeen", 9)] == (1, 0, 0)
    assert "arrakeen" in after.coexisting
    with pytest.raises(IllegalAction):
        _ship(after, "guild", "arrakeen", 9, 1)
    older = to_phase(started(ruleset, edition=SEQUENCED), "shipment_movement")
    older = _ship(older, "emperor", "arrakeen", 9, 2)
    with pytest.raises(IllegalAction) as info:
        _ship(older, "bene_gesserit", "arrakeen", 9, 1)
    assert "no third faction" in info.value.message


def test_shield_wall_has_no_occupancy_limit(movement: Position) -> None:
    """WBC house rules / LoLV 4.02.03: the Shield Wall is not limited to two factions; under
    AH it is rock, never limited (AH IX.C.1.d limits strongholds only)."""
    pos = _ship(movement, "emperor", "shield_wall", 7, 1)
    pos = _ship(pos, "guild", "shield_wall", 8, 1)
    pos = _ship(pos, "harkonnen", "shield_wall", 8, 1)
    assert {f for (f, t, _s) in pos.forces if t == "shield_wall"} == {"emperor", "guild", "harkonnen"}


def test_more_forces_than_the_faction_owns_is_refused(movement: Position) -> None:
    before = movement
    with pytest.raises(RuleViolation) as info:
        _ship(before, "atreides", "the_great_flat", 14, 11)  # 10 in reserves
    assert "10 normal" in info.value.message
    with pytest.raises(IllegalAction):
        _move(before, "atreides", "arrakeen", 9, "old_gap", 9, 11)
    with pytest.raises(IllegalAction):
        _ship(before, "emperor", "the_great_flat", 14, 0, special=6)  # 5 Sardaukar


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Shipping into an ally's territory: refused by AH XII.E.5 (WBC IX.2 keeps it); the LoLV
    # accepts it and settles it at the end of the action (1.06.06, test_rules_1_06_06).
    [("ah1979", "AH XII.E.5"), ("wbc2018", "AH XII.E.5"), ("lolv-2.8.4", None)],
)
def test_ah_xii_e_5_allies_never_share_a_territory(ruleset: str, rule: str | None) -> None:
    """AH XII.E.5 (WBC): allies may not enter a territory an ally holds, Polar Sink excepted
    (LoLV 1.06.06 excepts it too)."""
    pos = in_turn(2, ruleset=ruleset, phase="spice_blow")
    pos = apply(pos, {"type": "worm", "territory": "the_great_flat"})
    pos = apply(pos, {"type": "alliance_formed", "factions": ["atreides", "emperor"]})
    pos = to_phase(pos, "shipment_movement")
    if rule is None:
        assert _ship(pos, "emperor", "arrakeen", 9, 2).forces[("emperor", "arrakeen", 9)] == (2, 0, 0)
    else:
        with pytest.raises(IllegalAction) as info:
            _ship(pos, "emperor", "arrakeen", 9, 2)
        assert info.value.rule == rule
    assert _ship(pos, "emperor", "polar_sink", None, 2).forces[("emperor", "polar_sink", None)] == (2, 0, 0)


def test_a_refused_event_changes_nothing(movement: Position) -> None:
    before = movement
    snapshot = (dict(before.forces), dict(before.states), before.seq)
    with pytest.raises(RuleViolation):
        _ship(before, "emperor", "meridian", 0, 3)
    assert (dict(before.forces), dict(before.states), before.seq) == snapshot


def test_unknown_territory_and_sector_are_refused(movement: Position) -> None:
    from dune.engine.errors import UnknownIdentifier

    with pytest.raises(UnknownIdentifier):
        _ship(movement, "emperor", "caladan", 1)
    with pytest.raises(UnknownIdentifier) as info:
        _ship(movement, "emperor", "arrakeen", 10)
    assert "spans sectors 9" in info.value.message


def test_1_06_03_only_the_guild_ships_back_to_reserves(movement: Position) -> None:
    """LoLV 1.06.03 / AH IX.C.1.f: only the Guild ships from the board to reserves
    (LoLV 2.06.05.02, AH IX.C.1.g.iii)."""
    with pytest.raises(IllegalAction):
        apply(
            movement,
            {
                "type": "forces_removed",
                "faction": "atreides",
                "territory": "arrakeen",
                "sector": 9,
                "normal": 2,
                "to": "reserves",
            },
        )
    pos = apply(
        movement,
        {
            "type": "forces_removed",
            "faction": "guild",
            "territory": "tueks_sietch",
            "sector": 4,
            "normal": 2,
            "to": "reserves",
        },
    )
    assert pos.states["guild"].reserves == (17, 0)


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Withdrawing coexistence where two others hold the stronghold: refused by the occupancy
    # limit in the AH text (AH IX.C.2.f), by WBC XV.9 before that under WBC.
    [("ah1979", "AH IX.C.2.f"), ("wbc2018", "WBC XV.9")],
)
def test_wbc_xv_ending_coexistence_never_makes_a_third_faction(ruleset: str, rule: str) -> None:
    """AH XV.B with AH IX.C.1.d: BG tokens coexisting in a stronghold held by two others may
    not turn into a third fighting faction there; the BG may ship in if it declares
    coexistence as it lands (WBC XV.12); under WBC XV.9 a territory declared coexisting this
    turn cannot even be withdrawn. AH/WBC only: the LoLV BG has advisors, not declared
    coexistence (2.02.10-21)."""
    pos = to_phase(in_turn(2, ruleset=ruleset), "shipment_movement")
    pos = _ship(pos, "emperor", "arrakeen", 9, 2)
    if ruleset == "wbc2018":
        with pytest.raises(IllegalAction) as refused:
            _ship(pos, "bene_gesserit", "arrakeen", 9, 1)
        # The refusal says what to do (ninth edition): declare the coexistence first.
        assert "record their coexistence in Arrakeen first (WBC XV.7)" in refused.value.message
    else:  # AH XV.B: coexistence is assumed, so the token goes in (AH IX.C.1.d, ninth edition)
        assert "arrakeen" in _ship(pos, "bene_gesserit", "arrakeen", 9, 1).coexisting
    # WBC XV.12: the BG may ship there if it declares coexistence as it lands.
    pos = apply(pos, {"type": "coexistence_declared", "territory": "arrakeen", "coexisting": True})
    pos = _ship(pos, "bene_gesserit", "arrakeen", 9, 1)
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "coexistence_declared", "territory": "arrakeen", "coexisting": False})
    assert info.value.rule == rule
