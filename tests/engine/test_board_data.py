"""The engine's board and faction data against the cross-checked reference, and its
validation on load (every problem listed at once)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dune.engine import board, factions
from dune.engine.board import BOARD_FILE, DATA_DIR, TERRITORIES, load_board, validate_board
from dune.engine.errors import BoardDataError
from dune.engine.factions import FACTION_SHEETS, load_factions
from dune.engine.ids import FACTIONS

# A copy of the cross-checked board reference kept beside the tests, so a clone of the
# repository alone holds every file its tests read.
REFERENCE = Path(__file__).resolve().parent / "reference" / "dune_board.json"


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


def test_every_shipped_data_file_loads() -> None:
    """Each file under dune/engine/data is read and validated by its loader."""
    files = sorted(p.name for p in DATA_DIR.glob("*.json"))
    assert files == ["board.json", "factions.json"]
    assert load_board(DATA_DIR / "board.json").sector_count == 18
    assert set(load_factions(DATA_DIR / "factions.json")) == set(FACTIONS)


def test_territories_match_reference(reference: dict[str, Any]) -> None:
    ref = {t["id"]: t for t in reference["board"]["territories"]}
    printed = {tid for tid, t in TERRITORIES.items() if t.expansion is None}
    assert printed == set(ref)
    for tid, r in ref.items():
        t = TERRITORIES[tid]
        assert t.kind == r["kind"], tid
        assert list(t.sectors) == r["sectors"], tid
        assert t.adjacent == frozenset(r["adjacent"]), tid
        assert t.storm_protected == r["storm_protected"], tid
        assert t.worm_protected == r["worm_protected"], tid
        sb = r["spice_blow"]
        assert t.spice_blow == (None if sb is None else (sb["sector"], sb["spice_card_amount"])), tid


def test_adjacency_matches_reference_edges(reference: dict[str, Any]) -> None:
    edges = {frozenset((e["a"], e["b"])) for e in reference["board"]["adjacency"]["territory_level"]["edges"]}
    ours = {frozenset((a, b)) for a, t in TERRITORIES.items() for b in t.adjacent}
    assert ours == edges
    assert len(edges) == 103


def test_player_dots_and_strongholds(reference: dict[str, Any]) -> None:
    assert board.PLAYER_DOTS == tuple(reference["board"]["player_dots"]["sectors"]) == (1, 4, 7, 10, 13, 16)
    assert set(board.PRINTED_STRONGHOLDS) == {
        "arrakeen",
        "carthag",
        "tueks_sietch",
        "sietch_tabr",
        "habbanya_sietch",
    }
    # Only Imperial Basin, Arrakeen and Carthag lose the storm's shelter to Family Atomics.
    assert {t.id for t in TERRITORIES.values() if t.shielded} == {"imperial_basin", "arrakeen", "carthag"}
    # LoLV 4.02.01: the Shield Wall's left side touches the Imperial Basin.
    assert board.SHIELD_WALL_LEFT_SECTOR in TERRITORIES["imperial_basin"].sectors


def test_factions_match_reference(reference: dict[str, Any]) -> None:
    for ref_id, r in reference["factions"].items():
        fid = "guild" if ref_id == "spacing_guild" else ref_id
        f = FACTION_SHEETS[fid]
        assert f.starting_spice == r["starting_spice"], fid
        assert f.forces == r["forces"]["total"], fid
        special = r["forces"]["special"]
        assert f.special_forces == (special["count"] if isinstance(special, dict) else 0), fid
        assert f.free_revival == r["free_revival"], fid
        assert f.hand_limit == r["hand_limit"], fid
        assert [(ld.name, ld.strength) for ld in f.leaders] == [
            (x["name"], x["strength"]) for x in r["leaders"]
        ], fid


def test_validation_lists_every_problem() -> None:
    """Like a map file check: one-way edges, unknown names and bad sectors all reported together."""
    raw = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    raw["territories"]["arrakeen"]["adjacent"].append("atlantis")
    raw["territories"]["carthag"]["adjacent"].append("tueks_sietch")  # one way only
    raw["territories"]["basin"]["sectors"] = [8, 19]
    raw["territories"]["red_chasm"]["spice_blow"]["sector"] = 3
    with pytest.raises(BoardDataError) as info:
        validate_board(raw)
    text = "\n".join(info.value.problems)
    assert "unknown neighbour 'atlantis'" in text
    assert "one-way adjacency 'carthag' -> 'tueks_sietch'" in text
    assert "sector 19 outside 0..17" in text
    assert "spice blow sector 3" in text
    assert len(info.value.problems) == 4


def test_faction_validation_lists_problems(tmp_path: Path) -> None:
    raw = json.loads(factions.FACTIONS_FILE.read_text(encoding="utf-8"))
    raw["factions"]["atreides"]["starting_placement"]["fixed"] = [["arrakeen", 10, 10, 0]]
    raw["factions"]["emperor"]["special_forces"] = 25
    del raw["factions"]["ecaz"]
    bad = tmp_path / "factions.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BoardDataError) as info:
        load_factions(bad)
    assert len(info.value.problems) == 3
