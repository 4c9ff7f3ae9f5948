"""The board drawing (`dune.board_svg`) over every record of the golden games: one stack
element per force stack with its territory, sector, faction and count; the storm where the
position has it; every stronghold the engine counts, with its controller as `evaluate()` says."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dune.board_svg import FACTION_STYLE, board_svg, stack_rows
from dune.engine.evaluation import evaluate
from dune.engine.events import event_from_dict
from dune.engine.game_log import apply, replay

REPLAYS = Path(__file__).resolve().parents[1] / "engine" / "replays"
GOLDEN = sorted(REPLAYS.glob("*.jsonl"))
SVG = "{http://www.w3.org/2000/svg}"


def records(path: Path) -> Iterator[tuple[int, Any]]:
    """(record number, position after it) for every record of a golden game."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    events = [line for line in lines if "type" in line]
    position = replay([event_from_dict(events[0])])
    yield 1, position
    for seq, body in enumerate(events[1:], start=2):
        position = apply(position, event_from_dict(body))
        yield seq, position


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def check(position: Any, seq: int) -> None:
    answer = evaluate(position)
    root = ET.fromstring(board_svg(position, answer=answer, seq=seq))
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}desc") is not None
    assert root.get("data-seq") == str(seq)

    # One element per force stack, with its attributes and total count.
    drawn = [el for el in root.iter() if el.get("data-faction") is not None]
    expected = {
        (f, t, "" if s is None else str(s)): n + sp + a
        for (f, t, s), (n, sp, a) in position.forces.items()
        if n + sp + a > 0
    }
    seen: dict[tuple[str, str, str], str] = {}
    for el in drawn:
        key = (el.get("data-faction"), el.get("data-territory"), el.get("data-sector"))
        assert key not in seen, f"record #{seq}: two elements for the stack {key}"
        seen[key] = text_of(el.find(f"{SVG}text"))
    assert set(seen) == set(expected), f"record #{seq}"
    for key, total in expected.items():
        mark = FACTION_STYLE[key[0]].mark
        assert re.match(rf"{mark} {total}\b", seen[key]), (seq, key, seen[key])

    # The storm, where the position has it.
    storms = [el for el in root.iter() if el.get("data-storm-sector") is not None]
    if position.storm is None:
        assert storms == []
    else:
        assert [el.get("data-storm-sector") for el in storms] == [str(position.storm)]

    # The strongholds the engine counts, each controlled as evaluate() says.
    holds = {el.get("data-stronghold"): el.get("data-controlled-by") for el in root.iter()
             if el.get("data-stronghold") is not None}
    assert holds == {s: (f or "") for s, f in answer.control.items()}, f"record #{seq}"


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_record_of_the_golden_games_is_drawn(path: Path) -> None:
    count = 0
    for seq, position in records(path):
        check(position, seq)
        count += 1
    assert count > 50


def test_stacks_in_words_tell_fighters_specials_and_advisors_apart() -> None:
    path = REPLAYS / "wbc_10_turns_6_players.jsonl"
    kinds: set[str] = set()
    for _seq, position in records(path):
        for row in stack_rows(position):
            words = row.words()
            assert str(row.total) in words
            if row.special:
                assert row.special_name in words
                kinds.add("special")
            if row.advisors:
                assert "advisor" in words
                kinds.add("advisors")
    assert "special" in kinds


def test_quick_tracking_stacks_say_present_not_a_count() -> None:
    position = list(records(REPLAYS / "lolv_quick_tracking_victory.jsonl"))[-1][1]
    rows = stack_rows(position)
    assert rows and all(row.words().startswith("present") for row in rows)


def test_the_drawing_has_no_state_of_its_own() -> None:
    """The same position draws the same document, whatever was drawn before (a pure function)."""
    path = REPLAYS / "wbc_10_turns_6_players.jsonl"
    positions = [p for _s, p in records(path)]
    first = board_svg(positions[400], seq=401)
    board_svg(positions[-1], seq=len(positions))
    assert board_svg(positions[400], seq=401) == first


def test_names_for_people_not_ids() -> None:
    """Titles and the description name factions and territories in words (STYLE: no snake_case)."""
    path = REPLAYS / "wbc_10_turns_6_players.jsonl"
    position = list(records(path))[-1][1]
    root = ET.fromstring(board_svg(position))
    for el in root.iter():
        if el.tag in (f"{SVG}title", f"{SVG}desc"):
            assert "_" not in (el.text or ""), el.text


def test_expansion_pieces_and_board_spice_are_drawn() -> None:
    """Spice on the board (LoLV 1.02.04), the Hidden Mobile Stronghold where it points (2.07.17)
    with the forces in it, a Terror token (2.12.05), an Ecaz Ambassador (2.11.05) and the
    No-Field token (2.10.11), each an element of its own with a title in words."""
    from dataclasses import replace

    position = list(records(REPLAYS / "lolv_quick_tracking_victory.jsonl"))[20][1]
    forces = dict(position.forces)
    forces[("ixians", "hidden_mobile_stronghold", None)] = (2, 3, 0)
    position = replace(
        position,
        forces=forces,
        hms=("the_great_flat", 14),
        no_field=("funeral_plain", 14),
        terror=frozenset({"carthag"}),
        ambassadors={"arrakeen": "atreides"},
        spice_on_board={"the_great_flat": 10},
    )
    root = ET.fromstring(board_svg(position))
    by = {key: [el for el in root.iter() if el.get(key) is not None]
          for key in ("data-spice", "data-terror", "data-ambassador", "data-no-field")}
    assert [el.get("data-spice") for el in by["data-spice"]] == ["the_great_flat"]
    assert "10" in text_of(by["data-spice"][0])
    assert [el.get("data-terror") for el in by["data-terror"]] == ["carthag"]
    assert [el.get("data-ambassador") for el in by["data-ambassador"]] == ["arrakeen"]
    assert [el.get("data-no-field") for el in by["data-no-field"]] == ["funeral_plain"]
    hms = [el for el in root.iter() if el.get("class") == "hms"]
    assert len(hms) == 1 and "The Great Flat" in text_of(hms[0].find(f"{SVG}title"))
    inside = [el for el in root.iter() if el.get("data-territory") == "hidden_mobile_stronghold"
              and el.get("data-faction") == "ixians"]
    assert len(inside) == 1 and inside[0].get("data-sector") == "" and "IX 5" in text_of(inside[0])
    answer = evaluate(position)
    assert hms[0].get("data-controlled-by") == (answer.control["hidden_mobile_stronghold"] or "")


@pytest.mark.parametrize("language", ["es", "fr", "de"])
def test_every_text_of_the_drawing_is_in_the_readers_language(language: str) -> None:
    """The caption, the description and each piece's title (stacks, strongholds, markers, the
    storm, spice, the Hidden Mobile Stronghold, Terror, an Ambassador, the No-Field token) read in
    the reader's language; names of the game stay as they print (locale/GLOSSARY.md)."""
    from dataclasses import replace

    from django.utils import translation

    position = list(records(REPLAYS / "lolv_quick_tracking_victory.jsonl"))[20][1]
    position = replace(
        position, hms=("the_great_flat", 14), no_field=("funeral_plain", 14), terror=frozenset({"carthag"}),
        ambassadors={"arrakeen": "atreides"}, spice_on_board={"the_great_flat": 10},
    )
    english = board_svg(position, seq=21)
    with translation.override(language):
        drawn = board_svg(position, seq=21, words=translation)
    root = ET.fromstring(drawn)
    shown = " | ".join(text_of(el) for el in root.iter() if el.tag in (f"{SVG}title", f"{SVG}desc", f"{SVG}text"))
    for telltale in ("The Dune board", "controlled by", "player marker", "The storm", "spice in",
                     "token in", "quick tracking", "Turn 3", "Ambassador ("):
        assert telltale in english, telltale  # the English drawing says it: the check can fail
        assert telltale not in shown, (telltale, shown[:400])
    assert ">storm<" in english and ">storm<" not in drawn
