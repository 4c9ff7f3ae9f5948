"""The registry of points systems by key, private to the cores.

Each `Format` builds its points system here once (`dune.formats`); everything else asks the
tournament's format (`tournament.rules.points`). An import contract keeps this module to the
cores that own a format or a report's reading.
"""

from __future__ import annotations

from types import MappingProxyType

from dune.points.errors import UnknownSystemError
from dune.points.lolv import LoLVSystem
from dune.points.system import PointsSystem
from dune.points.wbc import WBCSystem

SYSTEMS: MappingProxyType[str, type[PointsSystem]] = MappingProxyType({"lolv": LoLVSystem, "wbc": WBCSystem})


def build_system(key: object, *, finalist_seats: int = 6) -> PointsSystem:
    """The scoring system of format `key`, built with its parameters.

    Raises:
        UnknownSystemError: no system is registered under `key`.
        ValueError: `finalist_seats` is not a positive int.
    """
    if not isinstance(key, str) or key not in SYSTEMS:
        raise UnknownSystemError(key, known=tuple(SYSTEMS))
    return SYSTEMS[key](finalist_seats=finalist_seats)
