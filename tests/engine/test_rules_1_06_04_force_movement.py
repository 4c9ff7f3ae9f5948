"""LoLV 1.06.04 (force movement), AH IX.C.2 and the WBC clarifications IX.2/IX.10: range,
ornithopters, Fremen and Ixian movement, the path around the storm and full strongholds, one
movement per turn, worm rides and cross-shipments. A refused move changes nothing.

Every rule here runs under each ruleset whose text has it, with the expected answer (and the
rule the refusal cites) per ruleset where the texts differ; the Ixians, the Ecaz and the
Ornithopter card are LoLV-only."""

from __future__ import annotations

import functools
import json
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dune.engine.board import TERRITORIES
from dune.engine.editions import LIMITED
from dune.engine.errors import RuleViolation, WrongPhase
from dune.engine.game_log import apply, is_legal
from dune.engine.moves import blocked_pieces
from dune.engine.position import Position

from .helpers import ALL_RULESETS, CLASSIC, at, position

LOLV6 = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ixians")


def mv(
    faction: str, src: str, ss: int | None, dst: str, ds: int | None, normal: int = 1, **kw: Any
) -> dict[str, Any]:
    return {
        "type": "forces_moved",
        "faction": faction,
        "from_territory": src,
        "from_sector": ss,
        "to_territory": dst,
        "to_sector": ds,
        "normal": normal,
        **kw,
    }


def refused(pos: Position, event: dict[str, Any]) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        apply(pos, event)
    return info.value


def table(
    ruleset: str = "wbc2018",
    *,
    storm: int = 9,
    phase: str = "shipment_movement",
    factions: tuple[str, ...] = CLASSIC,
    **kw: Any,
) -> Position:
    return position(ruleset=ruleset, storm=storm, phase=phase, factions=factions, **kw)


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # One adjacent territory: AH IX.C.2.a.ii (WBC adds nothing), LoLV 1.06.04.03.
    [("ah1979", "AH IX.C.2.a.ii"), ("wbc2018", "AH IX.C.2.a.ii"), ("lolv-2.8.4", "1.06.04.03")],
)
def test_1_06_04_03_one_adjacent_territory_without_ornithopters(ruleset: str, rule: str) -> None:
    """LoLV 1.06.04.03 / AH IX.C.2.a.ii: without forces in Arrakeen or Carthag a group moves
    to one adjacent territory only."""
    pos = table(ruleset, forces=[at("emperor", "the_great_flat", 3, sector=14)])
    after = apply(pos, mv("emperor", "the_great_flat", 14, "funeral_plain", 14))
    assert after.forces[("emperor", "funeral_plain", 14)] == (1, 0, 0)
    err = refused(pos, mv("emperor", "the_great_flat", 14, "bight_of_the_cliff", 14))
    assert err.rule == rule and "2 territories" in err.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_04_04_ornithopters_three_territories_lolv_example(ruleset: str) -> None:
    """LoLV 1.06.04.04 / AH IX.C.2.a.i (the same example in both): forces in Arrakeen give
    ornithopters to any group of the faction: Tuek's Sietch through Pasty Mesa and the
    Shield Wall to the Imperial Basin."""
    forces = [at("atreides", "arrakeen", 2), at("atreides", "tueks_sietch", 3, sector=4)]
    pos = table(ruleset, forces=forces, storm=0)
    after = apply(pos, mv("atreides", "tueks_sietch", 4, "imperial_basin", 8, 3))
    assert after.forces[("atreides", "imperial_basin", 8)] == (3, 0, 0)
    # Four territories away is too far even with ornithopters.
    assert not is_legal(pos, mv("atreides", "tueks_sietch", 4, "arsunt", 10, 3))


@pytest.mark.parametrize(
    ("ruleset", "flies"),
    # Ornithopter access: at the start of the movement round (AH IX.C.2.a.i "starts the
    # Movement Phase", WBC IX.10); at the start of the faction's own move (LoLV 1.06.04.04).
    [("ah1979", False), ("wbc2018", False), ("lolv-2.8.4", True)],
)
def test_wbc_ix_10_ornithopters_decided_at_the_start_of_the_round(ruleset: str, flies: bool) -> None:
    """WBC IX.10 / AH IX.C.2.a.i: ornithopter access is fixed when the movement round starts;
    LoLV 1.06.04.04: at the start of the faction's own move, so a shipment into a city first
    gives it."""
    forces = [at("emperor", "the_great_flat", 2, sector=14)]
    pos = table(ruleset, phase="revival", forces=forces, per_faction={"emperor": {"reserves": 10}})
    pos = apply(pos, {"type": "phase_advanced", "phase": "shipment_movement"})
    pos = apply(
        pos,
        {
            "type": "forces_placed",
            "faction": "emperor",
            "territory": "carthag",
            "sector": 10,
            "normal": 1,
        },
    )
    three = mv("emperor", "the_great_flat", 14, "cielago_north", 0, 2)  # 3 territories
    assert is_legal(pos, three) is flies


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Fremen range: AH IX.C.2.a.iii (WBC adds nothing), LoLV 2.04.06.
    [("ah1979", "AH IX.C.2.a.iii"), ("wbc2018", "AH IX.C.2.a.iii"), ("lolv-2.8.4", "2.04.06")],
)
def test_2_04_06_fremen_move_two_territories(ruleset: str, rule: str) -> None:
    """LoLV 2.04.06 / AH IX.C.2.a.iii: without ornithopters the Fremen move two territories."""
    pos = table(ruleset, forces=[at("fremen", "the_great_flat", 3, sector=14)])
    assert is_legal(pos, mv("fremen", "the_great_flat", 14, "bight_of_the_cliff", 14))
    err = refused(pos, mv("fremen", "the_great_flat", 14, "cielago_north", 0))
    assert err.rule == rule


def test_2_07_12_ixian_cyborgs_move_two_suboids_only_with_them() -> None:
    """LoLV only (the Ixians are an expansion faction). LoLV 2.07.12, 2.07.16: Cyborgs move two territories, Suboids too when a Cyborg goes
    with them; Suboids alone move one."""
    pos = table("lolv-2.8.4", factions=LOLV6, forces=[at("ixians", "the_great_flat", 2, 1, sector=14)])
    assert is_legal(pos, mv("ixians", "the_great_flat", 14, "bight_of_the_cliff", 14, 2, special=1))
    assert not is_legal(pos, mv("ixians", "the_great_flat", 14, "bight_of_the_cliff", 14, 2))


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Never through a sector in storm: AH IX.C.2.c (WBC VI.9-10 apply it), LoLV 1.06.04.06.
    [("ah1979", "AH IX.C.2.c"), ("wbc2018", "AH IX.C.2.c"), ("lolv-2.8.4", "1.06.04.06")],
)
def test_1_06_04_06_path_may_not_pass_through_the_storm(ruleset: str, rule: str) -> None:
    """LoLV 1.06.04.06-07 / AH IX.C.2.c: a group may not pass through a sector in storm,
    even inside one territory (WBC VI.10: the storm splits it)."""
    pos = table(ruleset, storm=14, forces=[at("emperor", "wind_pass", 2, sector=13)])
    err = refused(pos, mv("emperor", "wind_pass", 13, "wind_pass", 15))
    assert err.rule == rule and "storm" in err.message
    calm = table(ruleset, storm=0, forces=[at("emperor", "wind_pass", 2, sector=13)])
    assert is_legal(calm, mv("emperor", "wind_pass", 13, "wind_pass", 15))


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_05_polar_sink_is_never_in_storm(ruleset: str) -> None:
    """LoLV 1.06.05 / AH IX.C.2.e: the Polar Sink is never in storm."""
    for storm in range(18):
        pos = table(ruleset, storm=storm, forces=[at("emperor", "polar_sink", 2)])
        dests = [
            (t, s)
            for t in sorted(TERRITORIES["polar_sink"].adjacent)
            for s in TERRITORIES[t].sectors
            if s != storm
        ]
        assert any(is_legal(pos, mv("emperor", "polar_sink", None, t, s)) for t, s in dests)


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018", "lolv-2.8.4"])
def test_1_06_04_09_no_passing_through_a_stronghold_held_by_two(ruleset: str) -> None:
    """LoLV 1.06.04.09 / AH IX.C.2.f: a stronghold where two other factions stand is closed
    to a third faction's path, but open to either of the two."""
    forces = [at("harkonnen", "carthag", 2), at("emperor", "carthag", 2)]
    pos = table(ruleset, storm=0, forces=forces)
    assert ("carthag", 10) in blocked_pieces(pos, "fremen")
    assert ("carthag", 10) not in blocked_pieces(pos, "harkonnen")


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # Passing through an ally's territory: refused by WBC IX.2; the AH text forbids only
    # entering it to stay (AH XII.E.5, read so); LoLV 1.06.04.02 lets forces move through
    # any territory (1.06.06 acts only where the action ends).
    [("ah1979", None), ("wbc2018", "WBC IX.2"), ("lolv-2.8.4", None)],
)
def test_wbc_ix_2_no_passing_through_an_allys_territory(ruleset: str, rule: str | None) -> None:
    """WBC IX.2: a player may not even pass through a place where his ally stands; the AH
    rules forbid only ending there (AH XII.E.5), the LoLV neither. The Old Gap is the
    Fremen's only two-step way from the Basin to Broken Land."""
    forces = [at("fremen", "basin", 2, sector=8), at("harkonnen", "old_gap", 2)]
    pos = table(ruleset, storm=0, forces=forces, alliances=[["fremen", "harkonnen"]])
    through = mv("fremen", "basin", 8, "broken_land", 10)
    if rule is None:
        assert ("fremen", "broken_land", 10) in apply(pos, through).forces
    else:
        assert refused(pos, through).rule == rule


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # One movement per turn: AH IX.C.2.b (WBC adds nothing), LoLV 1.06.04.01.
    [("ah1979", "AH IX.C.2.b"), ("wbc2018", "AH IX.C.2.b"), ("lolv-2.8.4", "1.06.04.01")],
)
def test_1_06_04_01_one_force_movement_per_turn(ruleset: str, rule: str) -> None:
    """LoLV 1.06.04.01 / AH IX.C.2.b: one movement per turn; a group recorded in two events
    (same origin and destination) is still one movement."""
    forces = [at("emperor", "the_great_flat", 4, sector=14), at("emperor", "meridian", 2, sector=1)]
    pos = table(ruleset, forces=forces)
    pos = apply(pos, mv("emperor", "the_great_flat", 14, "funeral_plain", 14, 2))
    pos = apply(pos, mv("emperor", "the_great_flat", 14, "funeral_plain", 14, 2))
    assert pos.forces[("emperor", "funeral_plain", 14)] == (4, 0, 0)
    err = refused(pos, mv("emperor", "meridian", 1, "cielago_west", 0))
    assert err.rule == rule and "force movement this turn" in err.message
    # The next movement phase allows a new movement.
    nxt = apply(
        apply(pos, {"type": "phase_advanced", "phase": "battle"}),
        {"type": "phase_advanced", "phase": "mentat_pause"},
    )
    assert nxt.moves == {}


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # A group gathered from several sectors: refused by AH questions B.1 (WBC adds nothing);
    # allowed by LoLV 1.06.04 unless the storm separates them (then refused, 1.06.04).
    [("ah1979", "AH questions B.1"), ("wbc2018", "AH questions B.1"), ("lolv-2.8.4", None)],
)
def test_1_06_04_group_from_several_sectors_lolv_but_not_ah(ruleset: str, rule: str | None) -> None:
    """LoLV 1.06.04: one group may gather from several sectors of its territory unless the
    storm separates them; AH questions B.1: groups in different sectors move separately."""
    forces = [at("emperor", "wind_pass", 1, sector=13), at("emperor", "wind_pass", 1, sector=15)]
    first = mv("emperor", "wind_pass", 13, "the_great_flat", 14)
    second = mv("emperor", "wind_pass", 15, "the_great_flat", 14)
    pos = apply(table(ruleset, storm=0, forces=forces), first)
    if rule is None:
        assert apply(pos, second).forces[("emperor", "the_great_flat", 14)] == (2, 0, 0)
    else:
        assert refused(pos, second).rule == rule
    split = apply(
        table(ruleset, storm=14, forces=forces), mv("emperor", "wind_pass", 13, "plastic_basin", 13)
    )
    assert refused(split, mv("emperor", "wind_pass", 15, "plastic_basin", 13)).rule == (rule or "1.06.04")


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # The movement round: AH IX.C.2 (WBC IX.1 orders it), LoLV 1.06.04.
    [("ah1979", "AH IX.C.2"), ("wbc2018", "AH IX.C.2"), ("lolv-2.8.4", "1.06.04")],
)
def test_1_06_04_moves_only_in_the_shipment_and_movement_phase(ruleset: str, rule: str) -> None:
    """LoLV 1.06.04 / AH IX.C.2: the movement action belongs to the shipment and movement phase."""
    pos = table(ruleset, phase="battle", forces=[at("emperor", "the_great_flat", 2, sector=14)])
    with pytest.raises(WrongPhase) as info:
        apply(pos, mv("emperor", "the_great_flat", 14, "funeral_plain", 14))
    assert info.value.rule == rule


@pytest.mark.parametrize(
    ("ruleset", "rider", "storm"),
    # Only the Fremen ride (AH VII.A.2.b, WBC VII.8, LoLV 2.04.08), never into the storm
    # (AH VII.A.2.b, WBC VII.5, LoLV 2.04.08).
    [
        ("ah1979", "AH VII.A.2.b", "AH VII.A.2.b"),
        ("wbc2018", "WBC VII.8", "WBC VII.5"),
        ("lolv-2.8.4", "2.04.08", "2.04.08"),
    ],
)
def test_ah_vii_a_2_b_fremen_ride_worms_anywhere_in_the_spice_blow(
    ruleset: str, rider: str, storm: str
) -> None:
    """AH VII.A.2.b / LoLV 2.04.08 / WBC VII.5-8: the Fremen ride a worm to any territory, not
    into or out of the storm; their allies never ride."""
    forces = [at("fremen", "the_great_flat", 3, sector=14), at("emperor", "funeral_plain", 1, sector=14)]
    pos = table(ruleset, phase="spice_blow", storm=0, forces=forces)
    ride = mv("fremen", "the_great_flat", 14, "carthag", 10, 3, via="worm")
    assert apply(pos, ride).forces[("fremen", "carthag", 10)] == (3, 0, 0)
    assert refused(pos, mv("emperor", "funeral_plain", 14, "carthag", 10, via="worm")).rule == rider
    assert refused(pos, mv("fremen", "the_great_flat", 14, "meridian", 0, via="worm")).rule == storm
    with pytest.raises(WrongPhase):
        apply(table(ruleset, storm=0, forces=forces), ride)


@pytest.mark.parametrize(
    ("ruleset", "rule", "storm"),
    # Cross-shipment: AH IX.C.1.g.ii (WBC adds nothing), LoLV 2.06.05.01; never out of the
    # storm: AH IX.C.1.c.ii, WBC IX.17, LoLV 1.06.02.04.
    [
        ("ah1979", "AH IX.C.1.g.ii", "AH IX.C.1.c.ii"),
        ("wbc2018", "AH IX.C.1.g.ii", "WBC IX.17"),
        ("lolv-2.8.4", "2.06.05.01", "1.06.02.04"),
    ],
)
def test_ah_ix_c_1_g_ii_guild_and_allies_cross_ship(ruleset: str, rule: str, storm: str) -> None:
    """AH IX.C.1.g.ii / LoLV 2.06.05.01, 2.06.10: the Guild (and its ally: AH Guild shield,
    LoLV 2.06.10) ships a group from one territory to any other, once per turn; no one else
    does; WBC IX.17: not out of storm."""
    forces = [at("guild", "the_great_flat", 3, sector=14), at("emperor", "funeral_plain", 2, sector=14)]
    pos = table(ruleset, storm=0, forces=forces)
    ship = mv("guild", "the_great_flat", 14, "carthag", 10, 2, via="cross_ship")
    pos2 = apply(pos, ship)
    assert refused(pos2, mv("guild", "the_great_flat", 14, "arrakeen", 9, via="cross_ship")).rule == rule
    # A cross-shipment is a shipment: the movement is still to come.
    assert is_legal(pos2, mv("guild", "the_great_flat", 14, "funeral_plain", 14))
    emperor = mv("emperor", "funeral_plain", 14, "carthag", 10, via="cross_ship")
    assert refused(pos, emperor).rule == rule
    allied = table(ruleset, storm=0, forces=forces, alliances=[["emperor", "guild"]])
    assert is_legal(allied, emperor)
    stormy = table(ruleset, storm=14, forces=forces)
    assert refused(stormy, ship).rule == storm


@pytest.mark.parametrize(
    ("ruleset", "hajr"),
    # The Hajr: WBC Player Aid (Hajr) 1-2, LoLV 3.01.09; the AH text describes no card (its
    # Player Aid Pad, AH VIII.J, is not part of it), so the AH ruleset has no movement card.
    [("ah1979", False), ("wbc2018", True), ("lolv-2.8.4", True)],
)
def test_wbc_hajr_gives_a_second_movement(ruleset: str, hajr: bool) -> None:
    """WBC card aid (Hajr) 1-2 / LoLV 3.01.09: the Hajr grants another movement action."""
    forces = [at("emperor", "the_great_flat", 4, sector=14), at("emperor", "meridian", 2, sector=1)]
    pos = apply(
        table(ruleset, forces=forces, per_faction={"emperor": {"cards": 1}}),
        mv("emperor", "the_great_flat", 14, "funeral_plain", 14, 4),
    )
    second = mv("emperor", "meridian", 1, "cielago_west", 0, card="hajr")
    if not hajr:
        assert "not a movement card" in refused(pos, second).message
        return
    assert apply(pos, second).forces[("emperor", "cielago_west", 0)] == (1, 0, 0)
    none_held = table(ruleset, forces=forces, per_faction={"emperor": {"cards": 0}})
    assert "holds no treachery card" in refused(none_held, second).message


def test_3_02_06_ornithopter_card_three_territories() -> None:
    """LoLV 3.02.06.01: the Ornithopter card moves one group up to 3 territories. LoLV only:
    the card comes with the CHOAM & Richese expansion (3.02)."""
    pos = table("lolv-2.8.4", forces=[at("emperor", "the_great_flat", 2, sector=14)])
    three = mv("emperor", "the_great_flat", 14, "cielago_north", 0, 2)
    assert not is_legal(pos, three)
    assert is_legal(pos, {**three, "card": "ornithopter"})


@pytest.mark.parametrize(
    ("ruleset", "flies"),
    # LoLV 2.02.12: advisors never use ornithopters; WBC XV.19: coexisting BG tokens may;
    # AH XV.A / XV.B.2 keep coexisting tokens from giving ornithopter access only (read so).
    [("ah1979", True), ("wbc2018", True), ("lolv-2.8.4", False)],
)
def test_2_02_12_advisors_cannot_use_ornithopters(ruleset: str, flies: bool) -> None:
    """LoLV 2.02.12: advisors never use ornithopters; WBC XV.19: coexisting BG tokens may
    when the BG has ornithopters."""
    if ruleset == "lolv-2.8.4":
        forces = [at("bene_gesserit", "arrakeen", 2), at("bene_gesserit", "the_great_flat", 0, advisors=2, sector=14)]
        three = mv("bene_gesserit", "the_great_flat", 14, "cielago_north", 0, 0, advisors=2)
        assert is_legal(table(ruleset, forces=forces), three) is flies
        return
    # AH and WBC tokens have no advisor side: they coexist by declaration (AH XV.A, WBC XV.5).
    forces = [
        at("bene_gesserit", "arrakeen", 2),
        at("bene_gesserit", "the_great_flat", 2, sector=14),
        at("emperor", "the_great_flat", 1, sector=14),
    ]
    three = mv("bene_gesserit", "the_great_flat", 14, "cielago_north", 0, 2)
    assert is_legal(table(ruleset, forces=forces, coexisting=["the_great_flat"]), three) is flies


# --- property: what the engine accepts is within range and avoids the storm ----------------

_RAW = json.loads((Path(__file__).resolve().parents[2] / "dune/engine/data/board.json").read_text())


def _raw_edges() -> dict[str, list[str]]:
    edges: dict[str, list[str]] = {}
    for a, b in _RAW["piece_adjacency"]:
        edges.setdefault(a, []).append(b)
        edges.setdefault(b, []).append(a)
    return edges


_EDGES = _raw_edges()


@functools.cache
def _steps_from(src: str, storm: int, sheltered: frozenset[str]) -> dict[str, int]:
    """Territories entered from `src` to every piece it reaches (the search of
    `_territory_steps`, made once for each start, storm and shelter: the property asks it of
    every piece for every example). Read only: the answer is shared."""

    def stormy(piece: str) -> bool:
        t, _, s = piece.partition("@")
        return bool(s) and int(s) == storm and t not in sheltered

    best = {src: 0}
    todo = deque([src])
    while todo:
        here = todo.popleft()
        for there in _EDGES.get(here, []):
            if stormy(there):
                continue
            cost = best[here] + (there.partition("@")[0] != here.partition("@")[0])
            if cost < best.get(there, 99):
                best[there] = cost
                todo.append(there)
    return best


def _territory_steps(src: str, dst: str, storm: int, sheltered: frozenset[str]) -> int:
    """An independent count: territories entered, over the raw piece adjacency, never
    stepping on a piece in storm (sheltered territories and the Polar Sink never are)."""
    return _steps_from(src, storm, sheltered).get(dst, 99)


def _name(t: str, s: int | None) -> str:
    return t if s is None else f"{t}@{s}"


PIECES = [
    (t, s) for t, v in sorted(TERRITORIES.items()) if v.expansion is None for s in (v.sectors or (None,))
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(("wbc2018", "lolv-2.8.4", "ah1979")),
    st.sampled_from(("emperor", "fremen", "guild")),
    st.integers(0, 17),
    st.sampled_from(PIECES),
    st.data(),
    st.booleans(),
)
def test_any_accepted_move_is_within_range_and_avoids_storm(
    ruleset: str,
    faction: str,
    storm: int,
    src: tuple[str, int | None],
    data: st.DataObject,
    city: bool,
) -> None:
    """LoLV 1.06.04.03-07 / AH IX.C.2.a-c: whatever move the engine accepts lies within the
    faction's range (1; Fremen 2; 3 with ornithopters) by a path that never touches the storm."""
    # Mostly nearby destinations (so that many moves are accepted), sometimes any piece.
    near = [p for p in PIECES if _territory_steps(_name(*src), _name(*p), -1, frozenset()) <= 4]
    dst = data.draw(st.sampled_from(near if near and data.draw(st.booleans()) else PIECES))
    forces = [at(faction, src[0], 2, sector=src[1])]
    if city and src[0] != "carthag":
        forces.append(at(faction, "carthag", 1))
    try:
        pos = table(ruleset, storm=storm, forces=forces)
    except RuleViolation:
        return
    event = mv(faction, src[0], src[1], dst[0], dst[1], 2)
    if not is_legal(pos, event):
        return
    flies = city or src[0] in ("arrakeen", "carthag")
    reach = 3 if flies else (2 if faction == "fremen" else 1)
    # The Shield Wall shelters from destruction only: its territories block like any other
    # (AH questions C.3, LoLV 1.01.04).
    steps = _territory_steps(_name(*src), _name(*dst), storm, frozenset())
    assert steps <= reach, (src, dst, storm, steps)


def test_2_11_11_ecaz_and_ally_co_occupy_under_the_occupancy_limit() -> None:
    """LoLV only (the Ecaz is an expansion faction). LoLV 2.11.11 (modifying 1.06.04.09): the Ecaz and its ally may stand together in a
    stronghold, so the ally does not count against the Ecaz's entry; anyone else is still the
    third faction."""
    factions = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ecaz")
    forces = [
        at("atreides", "arrakeen", 2),
        at("harkonnen", "arrakeen", 2),
        at("ecaz", "imperial_basin", 2, sector=9),
        at("guild", "imperial_basin", 2, sector=9),
    ]
    pos = table("lolv-2.8.4", storm=0, factions=factions, forces=forces, alliances=[["atreides", "ecaz"]])
    assert apply(pos, mv("ecaz", "imperial_basin", 9, "arrakeen", 9)).forces[("ecaz", "arrakeen", 9)] == (
        1,
        0,
        0,
    )
    assert refused(pos, mv("guild", "imperial_basin", 9, "arrakeen", 9)).rule == "1.06.04.09"


@pytest.mark.parametrize(
    ("ruleset", "flips"),
    # LoLV 2.02.14, 2.02.20 flip BG tokens on arrival; the AH and WBC texts have no such flip
    # (coexistence is declared, AH XV.B, WBC XV.6-7).
    [("ah1979", False), ("wbc2018", False), ("lolv-2.8.4", True)],
)
def test_2_02_14_and_2_02_20_bg_tokens_take_the_type_of_their_destination(ruleset: str, flips: bool) -> None:
    """LoLV 2.02.14 ENLISTMENT: advisors moved into an unoccupied territory become fighters;
    2.02.20 ADAPTIVE FORCE: BG tokens moving where the BG already has the other type flip to
    match it. The AH and WBC rules have no such flip."""
    forces = [
        at("bene_gesserit", "the_great_flat", 0, advisors=3, sector=14),
        at("bene_gesserit", "funeral_plain", 0, advisors=1, sector=14),
        at("emperor", "funeral_plain", 1, sector=14),
    ]
    # AH and WBC tokens have no advisor side from the sixth edition (AH XV.A, WBC XV.5): the
    # fifth edition's positions held them.
    pos = table(ruleset, forces=forces, **({} if flips else {"edition": LIMITED}))
    empty = apply(pos, mv("bene_gesserit", "the_great_flat", 14, "plastic_basin", 13, 0, advisors=2))
    assert empty.forces[("bene_gesserit", "plastic_basin", 13)] == ((2, 0, 0) if flips else (0, 0, 2))
    joined = apply(pos, mv("bene_gesserit", "the_great_flat", 14, "funeral_plain", 14, 0, advisors=2))
    assert joined.forces[("bene_gesserit", "funeral_plain", 14)] == (0, 0, 3)
