"""What the texts refuse around the expansion pieces, refused from the third edition of the
rulings (the second took the judge's word for each; `editions`): a No-Field token is one force
for the occupancy limit, so it never lands in a stronghold held by two other factions (LoLV
2.10.11 with 1.06.02.05); Terror tokens are placed or moved at the Mentat Pause only (2.12.05);
Enemy of My Enemy is offered to a faction other than the Ecaz about to trigger a Terror token
(2.12.10); Ambassadors are placed after the revival phase (2.11.05), and there is no Moritani
Ambassador (2.11.10); the Ecaz Ambassador alliance comes from the Ecaz Ambassador on the board
(2.11.10.11); at the Mentat Pause Duke Vidal is set aside, never handed on (2.12.13). LoLV only:
these factions are in no other text."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.editions import CORRECTED, REFINED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import at, position

RICHESE = ("atreides", "richese", "emperor", "fremen", "harkonnen", "guild")
MORITANI = ("atreides", "moritani", "emperor", "fremen", "harkonnen", "ecaz")
ECAZ = ("atreides", "ecaz", "emperor", "fremen", "harkonnen", "moritani")


def _pos(factions: tuple[str, ...], edition: int = REFINED, **kw: Any) -> Position:
    kw.setdefault("storm", 0)
    return position(ruleset="lolv-2.8.4", factions=factions, edition=edition, **kw)


def _refused(pos: Position, event: dict[str, Any], rule: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        apply(pos, event)
    assert info.value.rule == rule
    return info.value


NO_FIELD = {"type": "no_field_placed", "territory": "carthag", "sector": 10}
HELD = [at("harkonnen", "carthag", 2), at("emperor", "carthag", 2)]


def test_2_10_11_no_field_token_never_lands_beside_two_other_factions() -> None:
    full = _pos(RICHESE, phase="shipment_movement", forces=HELD)
    error = _refused(full, NO_FIELD, "2.10.11")
    assert "Harkonnen" in error.message and "Emperor" in error.message
    # One other faction there leaves room for the token; the second edition took it anyway.
    half = _pos(RICHESE, phase="shipment_movement", forces=HELD[:1])
    assert apply(half, NO_FIELD).no_field == ("carthag", 10)
    assert apply(_pos(RICHESE, CORRECTED, phase="shipment_movement", forces=HELD), NO_FIELD).no_field


TERROR = {"type": "terror_placed", "territory": "carthag"}


@pytest.mark.parametrize("phase", ["storm", "shipment_movement", "battle", "spice_collection"])
def test_2_12_05_terror_tokens_are_placed_at_the_mentat_pause_only(phase: str) -> None:
    _refused(_pos(MORITANI, phase=phase), TERROR, "2.12.05")
    moved = {**TERROR, "territory": "arrakeen", "from_territory": "carthag"}
    _refused(_pos(MORITANI, phase=phase, terror=["carthag"]), moved, "2.12.05")
    assert apply(_pos(MORITANI, phase="mentat_pause"), TERROR).terror == {"carthag"}
    assert apply(_pos(MORITANI, CORRECTED, phase=phase), TERROR).terror == {"carthag"}


def _enemy(factions: list[str]) -> dict[str, Any]:
    return {"type": "alliance_formed", "factions": factions, "how": "moritani"}


def test_2_12_10_enemy_of_my_enemy_needs_a_terror_token_and_no_ecaz() -> None:
    armed = _pos(MORITANI, phase="shipment_movement", terror=["carthag"])
    assert apply(armed, _enemy(["moritani", "atreides"])).alliances == (("atreides", "moritani"),)
    _refused(armed, _enemy(["moritani", "ecaz"]), "2.12.10")
    unarmed = _pos(MORITANI, phase="shipment_movement")
    error = _refused(unarmed, _enemy(["moritani", "atreides"]), "2.12.10")
    assert "Terror token" in error.message
    old = _pos(MORITANI, CORRECTED, phase="shipment_movement")
    assert apply(old, _enemy(["moritani", "ecaz"])).alliances == (("ecaz", "moritani"),)


def _ambassador(symbol: str, territory: str = "tueks_sietch") -> dict[str, Any]:
    return {"type": "ambassador_placed", "territory": territory, "ambassador": symbol}


@pytest.mark.parametrize("phase", ["storm", "bidding", "revival", "battle", "mentat_pause"])
def test_2_11_05_ambassadors_are_placed_after_the_revival_phase(phase: str) -> None:
    _refused(_pos(ECAZ, phase=phase), _ambassador("fremen"), "2.11.05")
    assert apply(_pos(ECAZ, CORRECTED, phase=phase), _ambassador("fremen")).ambassadors
    assert apply(_pos(ECAZ, phase="shipment_movement"), _ambassador("fremen")).ambassadors == {
        "tueks_sietch": "fremen"
    }


def test_2_11_10_there_is_no_moritani_ambassador() -> None:
    error = _refused(_pos(ECAZ, phase="shipment_movement"), _ambassador("moritani"), "2.11.10")
    assert error.field == "ambassador" and "Moritani" in error.message
    assert apply(_pos(ECAZ, CORRECTED, phase="shipment_movement"), _ambassador("moritani")).ambassadors


def test_2_11_10_11_ecaz_ambassador_alliance_needs_the_ecaz_ambassador_on_the_board() -> None:
    event = {"type": "alliance_formed", "factions": ["ecaz", "atreides"], "how": "ecaz_ambassador"}
    _refused(_pos(ECAZ, phase="shipment_movement"), event, "2.11.10.11")
    other = _pos(ECAZ, phase="shipment_movement", ambassadors={"arrakeen": "fremen"})
    _refused(other, event, "2.11.10.11")
    armed = _pos(ECAZ, phase="shipment_movement", ambassadors={"arrakeen": "ecaz"})
    assert apply(armed, event).alliances == (("atreides", "ecaz"),)
    assert apply(_pos(ECAZ, CORRECTED, phase="shipment_movement"), event).alliances


def test_2_12_13_duke_vidal_is_set_aside_at_the_mentat_pause() -> None:
    vidal = {"type": "duke_vidal", "holder": "moritani"}
    error = _refused(_pos(ECAZ, phase="mentat_pause"), vidal, "2.12.13")
    assert error.field == "holder"
    assert apply(_pos(ECAZ, phase="mentat_pause", vidal="moritani"), {"type": "duke_vidal"}).vidal is None
    assert apply(_pos(ECAZ, phase="battle"), vidal).vidal == "moritani"
    assert apply(_pos(ECAZ, CORRECTED, phase="mentat_pause"), vidal).vidal == "moritani"
