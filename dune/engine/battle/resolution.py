"""What a battle comes to: the `Resolution` a page shows before the judge confirms it, its leaders'
fates and the rulings it rests on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dune.engine.battle.cards import KH_AWAKENS
from dune.engine.numbers import decimal_str


@dataclass(frozen=True, slots=True)
class Ruling:
    """One step of a resolution and the rule it rests on."""

    rule: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}


@dataclass(frozen=True, slots=True)
class LeaderFate:
    """A leader's new state after the battle (`owner`'s sheet), and why."""

    owner: str
    leader: str
    status: str  # "tanks_face_up" | "tanks_face_down" | "captured" | "active"
    captor: str | None
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "faction": self.owner,
            "leader": self.leader,
            "status": self.status,
            "captor": self.captor,
            "rule": self.rule,
        }


#: (faction, territory, sector, normal, special, advisors, rule), as `losses.Loss`.
LossRow = tuple[str, str, "int | None", int, int, int, str]


def loss_json(row: LossRow, **between: Any) -> dict[str, Any]:
    """A row of forces lost as JSON (a `schema.Removed` row): its keys in their written order,
    `between` (a key the row does not hold, such as `spice`) before its `rule`."""
    faction, territory, sector, normal, special, advisors, rule = row
    return {
        "faction": faction,
        "territory": territory,
        "sector": sector,
        "normal": normal,
        "special": special,
        "advisors": advisors,
        **between,
        "rule": rule,
    }


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a battle comes to (`to_dict()` is the JSON a page shows before confirming)."""

    territory: str
    aggressor: str
    defender: str
    #: "won" (by the totals), "traitor", "two_traitors" or "explosion"
    outcome: str
    winner: str | None
    loser: str | None
    totals: Mapping[str, Fraction | None]
    losses: tuple[LossRow, ...]
    leaders: tuple[LeaderFate, ...]
    discarded: Mapping[str, tuple[str, ...]]
    spice: Mapping[str, int]  # change behind each shield (spice paid, leaders' value, a kill)
    board_spice_lost: int
    kh_losses: int
    kh_dead: bool
    fought: frozenset[tuple[int, str, str, str]]
    rulings: tuple[Ruling, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "territory": self.territory,
            "aggressor": self.aggressor,
            "defender": self.defender,
            "outcome": self.outcome,
            "winner": self.winner,
            "loser": self.loser,
            "totals": {f: None if t is None else decimal_str(t) for f, t in self.totals.items()},
            "losses": [loss_json(row) for row in self.losses],
            "leaders": [fate.to_dict() for fate in self.leaders],
            "discarded": {f: list(cards) for f, cards in self.discarded.items()},
            "spice": dict(self.spice),
            "board_spice_lost": self.board_spice_lost,
            "kwisatz_haderach": {"losses": self.kh_losses, "awake": self.kh_losses >= KH_AWAKENS, "dead": self.kh_dead},
            "rulings": [r.to_dict() for r in self.rulings],
        }
