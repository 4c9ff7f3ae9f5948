"""The twelve factions of the LoLV rulebook (six of them the 1979 classics).

Facts (starting spice and forces, special forces, free revival, hand size, leaders and
strengths, starting placement) live in `data/factions.json`, derived from the
cross-checked reference; loaded once and validated against the board.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dune.engine.board import TERRITORIES
from dune.engine.errors import BoardDataError
from dune.engine.ids import FACTIONS

FACTIONS_FILE = Path(__file__).resolve().parent / "data" / "factions.json"

ATREIDES = "atreides"
BENE_GESSERIT = "bene_gesserit"
EMPEROR = "emperor"
FREMEN = "fremen"
HARKONNEN = "harkonnen"
GUILD = "guild"
IXIANS = "ixians"
RICHESE = "richese"
ECAZ = "ecaz"
MORITANI = "moritani"
TLEILAXU = "tleilaxu"
CHOAM = "choam"


def leader_id(name: str) -> str:
    """Stable id of a leader from its printed name: `Dr. Wellington Yueh` -> `dr_wellington_yueh`."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@dataclass(frozen=True, slots=True)
class Leader:
    id: str
    name: str
    strength: int | None  # None: varies (Zoal takes his opponent's value)


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction's sheet as far as position-level rules need it."""

    id: str
    expansion: str
    starting_spice: int
    forces: int  # every token, normal and special
    special_forces: int  # starred tokens: Sardaukar, Fedaykin, Cyborgs
    special_name: str | None
    has_advisors: bool  # BG forces have an advisor side (LoLV 2.02.10)
    free_revival: int
    hand_limit: int
    leaders: tuple[Leader, ...]
    fixed_placements: tuple[tuple[str, int | None, int, int], ...]  # territory, sector, normal, special
    choose_count: int  # forces the faction places where it chooses at setup
    choose_territories: tuple[str, ...] | str  # ids, or "any" / "any_unoccupied"
    starting_cards: int

    @property
    def normal_forces(self) -> int:
        return self.forces - self.special_forces

    def leader_index(self, leader: str) -> int | None:
        for i, ld in enumerate(self.leaders):
            if leader in (ld.id, ld.name):
                return i
        return None


def _faction(fid: str, raw: dict[str, Any], problems: list[str]) -> Faction:
    sp = raw.get("starting_placement", {})
    fixed = tuple((str(t), s, int(n), int(x)) for t, s, n, x in sp.get("fixed", []))
    choose = sp.get("choose") or {}
    terr = choose.get("territories", ())
    f = Faction(
        id=fid,
        expansion=str(raw.get("expansion")),
        starting_spice=int(raw["starting_spice"]),
        forces=int(raw["forces"]),
        special_forces=int(raw.get("special_forces", 0)),
        special_name=raw.get("special_name"),
        has_advisors=bool(raw.get("advisors")),
        free_revival=int(raw["free_revival"]),
        hand_limit=int(raw["hand_limit"]),
        leaders=tuple(Leader(leader_id(n), n, s) for n, s in raw["leaders"]),
        fixed_placements=fixed,
        choose_count=int(choose.get("count", 0)),
        choose_territories=terr if isinstance(terr, str) else tuple(terr),
        # LoLV 0.14 / AH III.E.5: one card each; the Harkonnen draws a second (2.05.04, III.E.5.a).
        starting_cards=2 if fid == HARKONNEN else 1,
    )
    if not 0 <= f.special_forces <= f.forces:
        problems.append(f"{fid!r}: special forces {f.special_forces} outside 0..{f.forces}")
    placed = sum(n + x for _t, _s, n, x in fixed) + f.choose_count
    if placed > f.forces:
        problems.append(f"{fid!r}: starting placements use {placed} of {f.forces} forces")
    for t, s, _n, _x in fixed:
        terr_ = TERRITORIES.get(t)
        if terr_ is None:
            problems.append(f"{fid!r}: unknown starting territory {t!r}")
        elif (s is None) != (not terr_.sectors) or (s is not None and s not in terr_.sectors):
            problems.append(f"{fid!r}: starting sector {s!r} not in {t!r}")
    if isinstance(f.choose_territories, tuple):
        for t in f.choose_territories:
            if t not in TERRITORIES:
                problems.append(f"{fid!r}: unknown starting territory {t!r}")
    elif f.choose_territories not in ("any", "any_unoccupied"):
        problems.append(f"{fid!r}: bad starting choice {f.choose_territories!r}")
    if len({ld.id for ld in f.leaders}) != len(f.leaders):
        problems.append(f"{fid!r}: two leaders share an id")
    return f


def load_factions(path: Path = FACTIONS_FILE) -> dict[str, Faction]:
    """Read and validate the faction sheets. Raises BoardDataError listing every problem."""
    with open(path, encoding="utf-8") as fh:
        raw = json.load(fh)["factions"]
    problems: list[str] = []
    missing = set(FACTIONS) - set(raw)
    extra = set(raw) - set(FACTIONS)
    if missing:
        problems.append(f"factions missing: {sorted(missing)}")
    if extra:
        problems.append(f"unknown factions: {sorted(extra)}")
    out = {fid: _faction(fid, raw[fid], problems) for fid in FACTIONS if fid in raw}
    if problems:
        raise BoardDataError(problems)
    return out


FACTION_SHEETS: dict[str, Faction] = load_factions()
