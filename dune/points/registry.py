"""The registry of scoring systems, keyed by the format key the database stores."""

from __future__ import annotations

from types import MappingProxyType

from dune.points.errors import UnknownSystemError
from dune.points.lolv import LoLVSystem
from dune.points.system import PointsSystem
from dune.points.wbc import WBCSystem

SYSTEMS: MappingProxyType[str, type[PointsSystem]] = MappingProxyType({"lolv": LoLVSystem, "wbc": WBCSystem})


def get_system(key: object, *, finalist_seats: int = 6) -> PointsSystem:
    """The scoring system of format `key`, built with its parameters.

    Raises:
        UnknownSystemError: no system is registered under `key`.
        ValueError: `finalist_seats` is not a positive int.
    """
    if not isinstance(key, str) or key not in SYSTEMS:
        raise UnknownSystemError(key, known=tuple(SYSTEMS))
    return SYSTEMS[key](finalist_seats=finalist_seats)
