"""The immutable position of a game.

A `Position` is a frozen dataclass of small immutable parts. Events never mutate it:
`apply()` builds a new one, copying only what the event changes (the forces map, one
faction's state, ...) and sharing the rest. Containers typed `Mapping` are plain dicts
that are never mutated after construction.

Unknown facts are `None` (quick tracking records only who stands in the strongholds, so
reserves, tanks and forces elsewhere are unknown there).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, TypeVar

from dune.engine.editions import CURRENT
from dune.engine.events import Prediction
from dune.engine.factions import FACTION_SHEETS, Faction
from dune.engine.movement import Movement
from dune.engine.phases import SETUP
from dune.engine.rulesets import Ruleset
from dune.engine.supplies import NO_SUPPLIES, Supplies

#: (faction, territory, sector) - sector is None for the Polar Sink and the HMS.
ForceKey = tuple[str, str, "int | None"]
#: (normal, special, advisors) in one sector piece.
Stack = tuple[int, int, int]

EMPTY_STACK: Stack = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class Setup:
    """What is fixed when the game starts."""

    ruleset: Ruleset
    factions: tuple[str, ...]  # seat order
    markers: Mapping[str, int]  # faction -> sector of its player marker
    turn_limit: int
    options: frozenset[str] = frozenset()
    three_alliances: bool = False
    seed: int | None = None
    #: The engine removes what storms and worms destroy (full tracking only). Logs recorded
    #: before this existed have no such field in their `game_setup` and keep the judge's
    #: taps as the only removals.
    automatic_losses: bool = False
    #: Which rulings the game is played under (`editions`); a setup naming none is played
    #: under the current rulings.
    edition: int = CURRENT


@dataclass(frozen=True, slots=True)
class FactionState:
    """One faction's holdings off the board, and its running tallies."""

    spice: int | None = None
    cards: int | None = None
    card_names: tuple[str, ...] | None = None
    reserves: tuple[int, int] | None = None  # (normal, special); None: unknown
    tanks: tuple[int, int] | None = None
    #: per leader of the faction's sheet, in order: (status, captor or None)
    leaders: tuple[tuple[str, str | None], ...] = ()
    win_attempts: int = 0
    #: Spice put in front of the shield (bribes, LoLV 1.12.02; Extortion 2.12.09.03): it is
    #: not the faction's until collected at the Mentat Pause, so 4.01.10.04 does not count it.
    spice_front: int = 0
    pp: Fraction = Fraction(0)
    chips: int = 0
    defaults: int = 0
    dropped: bool = False
    die: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: the winning sides with their result kinds and the deciding rule."""

    winners: tuple[str, ...]
    kind: str
    rule: str
    ended_by: str  # "victory" | "turn_limit" | "time_limit" | "concession"
    sides: tuple[tuple[tuple[str, ...], str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "kind": self.kind,
            "rule": self.rule,
            "ended_by": self.ended_by,
            "sides": [{"factions": list(s), "kind": k} for s, k in self.sides],
        }


@dataclass(frozen=True, slots=True)
class Log:
    """The raw event log as a persistent list (newest first), kept for corrections."""

    event: Any
    prev: Log | None


@dataclass(frozen=True)
class Position:
    """The position (no `__slots__`: `evolve` copies its attribute dictionary in one step, which
    keeps a replay fast now that a position has some fifty parts)."""

    setup: Setup | None = None
    turn: int = 0
    phase: str = SETUP
    storm: int | None = None
    worms: int = 0
    family_atomics: bool = False
    nexus: bool = False
    alliances: tuple[tuple[str, ...], ...] = ()
    forces: Mapping[ForceKey, Stack] = field(default_factory=dict)
    coexisting: frozenset[str] = frozenset()
    states: Mapping[str, FactionState] = field(default_factory=dict)
    #: factions still playing, seat order (dropouts leave it)
    playing: tuple[str, ...] = ()
    prediction: Prediction | None = None
    prediction_revealed: bool = False
    last_turn: bool = False
    time_up: str | None = None
    quick: bool = False
    attempts: frozenset[tuple[int, tuple[str, ...]]] = frozenset()
    outcome: Outcome | None = None
    ended: bool = False
    #: (faction, via) -> its movement / cross-shipment in the current phase (LoLV 1.06.04.01).
    moves: Mapping[tuple[str, str], Movement] = field(default_factory=dict)
    #: Factions with ornithopter access for this movement phase when the ruleset decides it
    #: at the start of the phase (AH IX.C.2.a.i, WBC IX.10); None outside that phase.
    flyers: frozenset[str] | None = None
    #: The storm has moved in this storm phase (it moves once: LoLV 1.01.02, AH VI.C).
    storm_moved: bool = False
    #: Factions that have formed or joined an alliance in the current nexus (LoLV 1.10.01.01).
    nexus_allied: frozenset[str] = frozenset()
    #: The faction whose shipment-and-movement action is under way (LoLV 1.06.06, 4.01.16).
    acting: str | None = None
    #: Factions whose turn to ship and move is over this phase: they acted, or passed when a
    #: faction after them in storm order began (LoLV 1.06.01, AH IX.C; sixth edition).
    acted: frozenset[str] = frozenset()
    #: Where each faction made its one shipment this phase (`turn_order.shipment`; AH IX.C.1.a,
    #: LoLV 1.06.02; sixth edition).
    shipments: Mapping[str, str] = field(default_factory=dict)
    #: Cards that changed who goes when in storm order this phase (`order_card_played`):
    #: "first" / "last" -> the faction a Juice of Sappho put there (LoLV 3.02.02.02-03),
    #: "aggressor@<territory>" -> the faction it made the aggressor there (3.02.02.01),
    #: "guild_in_order" -> the faction whose Karama forced the Guild into storm order (WBC
    #: Player Aid 19; LoLV 3.01.11.02 with 2.06.12).
    order_cards: Mapping[str, str] = field(default_factory=dict)
    #: Territories the BG declared coexisting this turn (WBC XV.7-9).
    declared: frozenset[str] = frozenset()
    #: Territories the BG announced not coexisting this turn (WBC XV.8): the other factions
    #: there then, and whether every one of them has left since (`coexistence`).
    declared_apart: Mapping[str, tuple[frozenset[str], bool]] = field(default_factory=dict)
    #: A worm's territory whose devouring waits for the end of the nexus (AH VII.A.2, WBC VII.9).
    worm_pending: str | None = None
    #: Where the Hidden Mobile Stronghold points: (territory, sector) (LoLV 2.07.04, 2.07.17).
    hms: tuple[str, int] | None = None
    #: The Richese No-Field token on the board (one at most, LoLV 2.10.15): (territory, sector).
    no_field: tuple[str, int | None] | None = None
    #: Strongholds holding a Moritani Terror token (LoLV 2.12.05).
    terror: frozenset[str] = frozenset()
    #: Terror tokens revealed and out of the game (LoLV 2.12.07); the Moritani's supply is
    #: the six (2.12.03) less these and those on the board.
    terror_spent: int = 0
    #: The territory with the Atomics Aftermath token (LoLV 2.12.09.02).
    aftermath: str | None = None
    #: Stronghold -> the Ecaz Ambassador token there (its faction symbol, LoLV 2.11.05).
    ambassadors: Mapping[str, str] = field(default_factory=dict)
    #: The faction with Duke Vidal among its active leaders (LoLV 2.11.10.11, 2.11.16, 2.12.12).
    vidal: str | None = None
    #: Expansion tokens off the board: the Ambassador supply, the No-Field tokens face up
    #: (LoLV 2.11.03, 2.10.13; `supplies`).
    supplies: Supplies = NO_SUPPLIES
    #: Factions that have used their once-a-game Karama power (LoLV 1.14.00; `karama`).
    karama_used: frozenset[str] = frozenset()
    #: Leaders that fought in a battle: `(turn, owner, leader, territory)` rows, the Kwisatz
    #: Haderach as the Atreides' `kwisatz_haderach` (a leader fights in one territory a phase,
    #: LoLV 1.07.04.03, AH X.C.8; the Kwisatz Haderach in one territory a turn, 2.01.11).
    fought: frozenset[tuple[int, str, str, str]] = frozenset()
    #: Atreides forces lost in battles: the Kwisatz Haderach awakens at 7 (LoLV 2.01.10, AH
    #: X.B.2.a.i, WBC XV.1).
    kh_losses: int = 0
    #: The Kwisatz Haderach was killed by a lasgun/shield explosion (2.01.13, AH X.B.2.a.i).
    kh_dead: bool = False
    #: Leaders revived from the tanks, `(owner, leader)`: killed again, they go to the tanks
    #: face down (LoLV 1.05.04, AH IX.D.5; recorded from the ninth edition).
    leaders_revived: frozenset[tuple[str, str]] = frozenset()
    #: The Tleilaxu Ghola card's uses this turn: (turn, uses) - the deck holds one card, played
    #: once and discarded (3.01.20, AH questions A.6; checked from the ninth edition).
    ghola_used: tuple[int, int] | None = None
    #: Forces revived this turn within the limits (LoLV 1.05.01, AH IX.B.2): faction -> (turn,
    #: forces, starred forces); Karama and Ghola revivals are not counted.
    revived: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    #: The last off-planet shipment of a faction other than the BG, not yet followed by a
    #: spiritual advisor: (turn, faction, territory, sector) (LoLV 2.02.05, 2.02.11).
    shipped: tuple[int, str, str, int | None] | None = None
    #: The kind of shipment the Guild made this turn: (turn, "normal" | "cross_ship" |
    #: "off_planet") - one of the three a turn (LoLV 2.06.05, AH IX.C.1.g).
    guild_shipment: tuple[int, str] | None = None
    #: The Spice Blows placed this turn: (turn, count) - one a turn, two with the double spice
    #: blow (AH VII.A, LoLV 1.02.04; AH XXI, LoLV 1.13.02). Counted from the seventh edition.
    blown: tuple[int, int] | None = None
    #: The Ambassadors the Ecaz placed this turn: (turn, count) - each costs 1 spice more than
    #: the one before (LoLV 2.11.06).
    envoys: tuple[int, int] | None = None
    #: The bidding round: (turn, cards sold, cards dealt, over) - one card per faction able to
    #: bid (LoLV 1.04.04, AH VIII.A), over once a card is passed by everyone (1.04.09, AH VIII.E).
    auction: tuple[int, int, int, int] | None = None
    #: The turn CHOAM Charity was last collected (LoLV 1.03.02) and the turn's collection round
    #: was last recorded in one `spice_harvested`.
    #: Who opened the bidding for the last card sold: (turn, faction) - the next card's opener
    #: is the first able to bid to its right (LoLV 1.04.07, AH VIII.D).
    opened: tuple[int, str] | None = None
    charity_turn: int | None = None
    #: The CHOAM's Inflation token: (the side placed face up, "double" or "cancel"; the turn it
    #: was placed at the Mentat Pause) - it counts at the next turn's CHOAM Charity, flipped at
    #: the one after, then leaves the game (LoLV 2.09.09-12).
    inflation: tuple[str, int] | None = None
    harvest_turn: int | None = None
    #: Spice on the board: territory -> the spice in its Spice Blow sector (LoLV 1.02.04,
    #: AH VII.A.1); left there until collected (1.08.03). Known in full tracking only.
    spice_on_board: Mapping[str, int] = field(default_factory=dict)
    #: What the engine removed by itself with the last event (storm, worm, the ally
    #: constraint): `(faction, territory, sector, normal, special, advisors, rule)` rows.
    losses: tuple[tuple[str, str, int | None, int, int, int, str], ...] = field(default=(), compare=False)
    #: Spice the last event destroyed on the board: `(territory, sector, amount, rule)` rows.
    spice_lost: tuple[tuple[str, int, int, str], ...] = field(default=(), compare=False)
    #: Ambassadors the last event took off the board by itself (the storm, LoLV 2.11.09):
    #: `(symbol, territory, sector, rule)` rows, shown beside the losses.
    pieces_lost: tuple[tuple[str, str, int | None, str], ...] = field(default=(), compare=False)
    # Log bookkeeping: not part of the game state, so not compared.
    seq: int = field(default=0, compare=False)
    log: Log | None = field(default=None, compare=False)
    voided: frozenset[int] = field(default=frozenset(), compare=False)

    # --- derived facts ------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        assert self.setup is not None, "position before game_setup"
        return self.setup.ruleset

    @property
    def factions(self) -> tuple[str, ...]:
        """Factions still in the game (seat order; dropouts excluded)."""
        return self.playing

    def sheet(self, faction: str) -> Faction:
        return FACTION_SHEETS[faction]

    def side_of(self, faction: str) -> tuple[str, ...]:
        """The faction's alliance, or the faction alone."""
        for a in self.alliances:
            if faction in a:
                return a
        return (faction,)

    def allies_of(self, faction: str) -> tuple[str, ...]:
        return tuple(f for f in self.side_of(faction) if f != faction)

    def sides(self) -> list[tuple[str, ...]]:
        """Every side (an alliance or an unallied faction) still in the game, seat order."""
        seen: set[str] = set()
        out: list[tuple[str, ...]] = []
        for f in self.factions:
            if f not in seen:
                side = self.side_of(f)
                seen.update(side)
                out.append(side)
        return out

    def stacks_of(self, faction: str) -> Iterator[tuple[str, int | None, Stack]]:
        for (f, t, s), stack in self.forces.items():
            if f == faction:
                yield t, s, stack

    def on_board(self, faction: str) -> tuple[int, int, int]:
        n = sp = a = 0
        for (f, _t, _s), (x, y, z) in self.forces.items():
            if f == faction:
                n += x
                sp += y
                a += z
        return n, sp, a

    def evolve(self, **changes: Any) -> Position:
        return evolve(self, **changes)


_T = TypeVar("_T")
_REPLACERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _make_replacer(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A copy-with-changes function written out for one frozen dataclass.

    `dataclasses.replace` re-runs `__init__` through generic machinery; this copies the
    attribute dictionary (a class without slots, like `Position`) or the slots directly,
    which is what keeps a replay above 50,000 events/s. Unknown field names raise TypeError,
    like `replace` does.
    """
    names = [f.name for f in fields(cls)]
    if "__slots__" not in cls.__dict__:
        known = frozenset(names)
        new_object, set_attr = object.__new__, object.__setattr__

        def _replace_dict(self: Any, kw: dict[str, Any]) -> Any:
            if not known.issuperset(kw):
                raise TypeError(f"unknown fields {sorted(kw.keys() - known)}")
            new: Any = new_object(cls)
            values = self.__dict__.copy()
            values.update(kw)
            set_attr(new, "__dict__", values)
            return new

        return _replace_dict
    lines = [
        "def _replace(self, kw):",
        "    unknown = kw.keys() - _names",
        "    if unknown:",
        "        raise TypeError(f'unknown fields {sorted(unknown)}')",
        "    new = _new(_cls)",
    ]
    for name in names:
        lines.append(f"    _set(new, {name!r}, kw[{name!r}] if {name!r} in kw else self.{name})")
    lines.append("    return new")
    scope: dict[str, Any] = {
        "_new": object.__new__,
        "_set": object.__setattr__,
        "_cls": cls,
        "_names": frozenset(names),
    }
    exec("\n".join(lines), scope)
    fn: Callable[[Any, dict[str, Any]], Any] = scope["_replace"]
    return fn


def evolve(obj: _T, **changes: Any) -> _T:
    """A copy of a frozen dataclass with some fields changed (a fast `dataclasses.replace`)."""
    cls = type(obj)
    fn = _REPLACERS.get(cls)
    if fn is None:
        fn = _REPLACERS[cls] = _make_replacer(cls)
    result: _T = fn(obj, changes)
    return result


EMPTY = Position()
