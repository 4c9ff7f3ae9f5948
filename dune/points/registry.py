"""The registry of points systems and tiebreakers by key, private to the cores.

Each `Format` builds its points system here once (`dune.formats`), from its document: the
system's key chooses the labels and the result kinds it refuses, the document sets the points
of each result kind, the tiebreak precedence (by tiebreaker key), the dropout rule and the
size of the final table. Everything else asks the tournament's format
(`tournament.rules.points`). An import contract keeps this module to the cores that own a
format or a report's reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType

from dune.engine.ids import ResultKind
from dune.points.errors import UnknownSystemError
from dune.points.lolv import LoLVSystem
from dune.points.ranking import Precedence, Tiebreaker
from dune.points.system import PointsEntry, PointsSystem
from dune.points.wbc import WBCSystem

SYSTEMS: MappingProxyType[str, type[PointsSystem]] = MappingProxyType({"lolv": LoLVSystem, "wbc": WBCSystem})

#: Every tiebreaker a format may name in its precedence, by key.
TIEBREAKERS: Mapping[str, Tiebreaker] = MappingProxyType(
    {tb.key: tb for system in SYSTEMS.values() for tb in system.precedence.tiebreakers}
)

_BUILT: dict[tuple[object, ...], type[PointsSystem]] = {}


def build_system(
    key: object,
    *,
    finalist_seats: int = 6,
    alternates: int | None = None,
    points: Mapping[ResultKind, Fraction] | None = None,
    rules: Mapping[ResultKind, str] | None = None,
    tiebreaks: Sequence[str] | None = None,
    dropout_disqualifies: bool | None = None,
    dropout_rule: str | None = None,
    qualifying_rule: str | None = None,
) -> PointsSystem:
    """The scoring system of format `key`, built with its parameters.

    `points` and `rules` change the points and the rule of result kinds of the system's table
    (others keep theirs); `tiebreaks` is the precedence by tiebreaker key; the dropout and
    qualifying fields replace the system's. Without any of them the registered system itself.

    Raises:
        UnknownSystemError: no system is registered under `key`.
        KeyError: a result kind outside the system's table, or an unknown tiebreaker key.
        ValueError: `finalist_seats` is not a positive int; a tiebreaker named twice.
    """
    if not isinstance(key, str) or key not in SYSTEMS:
        raise UnknownSystemError(key, known=tuple(SYSTEMS))
    base = SYSTEMS[key]
    changes: dict[str, object] = {}
    if points or rules:
        table = dict(base.table)
        for kind in set(points or {}) | set(rules or {}):
            entry = table[kind]
            table[kind] = PointsEntry(
                points=(points or {}).get(kind, entry.points),
                rule=(rules or {}).get(kind, entry.rule),
                label=entry.label,
            )
        if table != dict(base.table):
            changes["table"] = MappingProxyType(table)
    if tiebreaks is not None and tuple(tiebreaks) != base.precedence.keys:
        changes["precedence"] = Precedence(tuple(TIEBREAKERS[k] for k in tiebreaks))
    for name, value in (
        ("dropout_disqualifies", dropout_disqualifies),
        ("dropout_rule", dropout_rule),
        ("qualifying_rule", qualifying_rule),
    ):
        if value is not None and value != getattr(base, name):
            changes[name] = value
    cls = base if not changes else _variant(base, changes)
    return cls(finalist_seats=finalist_seats, alternates=alternates)


def _variant(base: type[PointsSystem], changes: Mapping[str, object]) -> type[PointsSystem]:
    """A subclass of `base` with its class-level tables changed; one class per distinct change
    (its table's identity keys the cached orders and explanations)."""
    ident = (
        base.key,
        *sorted((k, repr(v.keys if isinstance(v, Precedence) else v)) for k, v in changes.items()),
    )
    cls = _BUILT.get(ident)
    if cls is None:
        # Kept for the process's life: a few per distinct format document.
        cls = _BUILT[ident] = type(base.__name__, (base,), dict(changes))
    return cls
