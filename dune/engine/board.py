"""The map of Arrakis: sectors, territories, adjacency and player dots.

The facts live in `data/board.json` (derived from the cross-checked reference
`shared/reference/dune_board.json`, copied as `tests/engine/reference/dune_board.json`; a
test compares the two). The file is read once at
import and validated: unknown names, one-way adjacency, sectors outside 0..17, spice blows
outside their territory. Every problem is listed in one `BoardDataError`.

Sector numbering: 0..17 counterclockwise from the Storm Start Sector (the storm's direction
of travel); player dots at 1, 4, 7, 10, 13, 16. A territory's part in one sector is a
"sector piece" (`cielago_north@2`); the Polar Sink and the Hidden Mobile Stronghold span no
sector (their sector is `None`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dune.engine.errors import BoardDataError

DATA_DIR = Path(__file__).resolve().parent / "data"
BOARD_FILE = DATA_DIR / "board.json"

KINDS: frozenset[str] = frozenset({"stronghold", "rock", "sand", "polar_sink"})


@dataclass(frozen=True, slots=True)
class Territory:
    """One territory of the map (or a territory token such as the Hidden Mobile Stronghold)."""

    id: str
    name: str
    kind: str
    sectors: tuple[int, ...]
    spice_blow: tuple[int, int] | None  # (sector, amount on the spice card)
    storm_protected: bool  # tokens here are never destroyed by the storm...
    shielded: bool  # ...only while the Shield Wall stands (Imperial Basin, Arrakeen, Carthag)
    worm_protected: bool
    within_2_of_great_flat: bool
    adjacent: frozenset[str]
    expansion: str | None = None  # faction whose presence puts it in play

    @property
    def is_stronghold(self) -> bool:
        return self.kind == "stronghold"


@dataclass(frozen=True, slots=True)
class Board:
    """The validated map."""

    sector_count: int
    storm_start_sector: int
    player_dots: tuple[int, ...]
    territories: dict[str, Territory]
    piece_adjacency: frozenset[tuple[str, str]]
    shield_wall: str
    shield_wall_left_sector: int

    def territory(self, territory_id: str) -> Territory | None:
        return self.territories.get(territory_id)


def _territory(tid: str, raw: dict[str, Any], expansion: str | None) -> Territory:
    sb = raw.get("spice_blow")
    return Territory(
        id=tid,
        name=str(raw.get("name", tid)),
        kind=str(raw.get("kind")),
        sectors=tuple(raw.get("sectors", ())),
        spice_blow=None if sb is None else (int(sb["sector"]), int(sb["amount"])),
        storm_protected=bool(raw.get("storm_protected")),
        shielded=bool(raw.get("shielded")),
        worm_protected=bool(raw.get("worm_protected")),
        within_2_of_great_flat=bool(raw.get("within_2_of_great_flat")),
        adjacent=frozenset(raw.get("adjacent", ())),
        expansion=expansion,
    )


def validate_board(raw: dict[str, Any]) -> Board:
    """Build a Board from the raw data file. Raises BoardDataError listing every problem.

    Long because it collects every problem of the board file in one pass and raises once with all of
    them.
    """
    problems: list[str] = []
    n = raw.get("sector_count")
    if n != 18:
        problems.append(f"sector_count is {n!r}, expected 18")
        n = 18
    territories: dict[str, Territory] = {}
    for tid, t in raw.get("territories", {}).items():
        territories[tid] = _territory(tid, t, None)
    for tid, t in raw.get("expansion_territories", {}).items():
        if tid in territories:
            problems.append(f"{tid!r} listed twice")
        territories[tid] = _territory(tid, t, t.get("in_play_with"))
    for t in territories.values():
        if t.kind not in KINDS:
            problems.append(f"{t.id!r}: unknown kind {t.kind!r}")
        for s in t.sectors:
            if not isinstance(s, int) or not 0 <= s < n:
                problems.append(f"{t.id!r}: sector {s!r} outside 0..{n - 1}")
        if len(set(t.sectors)) != len(t.sectors):
            problems.append(f"{t.id!r}: a sector listed twice")
        if t.kind != "polar_sink" and t.expansion is None and not t.sectors:
            problems.append(f"{t.id!r}: spans no sector")
        if t.spice_blow is not None and t.spice_blow[0] not in t.sectors:
            problems.append(
                f"{t.id!r}: spice blow sector {t.spice_blow[0]!r} not in its sectors {t.sectors!r}"
            )
        for other in sorted(t.adjacent):
            if other == t.id:
                problems.append(f"{t.id!r}: adjacent to itself")
            elif other not in territories:
                problems.append(f"{t.id!r}: unknown neighbour {other!r}")
            elif t.id not in territories[other].adjacent:
                problems.append(f"one-way adjacency {t.id!r} -> {other!r}")
    pieces: set[tuple[str, str]] = set()
    for pair in raw.get("piece_adjacency", []):
        a, b = pair
        for piece in (a, b):
            tid, _, sec = piece.partition("@")
            t = territories.get(tid)
            if t is None:
                problems.append(f"piece adjacency: unknown territory in {piece!r}")
            elif sec and int(sec) not in t.sectors:
                problems.append(f"piece adjacency: {piece!r} names a sector {tid!r} does not span")
            elif not sec and t.sectors:
                problems.append(f"piece adjacency: {piece!r} needs a sector")
        ta, tb = a.partition("@")[0], b.partition("@")[0]
        if ta != tb and ta in territories and tb not in territories[ta].adjacent:
            problems.append(f"piece adjacency {a!r}-{b!r} without territory adjacency")
        pieces.add((a, b))
        pieces.add((b, a))
    dots = tuple(raw.get("player_dots", ()))
    if len(dots) != 6 or any(not isinstance(d, int) or not 0 <= d < n for d in dots):
        problems.append(f"player_dots {dots!r}: expected six sectors in 0..{n - 1}")
    sw = raw.get("shield_wall", {})
    wall = sw.get("territory")
    left = sw.get("left_sector")
    if wall not in territories:
        problems.append(f"shield_wall: unknown territory {wall!r}")
    elif left not in territories[wall].sectors:
        problems.append(f"shield_wall: left sector {left!r} not in {territories[wall].sectors!r}")
    if problems:
        raise BoardDataError(problems)
    return Board(
        sector_count=n,
        storm_start_sector=int(raw.get("storm_start_sector", 0)),
        player_dots=dots,
        territories=territories,
        piece_adjacency=frozenset(pieces),
        shield_wall=str(wall),
        shield_wall_left_sector=int(left),
    )


def load_board(path: Path = BOARD_FILE) -> Board:
    """Read and validate a board file. Raises BoardDataError, OSError, ValueError (bad JSON)."""
    with open(path, encoding="utf-8") as fh:
        return validate_board(json.load(fh))


BOARD: Board = load_board()
TERRITORIES: dict[str, Territory] = BOARD.territories
SECTOR_COUNT: int = BOARD.sector_count
PLAYER_DOTS: tuple[int, ...] = BOARD.player_dots
POLAR_SINK = "polar_sink"
SHIELD_WALL = BOARD.shield_wall
SHIELD_WALL_LEFT_SECTOR = BOARD.shield_wall_left_sector
HIDDEN_MOBILE_STRONGHOLD = "hidden_mobile_stronghold"
ARRAKEEN = "arrakeen"
CARTHAG = "carthag"
TUEKS_SIETCH = "tueks_sietch"
SIETCH_TABR = "sietch_tabr"
HABBANYA_SIETCH = "habbanya_sietch"
#: The five printed strongholds (LoLV glossary "Stronghold", AH IV).
PRINTED_STRONGHOLDS: tuple[str, ...] = tuple(
    t.id for t in TERRITORIES.values() if t.is_stronghold and t.expansion is None
)
