"""Expansion abilities the engine used to refuse or to take on the judge's word (LoLV): a Face
Dancer and Trip to Gamont send forces to reserves (2.08.05.03, 2.09.07.06; not a shipment, so
not 1.06.03); a ghola comes from the tanks while the Tleilaxu have fewer than five active
leaders (2.08.16); the Moritani take Duke Vidal without the Ecaz at the table, after two
stronghold battles (2.12.12)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import load_position
from dune.engine.editions import ACCOUNTED, LIMITED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position
from tests.engine.helpers import LOLV, at, snap

EXPANSION = ("atreides", "harkonnen", "tleilaxu", "choam", "moritani", "emperor")


def _pos(phase: str, forces: list[dict[str, Any]] | None = None, edition: int = LIMITED, **per: Any) -> Position:
    forces = forces or [at("atreides", "arrakeen", 5)]
    per_faction: dict[str, Any] = {f: {"leader_status": {}} for f in EXPANSION}
    per_faction["atreides"].update({"reserves": 10, "tanks": 5})
    for f, extra in per.items():
        per_faction[f].update(extra)
    return load_position(snap(LOLV, factions=EXPANSION, forces=forces, phase=phase, edition=edition, per_faction=per_faction))


def _home(cause: str, normal: int = 2, faction: str = "atreides") -> dict[str, Any]:
    return {
        "type": "forces_removed",
        "faction": faction,
        "territory": "arrakeen",
        "sector": 9,
        "normal": normal,
        "to": "reserves",
        "cause": cause,
    }


def test_2_08_05_03_a_face_dancer_sends_the_forces_to_reserves() -> None:
    """LoLV 2.08.05.03: in the battle phase; without a cause it stays the Guild's (1.06.03)."""
    after = apply(_pos("battle"), _home("face_dancer"))
    assert after.states["atreides"].reserves == (12, 0)
    with pytest.raises(IllegalAction) as err:
        apply(_pos("battle"), {**_home("face_dancer"), "cause": None})
    assert err.value.rule == "1.06.03"
    with pytest.raises(IllegalAction) as err:
        apply(_pos("spice_collection"), _home("face_dancer"))
    assert err.value.rule == "2.08.05.03"


def test_2_09_07_06_trip_to_gamont_sends_one_force_home_at_the_mentat_pause() -> None:
    """LoLV 2.09.07.06: any 1 force of another player, in the Mentat Pause."""
    after = apply(_pos("mentat_pause"), _home("trip_to_gamont", 1))
    assert after.forces[("atreides", "arrakeen", 9)] == (4, 0, 0)
    with pytest.raises(IllegalAction) as err:
        apply(_pos("mentat_pause"), _home("trip_to_gamont", 2))
    assert err.value.rule == "2.09.07.06" and err.value.field == "normal"
    with pytest.raises(IllegalAction):
        apply(_pos("battle"), _home("trip_to_gamont", 1))


def _ghola(leader: str = "duncan_idaho") -> dict[str, Any]:
    return {"type": "leader_changed", "faction": "atreides", "leader": leader, "status": "held", "captor": "tleilaxu"}


def test_2_08_16_a_ghola_comes_from_the_tanks() -> None:
    """LoLV 2.08.16: dead leaders of other factions, not a living one."""
    dead_one = {"tleilaxu": {"leader_status": {"blin": "tanks_face_up"}}}
    with pytest.raises(IllegalAction) as err:
        apply(_pos("revival", **dead_one), _ghola())
    assert err.value.rule == "2.08.16"
    after = apply(_pos("revival", atreides={"leader_status": {"duncan_idaho": "tanks_face_up"}}, **dead_one), _ghola())
    assert after.states["atreides"].leaders[3] == ("held", "tleilaxu")


def test_2_08_16_no_ghola_with_five_active_leaders() -> None:
    """LoLV 2.08.16: fewer than five active leaders; the fourth edition took the judge's word."""
    dead = {"atreides": {"leader_status": {"duncan_idaho": "tanks_face_up"}}}
    with pytest.raises(IllegalAction) as err:
        apply(_pos("revival", **dead), _ghola())
    assert err.value.field == "captor"
    apply(_pos("revival", edition=ACCOUNTED, **dead), _ghola())


def test_2_12_12_the_moritani_take_duke_vidal_after_two_stronghold_battles() -> None:
    """LoLV 2.12.12: without the Ecaz at the table too; battles with the Ecaz do not count."""
    two = [
        at("moritani", "arrakeen", 3),
        at("atreides", "arrakeen", 5),
        at("moritani", "carthag", 3),
        at("harkonnen", "carthag", 5),
    ]
    per = {"moritani": {"reserves": 14, "tanks": 0}, "harkonnen": {"reserves": 10, "tanks": 5}}
    after = apply(_pos("shipment_movement", two, **per), {"type": "duke_vidal", "holder": "moritani"})
    assert after.vidal == "moritani"
    one = two[:2]
    with pytest.raises(IllegalAction) as err:
        apply(_pos("shipment_movement", one, moritani={"reserves": 17, "tanks": 0}), {"type": "duke_vidal", "holder": "moritani"})
    assert err.value.rule == "2.12.12"
    with pytest.raises(IllegalAction):
        apply(_pos("spice_collection", two, **per), {"type": "duke_vidal", "holder": "moritani"})


def test_2_08_16_no_ghola_of_the_tleilaxus_own_leader() -> None:
    """LoLV 2.08.16: gholas are dead leaders of other factions; the refusal cites it, not a
    glossary entry."""
    pos = _pos("revival", tleilaxu={"leader_status": {"blin": "tanks_face_up"}})
    own = {"type": "leader_changed", "faction": "tleilaxu", "leader": "blin", "status": "held", "captor": "tleilaxu"}
    with pytest.raises(IllegalAction) as err:
        apply(pos, own)
    assert err.value.rule == "2.08.16" and err.value.field == "captor"


@pytest.mark.parametrize(("ruleset", "rule"), [("ah1979", "AH X.B.2.a.ii"), ("wbc2018", "WBC X.16"), (LOLV, "2.05.10")])
def test_2_05_10_the_harkonnen_never_capture_their_own_leader(ruleset: str, rule: str) -> None:
    pos = load_position(snap(ruleset, phase="battle"))
    own = {"type": "leader_changed", "faction": "harkonnen", "leader": "umman_kudu", "status": "captured", "captor": "harkonnen"}
    with pytest.raises(IllegalAction) as err:
        apply(pos, own)
    assert err.value.rule == rule and err.value.field == "captor"


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018"])
@pytest.mark.parametrize(("cause", "phase"), [("face_dancer", "battle"), ("trip_to_gamont", "mentat_pause")])
def test_ah_ix_c_1_f_no_face_dancer_nor_trip_to_gamont_under_ah(ruleset: str, cause: str, phase: str) -> None:
    """The AH and WBC tables have neither ability: only the Guild sends forces home, and the
    refusal cites the table's own rule (AH IX.C.1.f), never a LoLV number."""
    per = {"atreides": {"reserves": 10, "tanks": 5}}
    pos = load_position(snap(ruleset, forces=[at("atreides", "arrakeen", 5)], phase=phase, per_faction=per))
    with pytest.raises(IllegalAction) as err:
        apply(pos, {**_home(cause, 1), "cause": cause})
    assert err.value.rule == "AH IX.C.1.f" and err.value.field == "cause"
