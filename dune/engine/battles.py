"""The battles that must be fought (LoLV 1.07.01, AH X.A).

Two factions battle in a territory where both have active forces, unless every pair of
their groups is separated by storm (1.07.01.00; WBC VI.9-10); never in the Polar Sink
(1.07.01.02) and never between allies. Groups in one sector under the storm still battle
(1.07.01.01).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dune.engine.board import POLAR_SINK
from dune.engine.control import Occupancy
from dune.engine.editions import sheltered
from dune.engine.position import Position
from dune.engine.storm import separated


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle that must be fought: the territory and the factions, in storm order."""

    territory: str
    factions: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"territory": self.territory, "factions": list(self.factions)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Battle:
        return cls(territory=data["territory"], factions=tuple(data["factions"]))


def battles(position: Position, occ: Occupancy, order: list[str]) -> list[Battle]:
    """The battles, factions in `order` (storm order), territories sorted by the earliest
    faction in that order, then by id."""
    rank = {f: i for i, f in enumerate(order)}
    storm, shelter = position.storm, sheltered(position)
    found: list[tuple[int, str, list[str]]] = []
    for territory, by_faction in occ.active.items():
        if territory == POLAR_SINK or len(by_faction) < 2:
            continue
        names = list(by_faction)
        links: dict[str, set[str]] = {f: set() for f in names}
        for i, f in enumerate(names):
            allies = position.side_of(f)
            for g in names[i + 1 :]:
                if g in allies:
                    continue
                if any(
                    not separated(territory, a, b, storm, shelter)
                    for a in by_faction[f]
                    for b in by_faction[g]
                ):
                    links[f].add(g)
                    links[g].add(f)
        seen: set[str] = set()
        for f in names:
            if f in seen or not links[f]:
                continue
            group: list[str] = []
            todo = [f]
            while todo:
                x = todo.pop()
                if x in seen:
                    continue
                seen.add(x)
                group.append(x)
                todo.extend(links[x] - seen)
            group.sort(key=lambda x: rank.get(x, len(rank)))
            found.append((rank.get(group[0], len(rank)), territory, group))
    found.sort(key=lambda item: (item[0], item[1]))
    return [Battle(territory=t, factions=tuple(g)) for _r, t, g in found]
