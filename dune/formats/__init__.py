"""The tournament formats: everything a format decides, in one definition per format.

A tournament plays one format (the tournament rules: how tables are seated, how factions are
assigned, how long games last, how deep a table judge tracks the game, how games are scored
and who reaches the final). A `Format` owns each of these as an object: its engine ruleset,
its points system (sized for its final table), its clock limit per round kind, its faction
roster and deal. The rest of the platform asks `get_format(tournament.format)` (or
`tournament.rules`) and never looks a ruleset, points system or clock limit up by key; those
lookups stay inside this package (an import contract keeps the points registry private).

Pure Python: the cores and the Django layer both import it.

    >>> get_format("wbc").turn_limit("final")
    15
    >>> get_format("lolv").diplomacy_chips
    0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from dune.clock_limits import LOLV_LIMIT, WBC_FINAL_LIMIT, WBC_HEAT_LIMIT, CallRule, Limit, call_rules
from dune.engine.ids import CLASSIC_FACTIONS, EXPANSION_FACTIONS, FACTIONS, ResultKind
from dune.engine.rulesets import LOLV284, WBC2018, Ruleset
from dune.points.registry import build_system
from dune.points.system import PointsSystem
from dune.refusals import Refusal

__all__ = [
    "FORMATS",
    "FactionDeal",
    "Format",
    "ROUND_KINDS",
    "Tracking",
    "UnknownFormat",
    "format_choices",
    "get_format",
]

#: The kinds of round a tournament has (tournament.Round.Kind).
ROUND_KINDS: tuple[str, ...] = ("heat", "final")


class UnknownFormat(Refusal):
    """A format key, or a round kind, that no registered format knows."""


class FactionDeal(StrEnum):
    """How a heat's players get their factions."""

    #: WBC house rules: the six classic factions are drawn at random, one each (one stays
    #: out at a table of five); players at a table may trade by consent.
    DRAW = "draw"
    #: LoLV 0.08: each player is dealt one classic and one expansion alliance card and keeps one.
    DEAL_TWO_KEEP_ONE = "deal_two_keep_one"


class Tracking(StrEnum):
    """How much of a game the table judge records."""

    #: Who stands in each stronghold at the battle phase and the Mentat Pause, win attempts,
    #: the ending: what the tournament rules need to score a game.
    QUICK = "quick"
    #: Every force, spice and card: the engine removes what storms and worms destroy.
    FULL = "full"


@dataclass(frozen=True, kw_only=True)
class Format:
    """One tournament format. Each field says which rule it comes from."""

    #: The stable id stored on the tournament (`Tournament.format`).
    key: str
    #: What people read ("WBC Dune"), and the longer name with the edition for choosing one.
    name: str
    long_name: str
    #: The rules text everything below is cited from (shown on the tournament's pages).
    text: str
    #: The game rules played: AH 1979 with the WBC house rules, or the LoLV rulebook. Its turn
    #: limit, diplomacy chips and call-the-clock timers are the engine's (one home each).
    ruleset: Ruleset
    #: Table sizes: as many tables of six as possible, every table at least five.
    table_sizes_rule: str
    #: How factions are assigned at a heat table, the rule, and which factions may be in play.
    faction_deal: FactionDeal
    faction_rule: str
    factions: tuple[str, ...]
    #: The factions a finalist may pick from (in qualifying order).
    final_factions: tuple[str, ...]
    #: Whether players at a table may trade factions (and take the undrawn one) by consent.
    faction_trades: bool
    #: The clock limit per round kind (its turn limit is the ruleset's for that round kind).
    clocks: Mapping[str, Limit]
    #: How deep the table judge tracks a game of each round kind.
    tracking: Mapping[str, Tracking]
    #: The points system: points per result kind, the tiebreak precedence, the dropout rule,
    #: the qualifying rule and the size of the final table.
    points: PointsSystem
    #: Whether the format names best-faction awards, and the rule.
    awards: bool = False
    awards_rule: str = ""
    #: The rule behind the result kinds and the game report (cited on report pages).
    report_rule: str = ""
    #: Further rules the platform cites by topic ("dropouts", "qualifying", "latecomers").
    citations: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = []
        if set(self.clocks) != set(ROUND_KINDS):
            problems.append(f"clocks must name a limit for each of {ROUND_KINDS}")
        if set(self.tracking) != set(ROUND_KINDS):
            problems.append(f"tracking must name a depth for each of {ROUND_KINDS}")
        for kind, limit in self.clocks.items():
            if limit.max_turns != self.ruleset.turn_limit_for(kind):
                problems.append(
                    f"the {kind} clock allows {limit.max_turns} turns, the ruleset {self.ruleset.turn_limit_for(kind)}"
                )
        unknown = [f for f in (*self.factions, *self.final_factions) if f not in FACTIONS]
        if unknown:
            problems.append(f"unknown factions {unknown}")
        outside = [f for f in (*self.factions, *self.final_factions) if f not in self.ruleset.factions]
        if outside:
            problems.append(f"factions {outside} are not in the ruleset {self.ruleset.name}")
        if problems:
            raise ValueError(f"format {self.key!r}: " + "; ".join(problems))

    # --- questions the rest of the platform asks -------------------------------------------

    def _kind(self, round_kind: str) -> str:
        if round_kind not in ROUND_KINDS:
            raise UnknownFormat(
                f"a round is a heat or a final, not {round_kind!r}", field="kind", offending=round_kind
            )
        return round_kind

    def clock(self, round_kind: str) -> Limit:
        """The clock limit a table of this round kind plays under.

        Raises UnknownFormat for an unknown round kind.
        """
        return self.clocks[self._kind(round_kind)]

    def clock_key(self, round_kind: str) -> str:
        """The stored name of that clock limit (`TableClock.limit_key`)."""
        return self.clock(round_kind).key

    def turn_limit(self, round_kind: str) -> int:
        """How many game turns a table of this round kind plays at most (the ruleset's)."""
        return self.ruleset.turn_limit_for(self._kind(round_kind))

    def tracking_for(self, round_kind: str) -> Tracking:
        """How deep the table judge tracks a game of this round kind."""
        return self.tracking[self._kind(round_kind)]

    @property
    def finalist_seats(self) -> int:
        """Seats at the final table (the points system selects that many finalists)."""
        return self.points.finalist_seats

    @property
    def diplomacy_chips(self) -> int:
        """Diplomacy chips each player may spend per game (0: the format has none)."""
        return self.ruleset.diplomacy_chips

    @property
    def call_timers(self) -> tuple[CallRule, ...]:
        """The call-the-clock timers a judge may start at a table (none without them)."""
        return call_rules() if self.ruleset.call_timers else ()

    @property
    def deals_cards(self) -> bool:
        """LoLV 0.08: factions come from two dealt alliance cards (one is kept)."""
        return self.faction_deal is FactionDeal.DEAL_TWO_KEEP_ONE

    @property
    def heat_factions(self) -> tuple[tuple[str, ...], ...]:
        """The pools a heat's factions come from: the classic factions (WBC house rules), or
        one classic and one expansion card each (LoLV 0.08)."""
        if not self.deals_cards:
            return (self.factions,)
        return (
            tuple(f for f in self.factions if f in CLASSIC_FACTIONS),
            tuple(f for f in self.factions if f in EXPANSION_FACTIONS),
        )

    @property
    def result_kinds(self) -> tuple[ResultKind, ...]:
        """The result kinds a game report of this format may name, in the points table's order."""
        return tuple(self.points.table)


WBC = Format(
    key="wbc",
    name="WBC Dune",
    long_name="WBC Dune (2018 format)",
    text="WBC 2018 Dune tournament format",
    ruleset=WBC2018,
    table_sizes_rule="WBC 2018 format (heats: tables of 6, at least 5)",
    faction_deal=FactionDeal.DRAW,
    faction_rule="WBC 2018 house rules (faction draw and trades)",
    factions=CLASSIC_FACTIONS,
    final_factions=CLASSIC_FACTIONS,
    faction_trades=True,
    clocks=MappingProxyType({"heat": WBC_HEAT_LIMIT, "final": WBC_FINAL_LIMIT}),
    # The README's tour: quick tracking in the heats, every force in the final.
    tracking=MappingProxyType({"heat": Tracking.QUICK, "final": Tracking.FULL}),
    points=build_system("wbc", finalist_seats=6),
    awards=True,
    awards_rule="WBC best-faction awards (performance points)",
    report_rule="WBC 2018 format (game results and qualification points)",
    citations=MappingProxyType(
        {
            "dropouts": "WBC Dropouts",
            "qualifying": "WBC Advancement to Finals",
            "latecomers": "WBC 2018 format (15-minute grace period)",
        }
    ),
)

LOLV = Format(
    key="lolv",
    name="Landsraad of Las Vegas",
    long_name="Landsraad of Las Vegas 2.8.4",
    text="Landsraad of Las Vegas tournament rules 2.8.4",
    ruleset=LOLV284,
    table_sizes_rule="LoLV 4.01.01",
    faction_deal=FactionDeal.DEAL_TWO_KEEP_ONE,
    faction_rule="LoLV 0.08",
    factions=CLASSIC_FACTIONS + EXPANSION_FACTIONS,
    final_factions=FACTIONS,
    faction_trades=False,
    clocks=MappingProxyType({"heat": LOLV_LIMIT, "final": LOLV_LIMIT}),
    tracking=MappingProxyType({"heat": Tracking.QUICK, "final": Tracking.FULL}),
    points=build_system("lolv", finalist_seats=6),
    report_rule="LoLV 4.01.07 (game report) and 4.01.09 (points)",
    citations=MappingProxyType({"qualifying": "LoLV 4.01.10", "seat_order": "LoLV 0.07"}),
)

#: Every format by key, in the order a head judge chooses from.
FORMATS: Mapping[str, Format] = MappingProxyType({f.key: f for f in (WBC, LOLV)})


def get_format(key: object) -> Format:
    """The format registered under `key`.

    Raises UnknownFormat (naming the known keys) for any other value.
    """
    if isinstance(key, str) and key in FORMATS:
        return FORMATS[key]
    known = ", ".join(f"{f.key} ({f.name})" for f in FORMATS.values())
    raise UnknownFormat(f"unknown format {key!r}; known formats: {known}", field="format", offending=key)


def format_choices() -> list[tuple[str, str]]:
    """(key, name) pairs for a model field or a form."""
    return [(f.key, f.name) for f in FORMATS.values()]
