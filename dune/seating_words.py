"""What the seating's flags and size options mean, in words a head judge reads.

The planner speaks in stable codes (`four_player_tables`, `fours:1`); pages say the same in
sentences. Its issues and refusals already name the players (the planner is handed their
names), so pages show their messages as they are. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dune.text_rules import whole_number

FLAG_WORDS = {
    "four_player_tables": "a table of four players was needed",
    "small_player_tables": "a table smaller than the format's tables was needed",
    "players_waiting": "some players wait for the next round",
    "repeat_opponent_avoided": "players who met before were kept apart",
    "repeat_opponent_unavoidable": "some players meet again: it could not be avoided",
    "keep_apart_honoured": "keep-apart requests were honoured",
    "keep_apart_violated": "a keep-apart request could not be honoured",
    "faction_repeat_unavoidable": "a player plays a faction again: it could not be avoided",
    "manual_swap": "players were swapped by hand",
    "faction_traded": "factions were traded",
    "faction_chosen": "kept cards recorded",
    "latecomer_seated": "a latecomer was seated",
    "latecomer_override": "a latecomer was seated after the grace period",
}


def round_name(*, final: bool, number: int) -> str:
    """What a round is called on every page, export and screen: "Final", or "Heat 2"."""
    return "Final" if final else f"Heat {number}"


def flag_words(flag: str) -> str:
    """A reason flag as a phrase; an unknown flag reads as its code with spaces."""
    return FLAG_WORDS.get(flag, flag.replace("_", " "))


def option_words(option: Mapping[str, Any]) -> str:
    """A size choice as a phrase: `fours:2` -> "make 2 tables of four"."""
    kind, _, count_text = str(option.get("key", "")).partition(":")
    count = whole_number(count_text) or 0
    if kind == "fours":
        return "make a table of four" if count == 1 else f"make {count} tables of four"
    if kind == "wait":
        return "keep one player waiting" if count == 1 else f"keep {count} players waiting"
    return str(option.get("label") or option.get("key", ""))


def choice_words(count: int, options: Iterable[Mapping[str, Any]]) -> str:
    """The whole choice in one line: "seat 19: make a table of four, or keep one player waiting"."""
    said = [option_words(o) for o in options]
    if not said:
        return ""
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + ", or " + said[-1]
    return f"seat {count}: {listed}"
