"""What the seating's flags and size options mean, in words a head judge reads.

The planner speaks in stable codes (`four_player_tables`, `fours:1`); pages say the same in
sentences, in the reader's language through the `Words` a page hands in (dune/words.py). Its
issues and refusals already name the players (the planner is handed their names). Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dune.text_rules import whole_number
from dune.words import ENGLISH, Words, gettext_noop

FLAG_WORDS = {
    "four_player_tables": gettext_noop("a table of four players was needed"),
    "small_player_tables": gettext_noop("a table smaller than the format's tables was needed"),
    "players_waiting": gettext_noop("some players wait for the next round"),
    "repeat_opponent_avoided": gettext_noop("players who met before were kept apart"),
    "repeat_opponent_unavoidable": gettext_noop("some players meet again: it could not be avoided"),
    "keep_apart_honoured": gettext_noop("keep-apart requests were honoured"),
    "keep_apart_violated": gettext_noop("a keep-apart request could not be honoured"),
    "faction_repeat_unavoidable": gettext_noop("a player plays a faction again: it could not be avoided"),
    "manual_swap": gettext_noop("players were swapped by hand"),
    "faction_traded": gettext_noop("factions were traded"),
    "faction_chosen": gettext_noop("kept cards recorded"),
    "latecomer_seated": gettext_noop("a latecomer was seated"),
    "latecomer_override": gettext_noop("a latecomer was seated after the grace period"),
}


def round_name(*, final: bool, number: int) -> str:
    """What a round is called on every page, export and screen: "Final", or "Heat 2"."""
    return "Final" if final else f"Heat {number}"


def flag_words(flag: str, words: Words = ENGLISH) -> str:
    """A reason flag as a phrase; an unknown flag reads as its code with spaces."""
    known = FLAG_WORDS.get(flag)
    return words.gettext(known) if known else flag.replace("_", " ")


def option_words(option: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """A size choice as a phrase: `fours:2` -> "make 2 tables of four"."""
    kind, _, count_text = str(option.get("key", "")).partition(":")
    count = whole_number(count_text) or 0
    if kind == "fours":
        return words.ngettext("make a table of four", "make %(count)s tables of four", count) % {"count": count}
    if kind == "wait":
        return words.ngettext("keep one player waiting", "keep %(count)s players waiting", count) % {"count": count}
    return str(option.get("label") or option.get("key", ""))


def choice_words(count: int, options: Iterable[Mapping[str, Any]], words: Words = ENGLISH) -> str:
    """The whole choice in one line: "seat 19: make a table of four, or keep one player waiting"."""
    said = [option_words(o, words) for o in options]
    if not said:
        return ""
    if len(said) == 1:
        listed = said[0]
    else:
        listed = words.gettext("%(some)s, or %(last)s") % {"some": ", ".join(said[:-1]), "last": said[-1]}
    return words.gettext("seat %(count)s: %(listed)s") % {"count": count, "listed": listed}
