"""The tournament formats: everything a format decides, in one document per format.

Each format is a document (`document.py`: the schema, the loader, the dump); the presets ship
as TOML in `presets/` (WBC 2018, LoLV 2.8.4, a plain Avalon Hill 1979 club format), and a
tournament keeps a frozen copy of its own, changed where its event differs. `format_from_document`
builds the `Format` object below from a checked document; a tournament's is `tournament.rules`.

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

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta
from enum import StrEnum
from importlib import resources
from types import MappingProxyType
from typing import Any

from dune.clock_limits import LIMITS, MINUTE, CallRule, Limit, call_rules, limit_words
from dune.engine.ids import CLASSIC_FACTIONS, EXPANSION_FACTIONS, FACTIONS, ResultKind
from dune.engine.rulesets import (
    COEXISTENCE,
    RULE_SWITCHES,
    RULESETS,
    SHIELD_WALL_AFTER_WORM,
    SHIELD_WALL_COUNTS,
    RoundRules,
    Ruleset,
    ruleset_with,
)
from dune.formats.document import (
    FormatDocumentError,
    differences,
    load_document,
    parse_text,
    points_of,
)
from dune.points.awards import DEFAULT_MEASURE, AwardMeasure
from dune.points.awards import award_measure as measure_named
from dune.points.numbers import to_fraction
from dune.points.registry import build_system
from dune.points.system import PointsSystem
from dune.refusals import Refusal

__all__ = [
    "FORMATS",
    "FactionDeal",
    "Format",
    "FormatDocumentError",
    "PRESETS",
    "format_from_document",
    "preset_document",
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
    #: Table sizes (consecutive, smallest first): as many tables of the largest as possible,
    #: every table at least the smallest (WBC 2018 heats and LoLV 4.01.01: 5 and 6), and the rule.
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
    #: Ruleset options every table of the format plays with (a game's setup records them).
    game_options: tuple[str, ...] = ()
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
    #: The version of the rules the document states ("2018", "2.8.4").
    version: str = ""
    #: The checked document the format was built from (JSON-ready), with the rule each of
    #: its fields comes from.
    document: Mapping[str, Any] = field(default_factory=dict)
    #: What the best-faction awards measure (the document's `awards.measure`): how they
    #: score a heat game, its key, words and unit.
    award_measure: AwardMeasure = field(default_factory=lambda: measure_named(DEFAULT_MEASURE))
    #: The table sizes the seating planner makes (the document's `tables.sizes`).
    table_sizes: tuple[int, ...] = (5, 6)
    #: Whether the final's report places every finalist (WBC Final Round Format).
    final_placings: bool = False
    #: Whether players rank the factions they would rather play, from their private link.
    faction_preferences: bool = False
    #: Whether a player at a table without a judge files its report from their private link
    #: (the others confirm or dispute it).
    self_report: bool = False

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
        try:
            ruleset_with(RULESETS[self.ruleset.key], self.game_options)
        except ValueError as exc:
            problems.append(f"options of the ruleset {self.ruleset.name}: {exc}")
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

    def rule_of(self, path: str) -> str:
        """The rule the format's document names for a field ("rounds.heat.turns")."""
        return str(self.document.get("rules", {}).get(path, ""))

    @property
    def preset(self) -> Format:
        """The preset this format's document started from (by its key)."""
        return get_format(self.key)

    def differences(self) -> tuple[Any, ...]:
        """Every field where this format differs from its preset (`document.Difference`)."""
        return differences(self.preset.document, self.document)

    @property
    def setup_options(self) -> tuple[str, ...]:
        """What every game's setup records: the ruleset's options and the rules the document
        changes (the Shield Wall, coexistence, the Fremen's strength, the spice blows)."""
        return self.game_options

    @property
    def result_kinds(self) -> tuple[ResultKind, ...]:
        """The result kinds a game report of this format may name, in the points table's order."""
        return tuple(self.points.table)


# --- building a format from its document ---------------------------------------------------

_PRESETS_DIR = "presets"
#: The preset documents by key, in the order a head judge chooses from.
_PRESET_KEYS: tuple[str, ...] = ("wbc", "lolv", "ah1979")


def _read_preset(key: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath(_PRESETS_DIR, f"{key}.toml").read_text(encoding="utf-8")
    doc = load_document(parse_text(text))
    if doc["key"] != key:
        raise ValueError(f"preset file {key}.toml names the key {doc['key']!r}")
    return doc


def _minutes(value: object) -> timedelta:
    return MINUTE * int(to_fraction(value) * 60)


def _clock(doc: Mapping[str, Any], kind: str, ruleset: Ruleset) -> Limit:
    rnd = doc["rounds"][kind]
    rules = doc["rules"]
    base = f"rounds.{kind}"
    finish = MINUTE * rnd["finish_turn_minutes"]
    key = "lolv" if finish else f"wbc_{kind}"
    rule = rules[f"{base}.hours"] if rnd["hours"] else rules[f"{base}.hours_per_player"]
    built = Limit(
        key=key,
        label="",
        rule=rule,
        ruleset=ruleset.key,
        round_kind=kind,
        base=_minutes(rnd["hours"]),
        per_player=_minutes(rnd["hours_per_player"]),
        finish_turn=finish,
        no_new_turn_before_end=MINUTE * rnd["no_new_turn_minutes"],
        # The warning stage is where new turns stop (the last N minutes), else the last 30.
        warning=MINUTE * (rnd["no_new_turn_minutes"] or 30),
        start_grace=MINUTE * rnd["start_grace_minutes"],
        grace_rule=rules[f"{base}.start_grace_minutes"] if rnd["start_grace_minutes"] else "",
        waivable=rnd["waivable"],
        turns=rnd["turns"],
        turns_rule_text=rules[f"{base}.turns"],
    )
    known = LIMITS.get(key)
    if known is not None and replace(built, label=known.label, ruleset=known.ruleset, round_kind=known.round_kind, turns=0, turns_rule_text="") == known and known.max_turns == built.turns and known.turns_rule == built.turns_rule:
        return known  # the preset's own limit, as the clocks have always named it
    return replace(built, label=_clock_label(doc, kind, built), format_name=doc["name"])


def _clock_label(doc: Mapping[str, Any], kind: str, limit: Limit) -> str:
    """The limit in words, as the clock pages show it (`limit_words` in the reader's language)."""
    return limit_words(replace(limit, format_name=doc["name"]))


def _game_options(doc: Mapping[str, Any], base: Ruleset) -> tuple[str, ...]:
    """The options every game's setup records: the ruleset's flags the document turns on and
    the rule options where the document differs from the ruleset (a rule switch the ruleset
    has and the document turns off: `name=no`)."""
    engine = doc["engine"]
    options = list(engine["options"])
    wall = base.shield_wall
    after = wall.worms_needed if wall is not None else 0
    side = "imperial_basin_side" if wall is not None and wall.left_side_only else "whole"
    if engine["shield_wall_after_worm"] != after:
        options.append(f"{SHIELD_WALL_AFTER_WORM}={engine['shield_wall_after_worm']}")
    if engine["shield_wall_after_worm"] and engine["shield_wall_counts"] != side:
        options.append(f"{SHIELD_WALL_COUNTS}={engine['shield_wall_counts']}")
    if (engine["coexistence"] == "assumed") != base.coexistence_assumed:
        options.append(f"{COEXISTENCE}={engine['coexistence']}")
    for name in sorted(RULE_SWITCHES):
        if engine[name] != getattr(base, name):
            options.append(name if engine[name] else f"{name}=no")
    return tuple(options)


def _ruleset(doc: Mapping[str, Any], base: Ruleset, options: tuple[str, ...]) -> Ruleset:
    """The game rules of the format: the engine's ruleset as its options change it, with the
    format's rounds (turns, three-faction alliances) and time at the table."""
    rules = doc["rules"]
    rounds = {}
    for kind in ("heat", "final"):
        rnd = doc["rounds"][kind]
        three = rnd["three_alliances"]
        rounds[kind] = RoundRules(
            rnd["turns"],
            rules[f"rounds.{kind}.turns"],
            three_alliances=three,
            three_alliances_rule="" if three else rules[f"rounds.{kind}.three_alliances"],
        )
    varied = ruleset_with(base, options)
    same_rounds = dict(varied.rounds) == rounds
    chips, timers = doc["table_time"]["diplomacy_chips"], doc["table_time"]["call_timers"]
    if same_rounds and chips == varied.diplomacy_chips and timers == varied.call_timers:
        return varied
    return replace(
        varied,
        rounds=varied.rounds if same_rounds else MappingProxyType(rounds),
        diplomacy_chips=chips,
        call_timers=timers,
    )


def _build(doc: Mapping[str, Any]) -> Format:
    rules = doc["rules"]
    base = RULESETS[doc["engine"]["ruleset"]]
    options = _game_options(doc, base)
    ruleset = _ruleset(doc, base, options)
    pts = doc["points"]
    system = pts["system"]
    table_kinds = {k for k in points_of(doc) if k not in build_system(system).refused}
    points = build_system(
        system,
        finalist_seats=pts["finalists"],
        alternates=None if pts["alternates"] == "all" else pts["alternates"],
        points={k: v for k, v in points_of(doc).items() if k in table_kinds},
        rules={k: rules[f"points.results.{k.value}"] for k in table_kinds},
        tiebreaks=pts["tiebreaks"],
        dropout_disqualifies=pts["dropout_disqualifies"],
        dropout_rule=rules["points.dropout_disqualifies"],
        qualifying_rule=rules["points.finalists"],
    )
    citations = {k: v for k, v in doc["citations"].items() if k != "report"}
    return Format(
        key=doc["key"],
        name=doc["name"],
        long_name=doc["long_name"],
        text=doc["text"],
        version=doc["version"],
        ruleset=ruleset,
        table_sizes_rule=rules["tables.sizes"],
        table_sizes=tuple(doc["tables"]["sizes"]),
        final_placings=doc["points"]["final_placings"],
        faction_preferences=doc["players"]["faction_preferences"],
        self_report=doc["players"]["self_report"],
        faction_deal=FactionDeal(doc["factions"]["deal"]),
        faction_rule=rules["factions.deal"],
        factions=tuple(doc["factions"]["pool"]),
        final_factions=tuple(doc["factions"]["final_pool"]),
        faction_trades=doc["factions"]["trades"],
        clocks=MappingProxyType({kind: _clock(doc, kind, ruleset) for kind in ROUND_KINDS}),
        tracking=MappingProxyType({kind: Tracking(doc["rounds"][kind]["tracking"]) for kind in ROUND_KINDS}),
        game_options=tuple(options),
        points=points,
        awards=doc["awards"]["best_faction"],
        awards_rule=rules["awards.best_faction"],
        award_measure=measure_named(doc["awards"]["measure"]),
        report_rule=doc["citations"]["report"],
        citations=MappingProxyType(citations),
        document=MappingProxyType(doc),
    )


_BUILT: dict[str, Format] = {}


def format_from_document(data: object) -> Format:
    """The format a document describes (checked by `load_document`); one object per distinct
    document.

    Raises FormatDocumentError naming every bad field; UnknownFormat when the document's key
    names no preset (a tournament's document keeps its preset's key).
    """
    raw = json.dumps(data, sort_keys=True, default=dict) if isinstance(data, Mapping) else None
    found = _BUILT.get(raw) if raw is not None else None
    if found is not None:
        return found
    doc = load_document(data)
    if doc["key"] not in PRESETS:
        known = ", ".join(PRESETS)
        raise FormatDocumentError({"key": f"names no preset ({doc['key']!r}); known: {known}"})
    text = json.dumps(doc, sort_keys=True)
    found = _BUILT.get(text)
    if found is None:
        found = _BUILT[text] = _build(doc)
    if raw is not None and len(_BUILT) < 10_000:
        _BUILT[raw] = found
    return found


def preset_document(key: object) -> dict[str, Any]:
    """A fresh copy of a preset's document. Raises UnknownFormat for another key."""
    copy: dict[str, Any] = json.loads(json.dumps(dict(get_format(key).document)))
    return copy


#: The preset documents by key (checked at import).
PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType({k: _read_preset(k) for k in _PRESET_KEYS})

WBC = _build(PRESETS["wbc"])
LOLV = _build(PRESETS["lolv"])
AH1979 = _build(PRESETS["ah1979"])
# A tournament whose document is its preset's gets the preset object itself.
_BUILT.update({json.dumps(f.document, sort_keys=True, default=dict): f for f in (WBC, LOLV, AH1979)})

#: Every format by key, in the order a head judge chooses from.
FORMATS: Mapping[str, Format] = MappingProxyType({f.key: f for f in (WBC, LOLV, AH1979)})


def get_format(key: object) -> Format:
    """The format registered under `key` (a `Format` itself, e.g. a tournament's own built from
    its document, is answered as it is).

    Raises UnknownFormat (naming the known keys) for any other value.
    """
    if isinstance(key, Format):
        return key  # a tournament's own format, built from its document
    if isinstance(key, str) and key in FORMATS:
        return FORMATS[key]
    known = ", ".join(f"{f.key} ({f.name})" for f in FORMATS.values())
    raise UnknownFormat(f"unknown format {key!r}; known formats: {known}", field="format", offending=key)


def format_choices() -> list[tuple[str, str]]:
    """(key, name) pairs for a model field or a form."""
    return [(f.key, f.name) for f in FORMATS.values()]
