"""The tournament formats: everything a format decides, in one definition per format.

A tournament plays one format (the tournament rules: how tables are seated, how factions are
assigned, how long games last, how games are scored and who reaches the final). Every part of
the platform that depends on the format asks this registry: `get_format(tournament.format)`.
Nothing else compares format keys; adding a format means adding one `Format` here (and its
points system in `dune.points`) plus its tests.

Pure Python: the cores and the Django layer both import it.

    >>> get_format("wbc").turn_limit("final")
    15
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from dune.clock_limits import CHIPS_PER_PLAYER, Limit, limit_for
from dune.engine.ids import CLASSIC_FACTIONS, EXPANSION_FACTIONS, FACTIONS, RULESETS, ResultKind
from dune.points import SYSTEMS, PointsSystem
from dune.refusals import Refusal

__all__ = [
    "FORMATS",
    "FactionDeal",
    "Format",
    "ROUND_KINDS",
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


@dataclass(frozen=True, kw_only=True)
class Format:
    """One tournament format. Each field says which rule it comes from."""

    #: The stable id stored on the tournament (`Tournament.format`).
    key: str
    #: What people read ("WBC Dune"), and the longer name with the edition for choosing one.
    name: str
    long_name: str
    #: The rules text everything below is cited from.
    text: str
    #: The game rules played (an engine ruleset key): AH 1979 with the WBC house rules, or the
    #: LoLV rulebook.
    ruleset: str
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
    #: The clock limit (a `dune.clock_limits` key) per round kind, with its turn limit and rule.
    clocks: Mapping[str, str]
    #: Diplomacy chips each player may spend per game (0: the format has none).
    diplomacy_chips: int
    chips_rule: str
    #: The points system (a `dune.points` key): points per result kind, the tiebreak
    #: precedence, the dropout rule and the qualifying rule.
    scoring: str
    #: Seats at the final table, and whether the format names best-faction awards.
    finalist_seats: int = 6
    awards: bool = False
    awards_rule: str = ""
    #: The rule behind the result kinds and the report (cited on report pages).
    report_rule: str = ""
    #: Further rules the platform cites by topic ("dropouts", "qualifying", "latecomers").
    citations: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = []
        if self.ruleset not in RULESETS:
            problems.append(f"unknown ruleset {self.ruleset!r}")
        if self.scoring not in SYSTEMS:
            problems.append(f"unknown points system {self.scoring!r}")
        if set(self.clocks) != set(ROUND_KINDS):
            problems.append(f"clocks must name a limit for each of {ROUND_KINDS}")
        for key in self.clocks.values():
            limit_for(key)  # raises for an unknown limit
        unknown = [f for f in (*self.factions, *self.final_factions) if f not in FACTIONS]
        if unknown:
            problems.append(f"unknown factions {unknown}")
        if problems:
            raise ValueError(f"format {self.key!r}: " + "; ".join(problems))

    # --- questions the rest of the platform asks -------------------------------------------

    def clock_key(self, round_kind: str) -> str:
        """The clock limit a table of this round kind plays under.

        Raises UnknownFormat for an unknown round kind.
        """
        try:
            return self.clocks[round_kind]
        except KeyError:
            raise UnknownFormat(
                f"a round is a heat or a final, not {round_kind!r}", field="kind", offending=round_kind
            ) from None

    def clock(self, round_kind: str) -> Limit:
        return limit_for(self.clock_key(round_kind))

    def turn_limit(self, round_kind: str) -> int:
        """How many game turns a table of this round kind plays at most."""
        return self.clock(round_kind).max_turns

    def points_system(self) -> PointsSystem:
        """The format's points system, sized for its final table."""
        return SYSTEMS[self.scoring](finalist_seats=self.finalist_seats)

    @property
    def deals_cards(self) -> bool:
        """LoLV 0.08: factions come from two dealt alliance cards (one is kept)."""
        return self.faction_deal is FactionDeal.DEAL_TWO_KEEP_ONE

    @property
    def tiebreak_labels(self) -> tuple[str, ...]:
        return self.points_system().tiebreak_labels

    @property
    def result_kinds(self) -> tuple[ResultKind, ...]:
        """The result kinds a game report of this format may name, in the points table's order."""
        return tuple(self.points_system().table)


WBC = Format(
    key="wbc",
    name="WBC Dune",
    long_name="WBC Dune (2018 format)",
    text="WBC 2018 Dune tournament format",
    ruleset="wbc2018",
    table_sizes_rule="WBC 2018 format (heats: tables of 6, at least 5)",
    faction_deal=FactionDeal.DRAW,
    faction_rule="WBC 2018 house rules (faction draw and trades)",
    factions=CLASSIC_FACTIONS,
    final_factions=CLASSIC_FACTIONS,
    faction_trades=True,
    clocks=MappingProxyType({"heat": "wbc_heat", "final": "wbc_final"}),
    diplomacy_chips=CHIPS_PER_PLAYER,
    chips_rule="WBC diplomacy chips",
    scoring="wbc",
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
    ruleset="lolv-2.8.4",
    table_sizes_rule="LoLV 4.01.01",
    faction_deal=FactionDeal.DEAL_TWO_KEEP_ONE,
    faction_rule="LoLV 0.08",
    factions=CLASSIC_FACTIONS + EXPANSION_FACTIONS,
    final_factions=FACTIONS,
    faction_trades=False,
    clocks=MappingProxyType({"heat": "lolv", "final": "lolv"}),
    diplomacy_chips=0,
    chips_rule="",
    scoring="lolv",
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
