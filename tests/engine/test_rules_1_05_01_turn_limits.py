"""The limits a turn has, checked from the fifth edition (`editions.limited`), each refused with
the rule of the table's own ruleset; games of the fourth edition keep the judge's word.

Revival (LoLV 1.05.01, AH IX.B.2), Fedaykin (2.04.20, AH IX.B.4) and Sardaukar (2.03.11, AH
IX.B.5) and what raises the limit (2.08.08, 2.08.11, 2.03.07, the Ghola card 3.01.20, AH
questions A.6); the storm's longest move (3.01.23, AH VI.C, WBC VI.3); captures only after a
battle (2.05.10, AH X.B.2.a.ii) and the captives going home (2.05.11); the five leaders of a
sheet (AH II.B.1.b, LoLV 0.09); an Ambassador sheltered by the Shield Wall (2.11.09).
"""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import ACCOUNTED, LIMITED
from dune.engine.errors import IllegalAction, InvalidPosition
from dune.engine.game_log import apply
from dune.engine.position import Position
from tests.engine.helpers import ALL_RULESETS, LOLV, at, snap

ATREIDES_DEAD = ("thufir_hawat", "lady_jessica", "gurney_halleck", "duncan_idaho", "dr_wellington_yueh")
HARKONNEN_ALL = ("feyd_rautha", "beast_rabban", "piter_de_vries", "captain_iakin_nefud", "umman_kudu")


def _revival(ruleset: str, edition: int = LIMITED, **kw: Any) -> Position:
    """The revival phase: ten of the Atreides', the Fremen's (three Fedaykin) and the Emperor's
    (five Sardaukar) forces in the tanks."""
    forces = [at("atreides", "arrakeen", 10), at("fremen", "sietch_tabr", 10), at("emperor", "the_great_flat", 10)]
    per = {
        "atreides": {"tanks": 10, "reserves": 0},
        "fremen": {"tanks": 10, "tanks_special": 3, "reserves": 0},
        "emperor": {"tanks": 10, "tanks_special": 5, "reserves": 0},
    }
    for f, extra in kw.pop("per_faction", {}).items():
        per.setdefault(f, {}).update(extra)
    return load_position(snap(ruleset, forces=forces, phase="revival", edition=edition, per_faction=per, **kw))


def _revive(pos: Position, faction: str, normal: int = 0, special: int = 0, **kw: Any) -> Position:
    return apply(pos, {"type": "forces_revived", "faction": faction, "normal": normal, "special": special, **kw})


# --- revival ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_05_01_three_forces_a_turn(ruleset: str) -> None:
    """LoLV 1.05.01, AH IX.B.2: three forces a turn, counted over the turn's revivals."""
    pos = _revive(_revival(ruleset), "atreides", 2)
    with pytest.raises(IllegalAction) as err:
        _revive(pos, "atreides", 2)
    assert err.value.rule == pos.ruleset.cite["revival_limit"] and err.value.field == "normal"
    assert "2 already this turn" in err.value.message
    pos = _revive(pos, "atreides", 1)
    next_turn = load_position({**dump_position(pos), "turn": pos.turn + 1})
    _revive(next_turn, "atreides", 3)  # a new turn, a new count
    _revive(_revival(ruleset, edition=ACCOUNTED), "atreides", 5)  # the fourth edition took the judge's word


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_04_20_one_fedaykin_a_turn(ruleset: str) -> None:
    """LoLV 2.04.20, AH IX.B.4."""
    pos = _revival(ruleset)
    with pytest.raises(IllegalAction) as err:
        _revive(pos, "fremen", 1, 2)
    assert err.value.rule == pos.ruleset.cite["fedaykin_revival"] and err.value.field == "special"
    pos = _revive(pos, "fremen", 1, 1)
    with pytest.raises(IllegalAction):
        _revive(pos, "fremen", 0, 1)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_03_11_one_sardaukar_a_turn(ruleset: str) -> None:
    """LoLV 2.03.11, AH IX.B.5."""
    pos = _revival(ruleset)
    with pytest.raises(IllegalAction) as err:
        _revive(pos, "emperor", 0, 2)
    assert err.value.rule == pos.ruleset.cite["sardaukar_revival"]
    _revive(pos, "emperor", 2, 1)


def test_2_03_11_starred_forces_unlimited_in_the_lolv_basic_game() -> None:
    """LoLV 2.03.00, 2.04.00: Sardaukar and Fedaykin training are Advanced abilities."""
    pos = _revival(LOLV, options=[])
    normal, sardaukar = pos.states["emperor"].tanks
    after = _revive(pos, "emperor", 0, 3)
    assert after.states["emperor"].tanks == (normal, sardaukar - 3)  # three Sardaukar in one turn
    with pytest.raises(IllegalAction):  # the Advanced game's limit, the same revival (2.03.11)
        _revive(_revival(LOLV), "emperor", 0, 3)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_3_01_20_the_ghola_card_revives_five_beyond_the_limit(ruleset: str) -> None:
    """LoLV 3.01.20, AH IX.B.2 (beyond three only by a treachery card), AH questions A.6."""
    pos = _revive(_revival(ruleset), "atreides", 3)
    pos = _revive(pos, "atreides", 5, ghola=True)
    assert pos.states["atreides"].tanks == (2, 0)
    with pytest.raises(IllegalAction) as err:
        _revive(_revival(ruleset), "atreides", 6, ghola=True)
    assert err.value.rule == pos.ruleset.cite["ghola_card"]


def test_2_08_08_the_tleilaxu_revive_without_limit() -> None:
    """LoLV 2.08.08; 2.08.11: they may raise another faction's limit to five."""
    factions = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "tleilaxu")
    forces = [at("atreides", "arrakeen", 10), at("fremen", "sietch_tabr", 10), at("emperor", "the_great_flat", 10)]
    per = {
        "atreides": {"tanks": 10, "reserves": 0},
        "tleilaxu": {"tanks": 10, "reserves": 10},
        "fremen": {"tanks": 10, "tanks_special": 3, "reserves": 0},
        "emperor": {"tanks": 10, "tanks_special": 5, "reserves": 0},
    }
    pos = load_position(snap(LOLV, factions=factions, forces=forces, phase="revival", per_faction=per))
    _revive(pos, "tleilaxu", 8)
    _revive(pos, "atreides", 5, raised_by="tleilaxu")
    with pytest.raises(IllegalAction) as err:
        _revive(pos, "atreides", 6, raised_by="tleilaxu")
    assert err.value.rule == "1.05.01"


@pytest.mark.parametrize("options", [["advanced"], []])
def test_2_09_08_the_choam_revive_without_limit(options: list[str]) -> None:
    """LoLV 2.09.08: the CHOAM have no free revival but no limit on the forces they pay to
    revive, in the Basic game too (2.09.00); the others keep three (1.05.01)."""
    factions = ("atreides", "choam", "emperor", "fremen", "harkonnen", "guild")
    per = {"choam": {"tanks": 8, "reserves": 12}, "atreides": {"tanks": 5, "reserves": 15}}
    pos = load_position(snap(LOLV, factions=factions, phase="revival", per_faction=per, options=options))
    after = _revive(pos, "choam", 8)
    assert after.states["choam"].reserves == (20, 0)
    with pytest.raises(IllegalAction) as err:
        _revive(pos, "atreides", 4)
    assert err.value.rule == "1.05.01"


def test_2_03_07_the_emperor_pays_for_three_more_of_its_allys() -> None:
    """LoLV 2.03.07: only for its ally; under AH the Emperor's shield raises no limit."""
    pos = _revival(LOLV, alliances=[["atreides", "emperor"]])
    _revive(pos, "atreides", 6, raised_by="emperor")
    with pytest.raises(IllegalAction) as err:
        _revive(_revival(LOLV), "atreides", 6, raised_by="emperor")
    assert err.value.field == "raised_by"
    with pytest.raises(IllegalAction):
        _revive(_revival("ah1979", alliances=[["atreides", "emperor"]]), "atreides", 6, raised_by="emperor")


# --- the storm ---------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_01_02_the_storm_moves_at_most_ten_sectors(ruleset: str) -> None:
    """LoLV 1.01.02 with 3.01.23 (Weather Control: 1 to 10; the dials and the Fremen storm deck,
    2.04.13, less), AH VI.C, WBC VI.3."""
    pos = load_position(snap(ruleset, phase="storm"))
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "storm_moved", "sectors": 11})
    assert err.value.rule == pos.ruleset.cite["storm_most"] and err.value.field == "sectors"
    assert apply(pos, {"type": "storm_moved", "sectors": 10}).storm == 10
    old = load_position(snap(ruleset, phase="storm", edition=ACCOUNTED))
    assert apply(old, {"type": "storm_moved", "sectors": 11}).storm == 11


def test_2_11_09_the_shield_wall_shelters_an_ambassador_in_carthag() -> None:
    """LoLV 1.01.04 with 2.11.09: while the Shield Wall stands the storm spares Carthag, the
    Ecaz Ambassador there as the Harkonnen forces; the fourth edition sent it back."""
    factions = ("atreides", "bene_gesserit", "ecaz", "fremen", "harkonnen", "guild")

    def pos(edition: int) -> Position:
        data = snap(
            LOLV,
            factions=factions,
            forces=[at("harkonnen", "carthag", 10)],
            phase="storm",
            storm=8,
            edition=edition,
            ambassadors={"carthag": "atreides"},
            automatic_losses=True,
        )
        return load_position(data)

    after = apply(pos(LIMITED), {"type": "storm_moved", "sectors": 3})
    assert after.ambassadors == {"carthag": "atreides"}
    assert after.forces[("harkonnen", "carthag", 10)] == (10, 0, 0)
    assert apply(pos(ACCOUNTED), {"type": "storm_moved", "sectors": 3}).ambassadors == {}


# --- captures and captives -----------------------------------------------------------------------


def _leaders(ruleset: str, phase: str, edition: int = LIMITED, **per: Any) -> Position:
    per_faction = {f: {"leader_status": status} for f, status in per.items()}
    for f in ("atreides", "harkonnen", "emperor"):
        per_faction.setdefault(f, {"leader_status": {}})
    return load_position(snap(ruleset, phase=phase, edition=edition, per_faction=per_faction))


def _capture(leader: str = "thufir_hawat") -> dict[str, Any]:
    return {"type": "leader_changed", "faction": "atreides", "leader": leader, "status": "captured", "captor": "harkonnen"}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_10_capture_only_after_a_battle(ruleset: str) -> None:
    """LoLV 2.05.10, AH X.B.2.a.ii: not during movement, not from the tanks."""
    moving = _leaders(ruleset, "shipment_movement")
    with pytest.raises(IllegalAction) as err:
        apply(moving, _capture())
    assert err.value.rule == moving.ruleset.cite["capture_when"] and err.value.field == "status"
    in_tanks = _leaders(ruleset, "battle", atreides={"thufir_hawat": "tanks_face_up"})
    with pytest.raises(IllegalAction) as err:
        apply(in_tanks, _capture())
    assert err.value.rule == in_tanks.ruleset.cite["capture_when"]
    after = apply(_leaders(ruleset, "battle"), _capture())
    assert after.states["atreides"].leaders[0] == ("captured", "harkonnen")
    apply(_leaders(ruleset, "shipment_movement", edition=ACCOUNTED), _capture())  # the fourth edition


def test_2_05_10_no_capture_in_the_lolv_basic_game() -> None:
    """LoLV 2.05.00: capture is an Advanced ability."""
    basic = load_position(
        snap(LOLV, phase="battle", options=[], per_faction={"atreides": {"leader_status": {}}, "harkonnen": {"leader_status": {}}})
    )
    with pytest.raises(IllegalAction) as err:
        apply(basic, _capture())
    assert err.value.rule == "2.05.00"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_2_05_11_captives_go_home_when_the_last_harkonnen_leader_dies(ruleset: str) -> None:
    """LoLV 2.05.11, AH X.B.2.a.ii: in a log (at once) and in a position (refused)."""
    four_dead = {ld: "tanks_face_up" for ld in HARKONNEN_ALL[1:]}
    pos = _leaders(ruleset, "battle", harkonnen=four_dead, atreides={"thufir_hawat": "captured:harkonnen"})
    after = apply(pos, {"type": "leader_changed", "faction": "harkonnen", "leader": "feyd_rautha", "status": "tanks_face_up"})
    assert after.states["atreides"].leaders[0] == ("active", None)
    all_dead = {ld: "tanks_face_up" for ld in HARKONNEN_ALL}
    with pytest.raises(InvalidPosition) as err:
        _leaders(ruleset, "battle", harkonnen=all_dead, atreides={"thufir_hawat": "captured:harkonnen"})
    assert err.value.rule == pos.ruleset.cite["prison_break"]
    old = _leaders(ruleset, "battle", edition=ACCOUNTED, harkonnen=four_dead, atreides={"thufir_hawat": "captured:harkonnen"})
    kept = apply(old, {"type": "leader_changed", "faction": "harkonnen", "leader": "feyd_rautha", "status": "tanks_face_up"})
    assert kept.states["atreides"].leaders[0] == ("captured", "harkonnen")


# --- the sheets ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH II.B.1.b"), ("wbc2018", "AH II.B.1.b"), (LOLV, "0.09")])
def test_ah_ii_b_1_b_five_leaders_a_faction(ruleset: str, rule: str) -> None:
    """AH II.B.1.b (5 leader discs a set), LoLV 0.09 (each faction's pieces): six Atreides
    leaders is a position no table reaches, refused citing the table's own rules."""
    with pytest.raises(InvalidPosition) as err:
        load_position(snap(ruleset, per_faction={"atreides": {"leaders": 6}}))
    assert err.value.rule == rule


def test_1_05_01_the_count_is_per_turn_whatever_the_phase() -> None:
    """The limits count per turn, whatever the phase the judge records the revival in."""
    pos = load_position({**dump_position(_revival("wbc2018")), "phase": "storm"})
    with pytest.raises(IllegalAction):
        _revive(_revive(pos, "atreides", 3), "atreides", 1)


# --- the Guild's shipment ------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_ix_c_1_g_the_guild_makes_one_kind_of_shipment_a_turn(ruleset: str) -> None:
    """AH IX.C.1.g, LoLV 2.06.05: normal, cross-ship or off-planet, one of them a turn (a
    cross-planet shipment is a shipment, not a move: WBC IX.18)."""
    per = {"guild": {"reserves": 15, "tanks": 0}}
    pos = load_position(snap(ruleset, forces=[at("guild", "tueks_sietch", 5)], phase="shipment_movement", per_faction=per))
    shipped = apply(pos, {"type": "forces_placed", "faction": "guild", "territory": "the_great_flat", "sector": 14, "normal": 2})
    with pytest.raises(IllegalAction) as err:
        apply(shipped, {"type": "forces_removed", "faction": "guild", "territory": "tueks_sietch", "sector": 4, "normal": 2, "to": "reserves"})
    assert err.value.rule == pos.ruleset.cite["guild_shipment"]
    cross = {"type": "forces_moved", "faction": "guild", "from_territory": "tueks_sietch", "from_sector": 4,
             "to_territory": "carthag", "to_sector": 10, "normal": 1, "via": "cross_ship"}
    with pytest.raises(IllegalAction):
        apply(shipped, cross)
    back = apply(pos, {"type": "forces_removed", "faction": "guild", "territory": "tueks_sietch", "sector": 4, "normal": 2, "to": "reserves"})
    assert back.states["guild"].reserves == (17, 0)
    old = load_position(snap(ruleset, forces=[at("guild", "tueks_sietch", 5)], phase="shipment_movement", per_faction=per, edition=ACCOUNTED))
    old = apply(old, {"type": "forces_placed", "faction": "guild", "territory": "the_great_flat", "sector": 14, "normal": 2})
    apply(old, cross)
