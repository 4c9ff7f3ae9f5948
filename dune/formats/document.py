"""A format as a document: the schema every field is checked against, one loader, one dump.

A format document is plain data (TOML for the presets in `presets/`, JSON for the API and for
upload and download): tables and lists of numbers, booleans and words, never code. Strategies a
number cannot say (how factions are dealt, the tiebreakers, the award measure) are named by
key from small registries. `[rules]` names, for every field, the rule it comes from (the page
shows it beside the value and the tournament page beside each difference from the preset).

`load_document(data)` checks every field (type, range, known keys, consistency such as a round's
turn limit against the engine's longest game) and raises ONE `FormatDocumentError` naming every
bad field; it answers the normalised document (a plain dict, JSON-ready). `dump_toml` writes a
document back as TOML; `apply_changes` gives a document with some fields changed (still
unchecked: load it). `differences` lists the fields where two documents differ.

Pure Python (`tomllib` from the standard library); no Django.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dune.engine.ids import CLASSIC_FACTIONS, EXPANSION_FACTIONS, FACTIONS, ResultKind
from dune.engine.names import faction_name
from dune.engine.rulesets import (
    COEXISTENCE_CHOICES,
    MOST_WORMS,
    RULE_SWITCHES,
    RULESETS,
    SHIELD_WALL_SIDES,
)
from dune.points.awards import MEASURES
from dune.points.numbers import fmt, to_fraction
from dune.points.registry import SYSTEMS, TIEBREAKERS
from dune.refusals import Refusal
from dune.text_rules import MAX_JSON_DEPTH, nesting_depth_exceeds, toml_nesting_exceeds, value_nesting_exceeds

#: The schema version a document declares (`schema = 2`). Schema 1 recorded the Fremen at
#: full strength and the double spice blow as rules the table judge added to the ruleset's, so
#: a schema 1 document reads them as its value or the ruleset's own (`_upgrade`).
SCHEMA = 2
OLD_SCHEMAS: tuple[int, ...] = (1,)
#: The rule a schema 1 document is read with for the final's placings (added in schema 2).
PLACINGS_RULE = "WBC Final Round Format"
NO_PLACINGS_RULE = "no final placings (WBC Final Round Format not played)"
#: The kinds of round a format has (tournament.Round.Kind).
ROUND_KINDS: tuple[str, ...] = ("heat", "final")
#: How factions are dealt, by key (`dune.formats.FactionDeal`).
DEALS: Mapping[str, str] = {
    "draw": "the classic factions drawn at random, one each",
    "deal_two_keep_one": "one classic and one expansion alliance card dealt, one kept",
}
TRACKING: Mapping[str, str] = {
    "quick": "quick tracking (who stands in each stronghold, win attempts, the ending)",
    "full": "full tracking (every force, spice and card)",
}
#: How best-faction awards measure a game, by key (`dune.points.awards.MEASURES`).
AWARD_MEASURES: Mapping[str, str] = {key: m.summary for key, m in MEASURES.items()}
#: The topics a document may cite further rules for, and what each is.
CITATION_TOPICS: Mapping[str, str] = {
    "report": "the rule behind the result kinds and the game report",
    "dropouts": "the dropout rule",
    "qualifying": "who qualifies for the final",
    "latecomers": "players who arrive late",
    "seat_order": "the order players sit in",
}
#: The table sizes a document may allow: consecutive numbers within these (the board has six
#: player markers; AH 1979 is a game for two to six).
TABLE_SIZES: tuple[int, ...] = (2, 3, 4, 5, 6)
#: Fields that describe the document rather than a rule (no rule cited for them).
META: tuple[str, ...] = ("schema", "key", "name", "long_name", "version", "text")


class FormatDocumentError(Refusal):
    """A format document the platform refuses: `problems` names every bad field and why."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        self.problems = dict(problems)
        first = next(iter(self.problems))
        text = "; ".join(f"{path}: {why}" for path, why in self.problems.items())
        super().__init__(f"the format document is refused: {text}", field=first, rule="format document")

    def to_dict(self) -> dict[str, Any]:
        body = super().to_dict()
        body["fields"] = self.problems
        return body


# --- the schema --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the schema: where it is, what people read, the check of its value."""

    path: str
    group: str
    words: str
    #: Checks one value: answers the normalised value, or raises ValueError saying why.
    check: Callable[[Any], Any]
    #: What the value means, for `docs/formats.md` and the page.
    help: str = ""
    #: The values a person chooses from (a choice field), in order.
    choices: tuple[str, ...] = ()


def _int(low: int, high: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"a whole number is expected, not {value!r}")
        if not low <= value <= high:
            raise ValueError(f"must be from {low} to {high}, not {value}")
        return value

    return check


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"true or false is expected, not {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a non-empty text is expected")
    if len(value) > 200:
        raise ValueError("at most 200 characters")
    return value.strip()


def _shown(value: Any) -> str:
    """A refused value in a message: a list or table by its kind, not its whole text."""
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _choice(choices: Mapping[str, str] | tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in choices:  # a list or table is no choice
            raise ValueError(f"one of {', '.join(choices)} is expected, not {_shown(value)}")
        return str(value)

    return check


def _number(high: int, *, minute: bool = False) -> Callable[[Any], int | float]:
    """A number from 0 to `high` (hours: whole minutes); kept as an int when whole."""

    def check(value: Any) -> int | float:
        try:
            exact = to_fraction(value)
        except (TypeError, ValueError):
            raise ValueError(f"a number is expected, not {value!r}") from None
        if not 0 <= exact <= high:
            raise ValueError(f"must be from 0 to {high}, not {fmt(exact)}")
        if minute and (exact * 60).denominator != 1:
            raise ValueError(f"{fmt(exact)} hours is not a whole number of minutes")
        return int(exact) if exact.denominator == 1 else float(fmt(exact, places=6))

    return check


def _points(value: Any) -> str:
    try:
        exact = to_fraction(value)
    except (TypeError, ValueError):
        raise ValueError(f"a number of points is expected, not {value!r}") from None
    if not 0 <= exact <= 100:
        raise ValueError(f"points must be from 0 to 100, not {fmt(exact)}")
    text = fmt(exact, places=6)
    if to_fraction(text) != exact:
        raise ValueError(f"{value!r} has more than six decimals")
    return text


def _factions(value: Any) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(f, str) for f in value):
        raise ValueError("a list of faction ids is expected")
    unknown = [f for f in value if f not in FACTIONS]
    if unknown:
        raise ValueError(f"unknown factions {unknown!r}; known: {', '.join(FACTIONS)}")
    if len(set(value)) != len(value):
        raise ValueError("a faction is listed twice")
    return [str(f) for f in value]


def _sizes(value: Any) -> list[int]:
    """Consecutive table sizes, smallest first ([5, 6], [4, 5, 6], [6])."""
    if not isinstance(value, list) or not value or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise ValueError(f"a list of whole numbers of players is expected, not {value!r}")
    low, high = min(TABLE_SIZES), max(TABLE_SIZES)
    if any(not low <= v <= high for v in value):
        raise ValueError(f"a table seats {low} to {high} players, not {value!r}")
    sizes = sorted(set(value))
    if len(sizes) != len(value) or sizes != list(range(sizes[0], sizes[-1] + 1)):
        raise ValueError(f"consecutive sizes, smallest first, each once (such as [4, 5, 6]), not {value!r}")
    return sizes


def _keys(registry: Mapping[str, Any]) -> Callable[[Any], list[str]]:
    def check(value: Any) -> list[str]:
        # Only text can be a key: a list or a table inside the list is refused before any lookup.
        if not isinstance(value, list) or not value or not all(isinstance(k, str) for k in value):
            raise ValueError("a non-empty list of keys is expected")
        unknown = [k for k in value if k not in registry]
        if unknown:
            raise ValueError(f"unknown {unknown!r}; known: {', '.join(registry)}")
        if len(set(value)) != len(value):
            raise ValueError("a key is listed twice")
        return [str(k) for k in value]

    return check


def _options(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("a list of option names is expected")
    if len(set(value)) != len(value):
        raise ValueError("an option is listed twice")
    return sorted(value)


def _alternates(value: Any) -> int | str:
    if value == "all":
        return "all"
    try:
        return _int(0, 1000)(value)
    except ValueError:
        raise ValueError(f"\"all\" or a whole number from 0 to 1000 is expected, not {value!r}") from None


_ROUND_FIELDS: tuple[tuple[str, str, Callable[[Any], Any], str], ...] = (
    ("turns", "turn limit", _int(1, 15), "the most game turns a table plays"),
    ("hours", "time limit (hours)", _number(24, minute=True), "the fixed time limit of a table"),
    ("hours_per_player", "time per player (hours)", _number(4, minute=True), "time added per player at the table"),
    ("finish_turn_minutes", "minutes to finish the turn", _int(0, 240), "time after the limit to finish the turn in progress"),
    ("no_new_turn_minutes", "no new turn in the last (minutes)", _int(0, 120), "no new turn starts this long before the end (0: turns start until the time is up); the clock's warning stage"),
    ("start_grace_minutes", "start grace (minutes)", _int(0, 120), "games begin within this time of the scheduled start"),
    ("waivable", "time limit waivable by all players", _bool, "all players may waive the time limit at the start"),
    ("tracking", "tracking depth", _choice(TRACKING), "how much of a game the table judge records"),
    ("three_alliances", "three-faction alliances", _bool, "whether three-faction alliances may form in this round"),
)


def _schema() -> tuple[Field, ...]:
    fields: list[Field] = [
        Field("tables.sizes", "Tables", "table sizes", _sizes, "consecutive numbers of players per table (2 to 6): the seating planner seats as many tables of the largest as possible, every table at least the smallest"),
        Field("factions.pool", "Factions", "factions dealt in the heats", _factions, "the factions a heat's players get theirs from"),
        Field("factions.final_pool", "Factions", "factions finalists pick from", _factions, "the factions finalists choose from, in qualifying order"),
        Field("factions.deal", "Factions", "how factions are dealt", _choice(DEALS), "; ".join(f"`{k}`: {v}" for k, v in DEALS.items()), tuple(DEALS)),
        Field("factions.trades", "Factions", "faction trades by consent", _bool, "players at a table may trade factions (and take the undrawn one) by consent"),
    ]
    for kind in ROUND_KINDS:
        for name, words, check, help_text in _ROUND_FIELDS:
            group = "Heats" if kind == "heat" else "The final"
            choices = tuple(TRACKING) if name == "tracking" else ()
            fields.append(Field(f"rounds.{kind}.{name}", group, words, check, help_text, choices))
    fields += [
        Field("engine.ruleset", "Game rules", "rules of the game", _choice(tuple(RULESETS)), "the engine's ruleset: " + ", ".join(f"`{k}` ({r.name})" for k, r in RULESETS.items()), tuple(RULESETS)),
        Field("engine.options", "Game rules", "ruleset options", _options, "the ruleset's own options (AH section XX house rules, the LoLV Advanced game)"),
        Field("engine.shield_wall_after_worm", "Game rules", "Shield Wall a stronghold after worm", _int(0, MOST_WORMS), "the Shield Wall counts as a stronghold once this many worms appeared after the first turn (0: never)"),
        Field("engine.shield_wall_counts", "Game rules", "Shield Wall side that counts", _choice(SHIELD_WALL_SIDES), "`whole`: the whole territory; `imperial_basin_side`: only the side touching the Imperial Basin", SHIELD_WALL_SIDES),
        Field("engine.coexistence", "Game rules", "BG coexistence", _choice(COEXISTENCE_CHOICES), "`assumed`: the BG is coexisting unless it says otherwise; `declared`: only when declared", COEXISTENCE_CHOICES),
        Field("engine.fremen_full_strength", "Game rules", "Fremen at full strength in every battle", _bool, "with spice dialing, the Fremen's forces count at full strength without spice in every battle (off: supported like every faction's); the engine resolves battles so"),
        Field("engine.double_spice_blow", "Game rules", "two spice blows a turn", _bool, "two Spice Blows each spice blow phase (off: one); the engine refuses a blow more"),
        Field("table_time.diplomacy_chips", "Time at the table", "diplomacy chips per player per game", _int(0, 10), "each chip buys a timed talk away from the table (0: none)"),
        Field("table_time.call_timers", "Time at the table", "call-the-clock timers", _bool, "a judge may call the clock on a bid, a turn, a battle plan, a nexus"),
        Field("points.system", "Points", "points system", _choice(tuple(SYSTEMS)), "the labels and refused result kinds: " + ", ".join(SYSTEMS), tuple(SYSTEMS)),
    ]
    for kind in ResultKind:
        fields.append(Field(f"points.results.{kind.value}", "Points", f"points for {kind.value.replace('_', ' ')}", _points, "points per seat with this result"))
    fields += [
        Field("points.tiebreaks", "Points", "tiebreak order", _keys(TIEBREAKERS), "tiebreakers after total points: " + ", ".join(f"`{k}` ({tb.summary})" for k, tb in TIEBREAKERS.items())),
        Field("points.dropout_disqualifies", "Points", "a dropout is barred from the final", _bool, "a player who drops out of a game is disqualified"),
        Field("points.finalists", "Final", "finalists", _int(1, 6), "seats at the final table"),
        Field("points.alternates", "Final", "alternates", _alternates, "how many alternates are listed after the finalists (\"all\": every eligible player)"),
        Field("points.final_placings", "Final", "final placings", _bool, "the final's report places every finalist, 1st to last: the winner, the allies, then the adjudication criteria (WBC Final Round Format); without it the final names its winners only"),
        Field("awards.best_faction", "Awards", "best-faction awards", _bool, "the format names a best player of each faction"),
        Field("awards.measure", "Awards", "best-faction measure", _choice(AWARD_MEASURES), "; ".join(f"`{k}`: {v}" for k, v in AWARD_MEASURES.items()), tuple(AWARD_MEASURES)),
        Field("players.faction_preferences", "Players", "faction preferences", _bool, "players rank the factions they would rather play from their private link, for the head judge to read before seating (off: nobody is asked)"),
        Field("players.self_report", "Players", "player self-report", _bool, "at a table without a judge, a player files the game report from their private link and the others confirm or dispute it (off: only a judge files)"),
    ]
    return tuple(fields)


#: Fields added since schema 2 without changing how a document plays: a document written before
#: them reads each as off, citing why (`load_document`).
ADDED_OFF: Mapping[str, str] = {
    "players.faction_preferences": "not in the format (a platform option, off)",
    "players.self_report": "not in the format (a platform option, off)",
}


#: Every rule-bearing field of a document, in the order the page and the docs show them.
FIELDS: tuple[Field, ...] = _schema()
FIELDS_BY_PATH: Mapping[str, Field] = {f.path: f for f in FIELDS}


# --- reading -----------------------------------------------------------------------------


def _get(doc: Mapping[str, Any], path: str) -> Any:
    node: Any = doc
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            raise KeyError(path)
        node = node[part]
    return node


def _set(doc: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    node = doc
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[parts[-1]] = value


def _leaves(doc: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    for key, value in doc.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and key != "rules" and prefix + key != "citations":
            yield from _leaves(value, f"{path}.")
        else:
            yield path


def parse_text(text: str) -> dict[str, Any]:
    """A document from its text: JSON when it starts with `{`, TOML otherwise.

    Raises FormatDocumentError (field `document`) for text that is neither.
    """
    is_json = text.lstrip().startswith("{")
    deep = f"nested more than {MAX_JSON_DEPTH} levels deep: a format document needs a few"
    if (nesting_depth_exceeds if is_json else toml_nesting_exceeds)(text):
        raise FormatDocumentError({"document": deep})  # before the parser recurses once per level
    try:
        data = json.loads(text) if is_json else tomllib.loads(text)
    except (ValueError, RecursionError, tomllib.TOMLDecodeError) as exc:
        raise FormatDocumentError({"document": f"neither JSON nor TOML: {exc}"}) from None
    if value_nesting_exceeds(data):  # TOML's dotted keys nest without brackets
        raise FormatDocumentError({"document": deep})
    if not isinstance(data, dict):
        raise FormatDocumentError({"document": "a document is a table of fields"})
    return data


def load_document(data: object) -> dict[str, Any]:
    """The normalised, checked document.

    Raises FormatDocumentError naming every bad field: an unknown or missing field, a wrong
    type, a value out of range, a field without its rule, an inconsistency between fields.
    """
    if not isinstance(data, Mapping):
        raise FormatDocumentError({"document": "a document is a table of fields"})
    problems: dict[str, str] = {}
    out: dict[str, Any] = {}
    # The description.
    schema = data.get("schema")
    if schema != SCHEMA and schema not in OLD_SCHEMAS:
        problems["schema"] = f"this platform reads schema {SCHEMA} (and {', '.join(map(str, OLD_SCHEMAS))}), not {schema!r}"
    out["schema"] = SCHEMA
    for name in META[1:]:
        try:
            out[name] = _text(data.get(name))
        except ValueError as exc:
            problems[name] = str(exc)
    key = out.get("key", "")
    if key and (len(key) > 8 or not key.replace("-", "").replace("_", "").isalnum()):
        problems["key"] = "a key is at most 8 letters, digits, - or _"
    if schema in OLD_SCHEMAS:
        data = _added_in_schema_2(data)
    data = _added_off(data)
    # Every rule-bearing field.
    for spec in FIELDS:
        try:
            raw = _get(data, spec.path)
        except KeyError:
            problems[spec.path] = "missing"
            continue
        try:
            _set(out, spec.path, spec.check(raw))
        except ValueError as exc:
            problems[spec.path] = str(exc)
    known = set(FIELDS_BY_PATH) | set(META)
    for path in _leaves({k: v for k, v in data.items() if k not in ("rules", "citations")}):
        if path not in known and not any(path.startswith(f"{k}.") for k in known):
            problems[path] = "unknown field"
    _read_citations_and_rules(data, out, problems)
    if schema in OLD_SCHEMAS and not problems:
        _upgrade(out)
    if not problems:
        _check_consistency(out, problems)
    if problems:
        raise FormatDocumentError(problems)
    return out


def _added_in_schema_2(data: Mapping[str, Any]) -> dict[str, Any]:
    """A schema 1 document with the fields schema 2 added, as the platform played them then:
    the final's placings went with the best-faction awards (the WBC's, both)."""
    out = copy.deepcopy(dict(data))
    points, awards, rules = out.get("points"), out.get("awards"), out.get("rules")
    if isinstance(points, dict) and isinstance(awards, Mapping) and "final_placings" not in points:
        points["final_placings"] = awards.get("best_faction")
        if isinstance(rules, dict) and "points.final_placings" not in rules:
            rules["points.final_placings"] = PLACINGS_RULE if awards.get("best_faction") is True else NO_PLACINGS_RULE
    return out


def _added_off(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The document with each field of `ADDED_OFF` it lacks, off, and its rule (unchanged when
    it has them all)."""
    missing = [path for path in ADDED_OFF if not _has(data, path)]
    if not missing:
        return data
    out = copy.deepcopy(dict(data))
    for path in missing:
        _set(out, path, False)
        rules = out.get("rules")
        if isinstance(rules, dict) and path not in rules:
            rules[path] = ADDED_OFF[path]
    return out


def _has(data: Mapping[str, Any], path: str) -> bool:
    try:
        _get(data, path)
    except KeyError:
        return False
    return True


def _upgrade(doc: dict[str, Any]) -> None:
    """A schema 1 document in schema 2: its rule switches were rules the table judge applied
    beyond the ruleset's (the engine played the ruleset's own), so each reads as on where
    either said so, citing the ruleset's rule where that turns it on."""
    ruleset = RULESETS[doc["engine"]["ruleset"]]
    for name in sorted(RULE_SWITCHES):
        if not doc["engine"][name] and getattr(ruleset, name):
            doc["engine"][name] = True
            doc["rules"][f"engine.{name}"] = ruleset.cite[name]


def _read_citations_and_rules(data: Mapping[str, Any], out: dict[str, Any], problems: dict[str, str]) -> None:
    """The `[citations]` (topic = rule) and `[rules]` (field = rule) tables: every field names
    the rule it comes from."""
    # The citations: topic -> rule.
    citations = data.get("citations", {})
    if not isinstance(citations, Mapping):
        problems["citations"] = "a table of topic = rule"
        citations = {}
    out["citations"] = {}
    for topic, rule in citations.items():
        if topic not in CITATION_TOPICS:
            problems[f"citations.{topic}"] = f"unknown topic; known: {', '.join(CITATION_TOPICS)}"
            continue
        try:
            out["citations"][topic] = _text(rule)
        except ValueError as exc:
            problems[f"citations.{topic}"] = str(exc)
    if "report" not in out["citations"] and "citations.report" not in problems:
        problems["citations.report"] = "missing: the rule behind the result kinds and the game report"
    # The rules: every field names the rule it comes from.
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        problems["rules"] = "a table of field = rule"
        rules = {}
    out["rules"] = {}
    for path, rule in rules.items():
        if path not in FIELDS_BY_PATH:
            problems[f"rules.{path}"] = "a rule for an unknown field"
            continue
        try:
            out["rules"][path] = _text(rule)
        except ValueError as exc:
            problems[f"rules.{path}"] = str(exc)
    for spec in FIELDS:
        if spec.path not in out["rules"] and f"rules.{spec.path}" not in problems:
            problems[f"rules.{spec.path}"] = "missing: every field names the rule it comes from"
    out["rules"] = {spec.path: out["rules"][spec.path] for spec in FIELDS if spec.path in out["rules"]}


def _check_consistency(doc: Mapping[str, Any], problems: dict[str, str]) -> None:
    """What single fields cannot say: fields that must agree with each other or the engine."""
    ruleset = RULESETS[doc["engine"]["ruleset"]]
    for path in ("factions.pool", "factions.final_pool"):
        outside = [f for f in _get(doc, path) if f not in ruleset.factions]
        if outside:
            problems[path] = f"{', '.join(faction_name(f) for f in outside)} not in {ruleset.name}"
    pool = doc["factions"]["pool"]
    largest, smallest = max(doc["tables"]["sizes"]), min(doc["tables"]["sizes"])
    if doc["factions"]["deal"] == "draw" and len(pool) < largest:
        problems["factions.pool"] = f"a table of {largest} draws {largest} factions: the pool has {len(pool)}"
    if doc["factions"]["deal"] == "deal_two_keep_one":
        classic = [f for f in pool if f in CLASSIC_FACTIONS]
        expansion = [f for f in pool if f in EXPANSION_FACTIONS]
        if min(len(classic), len(expansion)) < largest:
            problems["factions.pool"] = f"dealing one classic and one expansion card to {largest} players needs {largest} of each"
    if len(doc["factions"]["final_pool"]) < doc["points"]["finalists"]:
        problems["factions.final_pool"] = f"{doc['points']['finalists']} finalists pick from fewer factions"
    if doc["factions"]["trades"] and doc["factions"]["deal"] != "draw":
        problems["factions.trades"] = "trades are of drawn factions (deal `draw`)"
    for kind in ROUND_KINDS:
        rnd = doc["rounds"][kind]
        base = f"rounds.{kind}"
        if rnd["turns"] > ruleset.max_turns:
            problems[f"{base}.turns"] = f"{ruleset.name} games last at most {ruleset.max_turns} turns"
        if not rnd["hours"] and not rnd["hours_per_player"]:
            problems[f"{base}.hours"] = "a round needs a time limit (hours, or hours per player)"
        elif rnd["finish_turn_minutes"] and rnd["no_new_turn_minutes"]:
            problems[f"{base}.no_new_turn_minutes"] = "with time to finish the turn, new turns stop at the limit: 0"
        # The clock warns (and, with a window, stops new turns) this long before the end.
        window = rnd["no_new_turn_minutes"] or 30
        minutes = to_fraction(rnd["hours"]) * 60 + to_fraction(rnd["hours_per_player"]) * 60 * smallest
        if minutes <= window and f"{base}.hours" not in problems:
            problems[f"{base}.hours"] = f"the time limit must be longer than its last {window} minutes"
    if doc["awards"]["best_faction"] and doc["awards"]["measure"] == "performance_points" and ruleset.pp is None:
        problems["awards.measure"] = f"{ruleset.name} games earn no performance points: choose strongholds_per_turn"
    unknown = [o for o in doc["engine"]["options"] if o not in ruleset.options]
    if unknown:
        known = ", ".join(sorted(ruleset.options)) or "none"
        problems["engine.options"] = f"{unknown!r} are not options of {ruleset.name} (known: {known})"
    system = SYSTEMS[doc["points"]["system"]]
    results = doc["points"]["results"]
    for kind in ResultKind:
        path = f"points.results.{kind.value}"
        if kind in system.refused and path in FIELDS_BY_PATH:
            refusal = system.refused[kind]
            if to_fraction(results[kind.value]) != 0:
                problems[path] = f"the {system.name} points system has no such result ({refusal.rule}): 0"
    for kind in (ResultKind.LOSS, ResultKind.DROPOUT):
        if to_fraction(results[kind.value]) != 0:
            problems[f"points.results.{kind.value}"] = "a loss or a dropout scores 0"


# --- writing and comparing ---------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key)


def dump_toml(doc: Mapping[str, Any]) -> str:
    """The document as TOML text (tables in the schema's order; `tomllib` reads it back to the
    same document)."""
    lines: list[str] = []

    def table(node: Mapping[str, Any], name: str) -> None:
        scalars = [(k, v) for k, v in node.items() if not isinstance(v, Mapping)]
        tables = [(k, v) for k, v in node.items() if isinstance(v, Mapping)]
        if name and (scalars or not tables):
            lines.append("")
            lines.append(f"[{name}]")
        for key, value in scalars:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
        for key, value in tables:
            table(value, f"{name}.{_toml_key(key)}" if name else _toml_key(key))

    table(doc, "")
    return "\n".join(lines).lstrip("\n") + "\n"


def dump_json(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def apply_changes(doc: Mapping[str, Any], changes: object) -> dict[str, Any]:
    """A copy of `doc` with `changes` ({"rounds.heat.hours": 4, ...}, or nested tables) applied.

    Raises FormatDocumentError for changes that are not a table of known fields.
    """
    if not isinstance(changes, Mapping):
        raise FormatDocumentError({"format_changes": "an object of document fields and their values"})
    out = copy.deepcopy(dict(doc))
    problems: dict[str, str] = {}
    for path, value in _flatten(changes):
        if path in ("schema", "key"):
            problems[path] = "the preset's key and schema cannot be changed"
        elif path in FIELDS_BY_PATH or path in META or path.startswith(("rules.", "citations.")):
            if path.startswith("rules."):
                out.setdefault("rules", {})[path[len("rules.") :]] = value
            elif path.startswith("citations."):
                out.setdefault("citations", {})[path[len("citations.") :]] = value
            else:
                _set(out, path, value)
        else:
            problems[path] = "unknown field"
    if problems:
        raise FormatDocumentError(problems)
    return out


def _flatten(changes: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in changes.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and path not in FIELDS_BY_PATH and path not in ("rules", "citations"):
            yield from _flatten(value, f"{path}.")
        elif isinstance(value, Mapping):
            for sub, v in value.items():
                yield f"{path}.{sub}", v
        else:
            yield path, value


@dataclass(frozen=True, slots=True)
class Difference:
    """One field where an event's document differs from its preset."""

    field: str
    words: str
    preset: Any
    event: Any
    rule: str

    @property
    def preset_words(self) -> str:
        return _choice_words(self.field, self.preset)

    @property
    def event_words(self) -> str:
        return _choice_words(self.field, self.event)


def _choice_words(field: str, value: Any) -> str:
    """A field's value in words: a choice by what it means, anything else by `value_words`."""
    words = choice_words(field)
    if isinstance(value, str) and value in words:
        return words[value]
    if isinstance(value, list) and value and all(isinstance(v, str) and v in words for v in value):
        return "; ".join(words[v] for v in value)
    return value_words(value)


def _field_words(spec: Field) -> str:
    """A field's name in a list of differences, which has no group headings: the round's
    fields say which round ("heat time limit (hours)", "final turn limit")."""
    for kind in ROUND_KINDS:
        if spec.path.startswith(f"rounds.{kind}."):
            return f"{kind} {spec.words}"
    return spec.words


def differences(preset: Mapping[str, Any], event: Mapping[str, Any]) -> tuple[Difference, ...]:
    """Every field (rules and citations included) where `event` differs from `preset`, in the
    schema's order; `rule` is the event's rule for the field."""
    out: list[Difference] = []
    for spec in FIELDS:
        a, b = _maybe(preset, spec.path), _maybe(event, spec.path)
        if a != b:
            out.append(Difference(spec.path, _field_words(spec), a, b, event["rules"].get(spec.path, "")))
    for name in META[2:]:
        if preset.get(name) != event.get(name):
            out.append(Difference(name, name.replace("_", " "), preset.get(name), event.get(name), ""))
    for table_name in ("rules", "citations"):
        a_t, b_t = preset.get(table_name, {}), event.get(table_name, {})
        for key in dict.fromkeys([*a_t, *b_t]):
            if a_t.get(key) != b_t.get(key):
                words = f"rule cited for {FIELDS_BY_PATH[key].words}" if key in FIELDS_BY_PATH else f"rule cited for {key.replace('_', ' ')}"
                out.append(Difference(f"{table_name}.{key}", words, a_t.get(key), b_t.get(key), b_t.get(key) or ""))
    return tuple(out)


#: Where the Shield Wall counts as a stronghold, and when the BG is coexisting, in words.
SHIELD_WALL_WORDS: Mapping[str, str] = {
    "whole": "the whole territory",
    "imperial_basin_side": "only the side touching the Imperial Basin",
}
COEXISTENCE_WORDS: Mapping[str, str] = {
    "assumed": "the BG is coexisting unless it says otherwise",
    "declared": "only when declared",
}
#: The choices of a field in words, where a key alone does not read ("strongholds_per_turn");
#: a list field's keys (the tiebreakers) each in words too.
_CHOICE_WORDS: Mapping[str, Mapping[Any, str]] = {
    "awards.measure": AWARD_MEASURES,
    "factions.deal": DEALS,
    **{f"rounds.{kind}.tracking": TRACKING for kind in ROUND_KINDS},
    "engine.shield_wall_counts": SHIELD_WALL_WORDS,
    "engine.coexistence": COEXISTENCE_WORDS,
    "engine.ruleset": {key: ruleset.name for key, ruleset in RULESETS.items()},
    "points.system": {key: system.name for key, system in SYSTEMS.items()},
    "points.tiebreaks": {key: tiebreaker.summary for key, tiebreaker in TIEBREAKERS.items()},
}


def choice_words(field: str) -> Mapping[Any, str]:
    """The words of a field's choices (or of the keys its list holds), by key; empty where a
    value reads as it is."""
    return _CHOICE_WORDS.get(field, {})


def _maybe(doc: Mapping[str, Any], path: str) -> Any:
    try:
        return _get(doc, path)
    except KeyError:
        return None


def value_words(value: Any) -> str:
    """A field's value as a person reads it (factions by name, lists joined, yes/no)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "(none)"
    if isinstance(value, list):
        return ", ".join(faction_name(v) if v in FACTIONS else str(v) for v in value) or "(none)"
    return str(value)


def points_of(doc: Mapping[str, Any]) -> dict[ResultKind, Fraction]:
    """The document's points per result kind, exact."""
    return {ResultKind(k): to_fraction(v) for k, v in doc["points"]["results"].items()}


__all__ = [
    "AWARD_MEASURES",
    "CITATION_TOPICS",
    "DEALS",
    "Difference",
    "FIELDS",
    "FIELDS_BY_PATH",
    "Field",
    "FormatDocumentError",
    "RULE_SWITCHES",
    "SCHEMA",
    "apply_changes",
    "choice_words",
    "differences",
    "dump_json",
    "dump_toml",
    "load_document",
    "parse_text",
    "points_of",
    "value_words",
]
