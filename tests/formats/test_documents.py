"""Format documents: every preset loads, round-trips and drives what it always did; a bad
document is refused naming every bad field; a variant's rules reach the engine, the clocks and
the points.

Rule texts: WBC 2018 format (Preliminary Heat Duration: 10 turns or 5 hours; house rules: the
Shield Wall a stronghold after the fourth worm; QP: adjudicated victories 0.5), WBC 2002-2017
event reports (4-hour heats, the Shield Wall earlier, fewer QP for adjudicated victories).
"""

from __future__ import annotations

import json
from datetime import timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from dune.engine import apply, evaluate, replay
from dune.engine.ids import ResultKind
from dune.engine.rulesets import RULESETS
from dune.formats import FORMATS, PRESETS, format_from_document, get_format, preset_document
from dune.formats.document import (
    CITATION_TOPICS,
    FIELDS,
    FormatDocumentError,
    apply_changes,
    differences,
    dump_json,
    dump_toml,
    load_document,
    parse_text,
)
from dune.seating import SeatingRequest, plan_seating
from dune.seating_changes import TradeRefused, trade_factions
from tests.engine.helpers import at, position

REPLAYS = Path(__file__).parents[1] / "engine" / "replays"
RECORDED: dict[str, list[list[Any]]] = json.loads((REPLAYS / "evaluations.json").read_text(encoding="utf-8"))
PRESET_FILES = sorted((Path(__file__).parents[2] / "dune" / "formats" / "presets").glob("*.toml"))

#: The variant of the acceptance test: WBC 2018 with 4-hour heats, the Shield Wall a stronghold
#: after the third worm, adjudicated victories worth 0.25 QP and 9-turn heats.
VARIANT = {
    "rounds.heat.hours": 4,
    "engine.shield_wall_after_worm": 3,
    "points.results.adjudicated": "0.25",
    "rounds.heat.turns": 9,
}


@pytest.mark.parametrize("path", PRESET_FILES, ids=[p.stem for p in PRESET_FILES])
def test_every_preset_file_loads_and_round_trips(path: Path) -> None:
    """load, validate, dump: TOML and JSON give back the same document."""
    doc = load_document(parse_text(path.read_text(encoding="utf-8")))
    assert doc == PRESETS[path.stem]
    assert load_document(parse_text(dump_toml(doc))) == doc
    assert load_document(parse_text(dump_json(doc))) == doc
    assert format_from_document(doc) is FORMATS[doc["key"]]


def test_the_three_presets_ship() -> None:
    assert [(k, f.name, f.version) for k, f in FORMATS.items()] == [
        ("wbc", "WBC Dune", "2018"),
        ("lolv", "Landsraad of Las Vegas", "2.8.4"),
        ("ah1979", "Avalon Hill 1979 (club)", "1979"),
    ]


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_field_names_its_rule(key: str) -> None:
    doc = PRESETS[key]
    assert set(doc["rules"]) == {f.path for f in FIELDS}
    assert all(rule.strip() for rule in doc["rules"].values())
    assert differences(doc, preset_document(key)) == ()


def test_presets_keep_the_rulesets_and_limits_they_always_had() -> None:
    """The document-built presets are the very ruleset and clock objects the engine and the
    clocks had before: nothing a game or a clock reads changed."""
    wbc, lolv = get_format("wbc"), get_format("lolv")
    assert wbc.ruleset is RULESETS["wbc2018"] and lolv.ruleset is RULESETS["lolv-2.8.4"]
    assert wbc.clock("heat").base == timedelta(hours=5) and wbc.turn_limit("heat") == 10
    assert lolv.game_options == ("advanced",) and wbc.game_options == ()
    assert wbc.points.points(ResultKind.ADJUDICATED) == Fraction(1, 2)


def _golden_cases() -> list[tuple[str, str]]:
    cases = []
    for name in sorted(RECORDED):
        setup = json.loads((REPLAYS / name).read_text(encoding="utf-8").splitlines()[0])
        for key, fmt in FORMATS.items():
            if fmt.ruleset.key == setup["ruleset"]:
                cases.append((key, name))
    return cases


@pytest.mark.parametrize(("key", "name"), _golden_cases())
def test_golden_games_replay_the_same_under_their_preset(key: str, name: str) -> None:
    """The golden games, set up with the options their preset's document records, give the
    recorded evaluation at every recorded position."""
    rows = [json.loads(line) for line in (REPLAYS / name).read_text(encoding="utf-8").splitlines()]
    events = [r for r in rows if "type" in r]
    setup = dict(events[0])
    setup["options"] = sorted(set(setup.get("options", [])) | set(get_format(key).setup_options))
    wanted = dict((n, answer) for n, answer in RECORDED[name])
    pos = replay([setup])
    assert pos.ruleset is get_format(key).ruleset
    for n in range(2, len(events) + 1):
        pos = apply(pos, events[n - 1])
        if n in wanted:
            assert json.dumps(evaluate(pos).to_dict()) == json.dumps(wanted[n]), f"after event {n}"


def test_a_bad_document_is_refused_naming_every_bad_field() -> None:
    doc = preset_document("wbc")
    doc["rounds"]["heat"]["turns"] = "ten"
    doc["rounds"]["final"]["hours"] = -1
    doc["engine"]["shield_wall_counts"] = "left"
    doc["points"]["tiebreaks"] = ["coin_toss"]
    doc["engine"]["fremen_strength"] = True
    del doc["rules"]["table_time.diplomacy_chips"]
    with pytest.raises(FormatDocumentError) as info:
        load_document(doc)
    problems = info.value.problems
    assert set(problems) == {
        "rounds.heat.turns",
        "rounds.final.hours",
        "engine.shield_wall_counts",
        "points.tiebreaks",
        "engine.fremen_strength",
        "rules.table_time.diplomacy_chips",
    }
    assert "whole number" in problems["rounds.heat.turns"]
    assert "unknown field" == problems["engine.fremen_strength"]
    assert "coin_toss" in problems["points.tiebreaks"]
    assert info.value.to_dict()["fields"] == problems


@pytest.mark.parametrize("value", [[[]], [{}], [["best_game"]], ["best_game", []]])
@pytest.mark.parametrize("path", ["points.tiebreaks", "factions.pool"])
def test_a_list_holding_a_list_or_a_table_is_refused_by_its_field(path: str, value: list[Any]) -> None:
    """Keys and faction ids are text: anything else in the list is refused under the field's name."""
    with pytest.raises(FormatDocumentError) as info:
        load_document(apply_changes(preset_document("wbc"), {path: value}))
    assert list(info.value.problems) == [path]


def test_consistency_a_round_longer_than_the_engine_plays_is_refused() -> None:
    """AH V / WBC Final Round Duration: the engine plays at most 15 turns of the WBC rules;
    LoLV 0.02: at most 10."""
    with pytest.raises(FormatDocumentError) as info:
        load_document(apply_changes(preset_document("lolv"), {"rounds.final.turns": 12}))
    assert list(info.value.problems) == ["rounds.final.turns"]
    assert "at most 10 turns" in info.value.problems["rounds.final.turns"]
    # The no-new-turn window is the document's (10 minutes is a choice), but never longer than
    # the limit, nor beside minutes to finish the turn (LoLV 4.01.08).
    assert load_document(apply_changes(preset_document("wbc"), {"rounds.heat.no_new_turn_minutes": 10}))
    with pytest.raises(FormatDocumentError) as info:
        load_document(apply_changes(preset_document("lolv"), {"rounds.heat.no_new_turn_minutes": 10}))
    assert list(info.value.problems) == ["rounds.heat.no_new_turn_minutes"]


def test_unknown_changes_and_text_are_refused() -> None:
    with pytest.raises(FormatDocumentError) as info:
        apply_changes(preset_document("wbc"), {"rounds.heat.hourz": 4, "key": "mine"})
    assert set(info.value.problems) == {"rounds.heat.hourz", "key"}
    with pytest.raises(FormatDocumentError) as info:
        parse_text("this is [not")
    assert info.value.field == "document"


def test_the_variant_reaches_clocks_turns_points_and_the_engine() -> None:
    """WBC 2002 (4-hour heats), the Shield Wall after the third worm, WBC 2017 (adjudicated
    victories 0.25 QP), a 9-turn heat: every part of the format reads the document."""
    fmt = format_from_document(apply_changes(preset_document("wbc"), VARIANT))
    assert fmt.key == "wbc" and fmt.clock("heat").base == timedelta(hours=4)
    assert fmt.clock("heat").key == "wbc_heat" and fmt.clock("heat").max_turns == 9
    assert "9 turns or 4 hours" in fmt.clock("heat").label
    assert fmt.turn_limit("heat") == 9 and fmt.turn_limit("final") == 15
    assert fmt.points.points(ResultKind.ADJUDICATED) == Fraction(1, 4)
    assert fmt.points.points(ResultKind.SOLO_STRONGHOLD) == 2
    assert fmt.game_options == ("shield_wall_after_worm=3",)
    assert fmt.ruleset.shield_wall is not None and fmt.ruleset.shield_wall.worms_needed == 3
    assert get_format("wbc").ruleset.shield_wall.worms_needed == 4  # the preset is untouched
    words = {d.field: (d.preset, d.event) for d in fmt.differences()}
    assert words == {
        "rounds.heat.turns": (10, 9),
        "rounds.heat.hours": (5, 4),
        "engine.shield_wall_after_worm": (4, 3),
        "points.results.adjudicated": ("0.5", "0.25"),
    }


def test_wbc_house_rules_shield_wall_after_the_third_worm_under_the_variant() -> None:
    """WBC house rules (Shield Wall), changed: three strongholds with the Shield Wall win after
    the third worm under the variant's setup option, only after the fourth under the preset."""
    forces = [at("harkonnen", "carthag"), at("harkonnen", "arrakeen"), at("harkonnen", "shield_wall", sector=8)]
    preset = evaluate(position(forces=forces, worms=3))
    assert preset.victory is None or "harkonnen" not in (preset.victory.winners or ())
    variant = evaluate(position(forces=forces, worms=3, options=["shield_wall_after_worm=3"]))
    assert variant.victory.winners == ("harkonnen",)
    assert evaluate(position(forces=forces, worms=2, options=["shield_wall_after_worm=3"])).victory is None


def test_an_unknown_setup_option_is_refused_by_the_engine() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        position(options=["shield_wall_after_worm=many"])


def test_docs_document_every_field() -> None:
    """docs/formats.md names every field of the schema and every citation topic."""
    text = (Path(__file__).parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    missing = [f.path for f in FIELDS if f"`{f.path}`" not in text]
    missing += [t for t in CITATION_TOPICS if f"`citations.{t}`" not in text]
    assert missing == []


def test_the_seating_planner_reads_the_tournaments_own_format() -> None:
    """WBC 2018 house rules allow trades of drawn factions by consent; an event whose document
    turns them off has its trades refused, citing its own rule."""
    no_trades = format_from_document(
        apply_changes(
            preset_document("wbc"),
            {"factions.trades": False, "rules.factions.trades": "Club house rule: no trades"},
        )
    )
    for fmt, allowed in ((get_format("wbc"), True), (no_trades, False)):
        planned = plan_seating(SeatingRequest(players=tuple(range(1, 12)), format=fmt, seed=3))
        a, b = planned.tables[0].players[:2]
        if allowed:
            trade_factions(planned, a, b, consenting={a, b})
            continue
        with pytest.raises(TradeRefused, match="has no faction trades") as info:
            trade_factions(planned, a, b, consenting={a, b})
        assert info.value.rule == "Club house rule: no trades"
