"""Spice on the board, in every ruleset (the texts agree; each cites its own rule).

A Spice Blow puts the card's spice in the territory's Spice Blow sector, not when that
sector is in storm (LoLV 1.02.04, AH VII.A.1; WBC adds nothing). A storm moving over or onto
that sector destroys it (LoLV 1.01.03, AH VI.D; WBC VI.8: only sectors the storm moves into,
the LoLV's "passes over or stops" for spice says the same), and so does a worm in the
territory (LoLV 1.02.05 at once; AH VII.A.2.a / WBC VII.9 once the nexus is over). Forces
collect 2 spice each, 3 if their faction occupies Arrakeen or Carthag (LoLV 1.08.02,
AH XI.A); uncollected spice stays (1.08.03, AH XI.B). The storm's and worm's removals are
automatic in full tracking, listed for the judge, and corrected with `board_spice_set`.
"""

from __future__ import annotations

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import SEQUENCED
from dune.engine.errors import IllegalAction, WrongPhase
from dune.engine.game_log import apply
from dune.engine.losses import losses_json
from dune.engine.position import Position

from .helpers import CLASSIC, at, position

RULESETS = ["ah1979", "wbc2018", "lolv-2.8.4"]
KNOWN = {f: {"tanks": 0, "spice": 5} for f in CLASSIC}
BLOW_RULE = {"ah1979": "AH VII.A.1", "wbc2018": "AH VII.A.1", "lolv-2.8.4": "1.02.04"}
STORM_RULE = {"ah1979": "AH VI.D", "wbc2018": "WBC VI.8", "lolv-2.8.4": "1.01.03"}
WORM_RULE = {"ah1979": "AH VII.A.2.a", "wbc2018": "WBC VII.9", "lolv-2.8.4": "1.02.05"}
COLLECT_RULE = {"ah1979": "AH XI.A", "wbc2018": "AH XI.A", "lolv-2.8.4": "1.08.02"}

#: The Great Flat's Spice Blow lies in sector 14 and its card shows 10 spice.
GREAT_FLAT = "the_great_flat"


def _at(ruleset: str, phase: str, *, storm: int = 2, forces: list[dict[str, object]] | None = None,
        auto: bool = True, **kw: object) -> Position:
    return position(
        ruleset=ruleset,
        storm=storm,
        phase=phase,
        turn=3,
        forces=forces or [],
        per_faction=KNOWN,
        automatic_losses=auto,
        **kw,
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_02_04_spice_blow_lands_in_the_blow_sector(ruleset: str) -> None:
    pos = apply(_at(ruleset, "spice_blow"), {"type": "spice_blow", "territory": GREAT_FLAT})
    assert pos.spice_on_board == {GREAT_FLAT: 10}
    if ruleset == "ah1979":  # AH VII.A: one Spice Blow a turn (the double blow: test_double_spice_blow)
        return
    pos = apply(pos, {"type": "spice_blow", "territory": "sihaya_ridge", "amount": 4})
    assert pos.spice_on_board == {GREAT_FLAT: 10, "sihaya_ridge": 4}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_02_04_no_spice_when_the_blow_sector_is_in_storm(ruleset: str) -> None:
    """AH VII.A.1: "If the Spice Blow sector is in storm, no spice is placed" — the card is
    turned up all the same (the one a worm after it appears beside): from the ninth edition it
    is recorded with 0 spice; a number of spice is refused at its field. Earlier editions
    refused the card itself."""
    pos = _at(ruleset, "spice_blow", storm=14)
    blown = apply(pos, {"type": "spice_blow", "territory": GREAT_FLAT})
    assert blown.spice_on_board == {} and blown.seq == pos.seq + 1
    assert apply(pos, {"type": "spice_blow", "territory": GREAT_FLAT, "amount": 0}).spice_on_board == {}
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "spice_blow", "territory": GREAT_FLAT, "amount": 10})
    assert err.value.rule == BLOW_RULE[ruleset] and err.value.field == "amount"
    assert "The Great Flat" in err.value.message and "record 0 spice" in err.value.message
    older = _at(ruleset, "spice_blow", storm=14, edition=SEQUENCED)
    with pytest.raises(IllegalAction) as err:
        apply(older, {"type": "spice_blow", "territory": GREAT_FLAT})
    assert err.value.rule == BLOW_RULE[ruleset]
    assert "The Great Flat" in err.value.message and "storm" in err.value.message


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_02_04_only_spice_blow_territories_take_spice(ruleset: str) -> None:
    pos = _at(ruleset, "spice_blow")
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "spice_blow", "territory": "arrakeen"})
    assert err.value.rule == BLOW_RULE[ruleset]
    assert "Arrakeen has no Spice Blow" in err.value.message
    with pytest.raises(WrongPhase):
        apply(_at(ruleset, "bidding"), {"type": "spice_blow", "territory": GREAT_FLAT})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_02_04_quick_tracking_keeps_no_spice_on_the_board(ruleset: str) -> None:
    pos = _at(ruleset, "spice_blow", quick=True)
    with pytest.raises(IllegalAction, match="full tracking"):
        apply(pos, {"type": "spice_blow", "territory": GREAT_FLAT})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_storm_destroys_spice_in_the_sectors_it_moves_into(ruleset: str) -> None:
    pos = _at(ruleset, "storm", storm=12, spice_on_board={GREAT_FLAT: 10, "sihaya_ridge": 6})
    pos = apply(pos, {"type": "storm_moved", "sectors": 2})
    assert pos.spice_on_board == {"sihaya_ridge": 6}  # sector 8 is far from the storm
    assert pos.spice_lost == ((GREAT_FLAT, 14, 10, STORM_RULE[ruleset]),)
    row = losses_json(pos)[-1]
    assert row == {
        "faction": None, "territory": GREAT_FLAT, "sector": 14, "normal": 0, "special": 0,
        "advisors": 0, "spice": 10, "rule": STORM_RULE[ruleset],
    }
    # The phase moving on at once keeps the list in view; the record after it clears it.
    pos = apply(pos, {"type": "phase_advanced", "phase": "spice_blow"})
    assert pos.spice_lost == ((GREAT_FLAT, 14, 10, STORM_RULE[ruleset]),)
    pos = apply(pos, {"type": "phase_advanced", "phase": "bidding"})
    assert pos.spice_lost == ()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_wbc_vi_8_spice_under_the_storms_starting_sector_stays(ruleset: str) -> None:
    """Only sectors the storm moves into are affected; a move of 0 affects nothing."""
    pos = _at(ruleset, "storm", storm=14, spice_on_board={GREAT_FLAT: 10})
    assert apply(pos, {"type": "storm_moved", "sectors": 3}).spice_on_board == {GREAT_FLAT: 10}
    assert apply(pos, {"type": "storm_moved", "sectors": 0}).spice_on_board == {GREAT_FLAT: 10}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_without_automatic_losses_the_spice_stays(ruleset: str) -> None:
    pos = _at(ruleset, "storm", storm=12, spice_on_board={GREAT_FLAT: 10}, auto=False)
    pos = apply(pos, {"type": "storm_moved", "sectors": 3})
    assert pos.spice_on_board == {GREAT_FLAT: 10}
    assert pos.spice_lost == ()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_02_05_worm_devours_the_spice_of_its_territory(ruleset: str) -> None:
    pos = _at(ruleset, "spice_blow", spice_on_board={GREAT_FLAT: 10, "sihaya_ridge": 6})
    pos = apply(pos, {"type": "worm", "territory": GREAT_FLAT})
    if ruleset != "lolv-2.8.4":
        assert pos.spice_on_board[GREAT_FLAT] == 10  # AH VII.A.2: after the nexus
        pos = apply(pos, {"type": "phase_advanced", "phase": "bidding"})
    assert pos.spice_on_board == {"sihaya_ridge": 6}
    assert pos.spice_lost == ((GREAT_FLAT, 14, 10, WORM_RULE[ruleset]),)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_08_02_two_spice_per_force_three_with_arrakeen_or_carthag(ruleset: str) -> None:
    forces = [at("harkonnen", GREAT_FLAT, 2, sector=14), at("atreides", GREAT_FLAT, 2, sector=14)]
    pos = _at(ruleset, "spice_collection", forces=[*forces, at("atreides", "arrakeen", 1)],
              spice_on_board={GREAT_FLAT: 12})
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "spice_collected", "faction": "harkonnen", "territory": GREAT_FLAT, "amount": 5})
    assert err.value.rule == COLLECT_RULE[ruleset]
    assert "Harkonnen's forces in The Great Flat collect at most 4 spice" in err.value.message
    pos = apply(pos, {"type": "spice_collected", "faction": "atreides", "territory": GREAT_FLAT, "amount": 6})
    pos = apply(pos, {"type": "spice_collected", "faction": "harkonnen", "territory": GREAT_FLAT, "amount": 4})
    assert pos.states["atreides"].spice == 11 and pos.states["harkonnen"].spice == 9
    assert pos.spice_on_board == {GREAT_FLAT: 2}  # AH XI.B, LoLV 1.08.03: the rest stays


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_08_01_collect_only_what_lies_there_with_forces_there(ruleset: str) -> None:
    pos = _at(ruleset, "spice_collection", forces=[at("emperor", GREAT_FLAT, 5, sector=14)],
              spice_on_board={GREAT_FLAT: 3})
    with pytest.raises(IllegalAction, match="The Great Flat holds only 3 spice"):
        apply(pos, {"type": "spice_collected", "faction": "emperor", "territory": GREAT_FLAT, "amount": 4})
    with pytest.raises(IllegalAction, match="Fremen has no forces in The Great Flat"):
        apply(pos, {"type": "spice_collected", "faction": "fremen", "territory": GREAT_FLAT, "amount": 1})
    with pytest.raises(WrongPhase):
        apply(_at(ruleset, "battle", forces=[at("emperor", GREAT_FLAT, 5, sector=14)],
                  spice_on_board={GREAT_FLAT: 3}),
              {"type": "spice_collected", "faction": "emperor", "territory": GREAT_FLAT, "amount": 1})
    pos = apply(pos, {"type": "spice_collected", "faction": "emperor", "territory": GREAT_FLAT, "amount": 3})
    assert pos.spice_on_board == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_wbc_xi_1_coexisting_advisors_collect_nothing(ruleset: str) -> None:
    """WBC XI.1, AH XV.A: coexisting BG tokens collect no spice; LoLV 2.02.12: nor do
    advisors (the LoLV declares no coexistence)."""
    lolv = ruleset == "lolv-2.8.4"
    # AH and WBC tokens have no advisor side: they coexist by declaration (AH XV.A, WBC XV.5).
    bg = at("bene_gesserit", GREAT_FLAT, 0, advisors=3, sector=14) if lolv else at("bene_gesserit", GREAT_FLAT, 3, sector=14)
    forces = [bg, at("emperor", GREAT_FLAT, 1, sector=14)]
    declared = [] if lolv else [GREAT_FLAT]
    pos = _at(ruleset, "spice_collection", forces=forces, spice_on_board={GREAT_FLAT: 6},
              coexisting=declared)
    with pytest.raises(IllegalAction, match="Bene Gesserit has no forces in The Great Flat"):
        apply(pos, {"type": "spice_collected", "faction": "bene_gesserit", "territory": GREAT_FLAT, "amount": 1})


def test_2_07_13_ixian_cyborgs_collect_three() -> None:
    """LoLV only: the Ixians are an expansion faction."""
    factions = ("ixians", "atreides", "emperor", "fremen", "harkonnen", "guild")
    pos = position(
        ruleset="lolv-2.8.4", factions=factions, storm=2, phase="spice_collection",
        forces=[at("ixians", GREAT_FLAT, 1, special=2, sector=14)],
        per_faction={f: {"tanks": 0, "spice": 0} for f in factions}, spice_on_board={GREAT_FLAT: 10},
    )
    with pytest.raises(IllegalAction, match="collect at most 8 spice"):
        apply(pos, {"type": "spice_collected", "faction": "ixians", "territory": GREAT_FLAT, "amount": 9})
    assert apply(pos, {"type": "spice_collected", "faction": "ixians", "territory": GREAT_FLAT,
                       "amount": 8}).states["ixians"].spice == 8


def test_2_10_11_the_no_field_token_collects_as_one_force() -> None:
    """LoLV only: the Richese is an expansion faction."""
    factions = ("richese", "atreides", "emperor", "fremen", "harkonnen", "guild")
    pos = position(
        ruleset="lolv-2.8.4", factions=factions, storm=2, phase="spice_collection",
        per_faction={f: {"tanks": 0, "spice": 0} for f in factions}, spice_on_board={GREAT_FLAT: 10},
        no_field=[GREAT_FLAT, 14],
    )
    with pytest.raises(IllegalAction, match="collect at most 2 spice"):
        apply(pos, {"type": "spice_collected", "faction": "richese", "territory": GREAT_FLAT, "amount": 3})
    assert apply(pos, {"type": "spice_collected", "faction": "richese", "territory": GREAT_FLAT,
                       "amount": 2}).spice_on_board == {GREAT_FLAT: 8}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_judge_puts_destroyed_spice_back_with_a_reason(ruleset: str) -> None:
    pos = _at(ruleset, "storm", storm=12, spice_on_board={GREAT_FLAT: 10})
    pos = apply(pos, {"type": "storm_moved", "sectors": 2})
    with pytest.raises(IllegalAction, match="needs a reason"):
        apply(pos, {"type": "board_spice_set", "territory": GREAT_FLAT, "amount": 10, "reason": " "})
    pos = apply(pos, {"type": "board_spice_set", "territory": GREAT_FLAT, "amount": 10,
                      "reason": "the storm moved 1, not 2"})
    assert pos.spice_on_board == {GREAT_FLAT: 10}
    pos = apply(pos, {"type": "board_spice_set", "territory": GREAT_FLAT, "amount": 0, "reason": "miscount"})
    assert pos.spice_on_board == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_02_04_spice_on_board_survives_the_snapshot(ruleset: str) -> None:
    pos = _at(ruleset, "storm", storm=12, spice_on_board={GREAT_FLAT: 10, "sihaya_ridge": 6})
    pos = apply(pos, {"type": "storm_moved", "sectors": 2})
    data = dump_position(pos)
    assert data["spice_on_board"] == {"sihaya_ridge": 6}
    again = load_position(data)
    assert again.spice_on_board == {"sihaya_ridge": 6}
    assert again.spice_lost == pos.spice_lost
    assert dump_position(again) == data


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(
    "bad",
    [{"arrakeen": 3}, {GREAT_FLAT: 0}, {GREAT_FLAT: -2}, {GREAT_FLAT: "10"}, {GREAT_FLAT: True}],
)
def test_1_02_04_snapshot_refuses_spice_where_none_can_lie(ruleset: str, bad: dict[str, object]) -> None:
    with pytest.raises(Exception) as err:
        _at(ruleset, "storm", spice_on_board=bad)
    assert "spice_on_board" in str(err.value)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_1_01_03_putting_spice_back_keeps_the_forces_still_listed(ruleset: str) -> None:
    """One storm destroys forces and spice; correcting the spice leaves the forces' row to be
    put back, and the refusal names the field at fault."""
    pos = _at(ruleset, "storm", storm=12, spice_on_board={GREAT_FLAT: 10},
              forces=[at("harkonnen", GREAT_FLAT, 3, sector=14)])
    pos = apply(pos, {"type": "storm_moved", "sectors": 2})
    with pytest.raises(IllegalAction) as err:
        apply(pos, {"type": "board_spice_set", "territory": GREAT_FLAT, "amount": 10, "reason": ""})
    assert err.value.field == "reason"
    pos = apply(pos, {"type": "board_spice_set", "territory": GREAT_FLAT, "amount": 10, "reason": "storm moved 1"})
    assert pos.spice_lost == ()
    assert pos.losses == (("harkonnen", GREAT_FLAT, 14, 3, 0, 0, STORM_RULE[ruleset]),)
