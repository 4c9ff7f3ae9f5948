"""Storm geometry: storm order, the first player, sectors in storm, separation by storm.

The storm travels counterclockwise, towards higher sector numbers (mod 18).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dune.engine.board import SECTOR_COUNT, TERRITORIES

if TYPE_CHECKING:  # position imports the rulesets, which import movement, which imports this
    from dune.engine.position import Position


def storm_order(position: Position) -> list[str] | None:
    """Factions in storm order, or None while the storm is not on the board.

    The first player is the one whose player marker the storm next approaches
    counterclockwise; a marker under the storm has been passed and goes last
    (LoLV 1.01.01, AH IX.A).
    """
    storm = position.storm
    setup = position.setup
    if storm is None or setup is None:
        return None
    markers = setup.markers

    def distance(faction: str) -> int:
        d = (markers[faction] - storm) % SECTOR_COUNT
        return d if d else SECTOR_COUNT

    return sorted(position.factions, key=distance)


def played_order(position: Position) -> list[str]:
    """Storm order as the phase plays it: the factions in the game when the storm is not yet on
    the board, and a faction that played Juice of Sappho moved first or last (LoLV
    3.02.02.02-03; `Position.order_cards`)."""
    order = storm_order(position) or list(position.factions)
    cards = position.order_cards
    if not cards:
        return order
    first, last = cards.get("first"), cards.get("last")
    middle = [f for f in order if f not in (first, last)]
    return ([first] if first in order else []) + middle + ([last] if last in order else [])


def first_player(position: Position) -> str | None:
    order = storm_order(position)
    return order[0] if order else None


def is_shielded(territory: str, family_atomics: bool) -> bool:
    """Imperial Basin, Arrakeen and Carthag lie behind the Shield Wall until Family Atomics:
    the storm does not *destroy* there (AH VI.D, LoLV 1.01.03, 3.01.07; WBC VI.7)."""
    t = TERRITORIES[territory]
    return t.shielded and not family_atomics


def storm_destroys(territory: str, family_atomics: bool) -> bool:
    """Whether the storm sends tokens in this territory to the tanks: sand territories
    (LoLV 1.01.03, AH VI.D), except the Imperial Basin until Family Atomics; after it,
    Arrakeen and Carthag lose their shelter too (LoLV 3.01.07, WBC VI.7)."""
    t = TERRITORIES[territory]
    if t.shielded:
        return family_atomics
    return not t.storm_protected


def in_storm(territory: str, sector: int | None, storm: int | None, sheltered: bool = False) -> bool:
    """Whether this sector piece is under the storm (for movement, shipment, separation).

    The Polar Sink (and any sectorless token) is never in storm (LoLV 1.06.05). The Shield
    Wall spares its three territories the storm's destruction only: a sector of Arrakeen,
    Carthag or the Imperial Basin under the storm still blocks moving and shipping and
    still separates (AH questions C.3, LoLV 1.01.04, WBC VI.9-10). `sheltered`: the first
    edition's reading, where the wall kept the storm off them altogether
    (`editions.sheltered`).
    """
    if storm is None or sector is None or sector != storm:
        return False
    return not (sheltered and TERRITORIES[territory].shielded)


def separated(
    territory: str, a: int | None, b: int | None, storm: int | None, sheltered: bool = False
) -> bool:
    """Whether groups in sectors `a` and `b` of one territory are separated by storm:
    the storm covers one of them, or lies between them inside the territory
    (WBC VI.9-10, AH X.A.2.a, LoLV 1.07.01.00). One sector is never separated (1.07.01.01).
    `sheltered` as for `in_storm`."""
    if a == b or a is None or b is None or storm is None:
        return False
    if sheltered and TERRITORIES[territory].shielded:
        return False
    sectors = TERRITORIES[territory].sectors
    if storm not in sectors:
        return False
    if storm in (a, b):
        return True
    # The territory's sectors form an arc; walk it from a towards b and see if the storm
    # sits on the way (the arc may wrap from 17 to 0).
    arc = _arc(sectors)
    i, j, k = arc.index(a), arc.index(b), arc.index(storm)
    return min(i, j) < k < max(i, j)


def _arc(sectors: tuple[int, ...]) -> list[int]:
    """A territory's sectors in counterclockwise order (handles the 17 -> 0 wrap)."""
    ordered = sorted(sectors)
    for start in range(len(ordered)):
        arc = ordered[start:] + ordered[:start]
        if all((arc[n + 1] - arc[n]) % SECTOR_COUNT == 1 for n in range(len(arc) - 1)):
            return arc
    return ordered
