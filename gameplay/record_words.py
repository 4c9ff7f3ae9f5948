"""A game record as what happened, in words: "The battle phase began", "The storm moved 3
sectors", "A worm appeared in Habbanya Erg", "Atreides and Fremen formed an alliance". Factions,
territories and phases by their names, never their ids; every sentence marked for translation.
A record kind without a sentence here gives None, and the page shows its kind and fields."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from dune.engine.names import FACTION_NAMES, phase_name, place_name
from dune.engine.rulesets import RULESETS
from foundation.core_words import core_word, phase_words


def faction(key: Any) -> str:
    text = str(key)
    return FACTION_NAMES.get(text) or text.replace("_", " ").title()


def factions(keys: Iterable[Any]) -> str:
    """`["atreides", "fremen"]` -> "Atreides and Fremen"; three or more with commas first."""
    names = [faction(k) for k in keys or ()]
    if len(names) < 2:
        return "".join(names)
    return gettext("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


def _occupants(value: Any) -> str:
    pairs = value.items() if isinstance(value, Mapping) else (value or ())
    held = [gettext("%(place)s: %(factions)s") % {"place": place_name(str(p)), "factions": factions(f)}
            for p, f in pairs if f]
    return "; ".join(held)


def _phase(e: Mapping[str, Any]) -> str:
    return gettext("The %(phase)s phase began") % {"phase": phase_words(phase_name(str(e.get("phase") or "")))}


def _turn(e: Mapping[str, Any]) -> str:
    if e.get("turn") is None:
        return gettext("The next turn began")
    return gettext("Turn %(turn)s began") % {"turn": e["turn"]}


def _storm_moved(e: Mapping[str, Any]) -> str:
    n = int(e.get("sectors") or 0)
    return ngettext("The storm moved %(n)s sector", "The storm moved %(n)s sectors", n) % {"n": n}


def _storm_placed(e: Mapping[str, Any]) -> str:
    if e.get("sector") is None:
        return gettext("The storm was placed")
    return gettext("The storm was placed in sector %(sector)s") % {"sector": e["sector"]}


def _worm(e: Mapping[str, Any]) -> str:
    where = e.get("territory")
    if e.get("karama"):
        if where:
            return gettext("The Fremen summoned a worm with a Karama in %(territory)s") % {"territory": place_name(where)}
        return gettext("The Fremen summoned a worm with a Karama")
    if where:
        return gettext("A worm appeared in %(territory)s") % {"territory": place_name(where)}
    return gettext("A worm appeared")


def _bg_prediction(e: Mapping[str, Any]) -> str:
    if not e.get("faction"):  # hidden from all but the judges until revealed
        return gettext("The Bene Gesserit wrote down their prediction")
    return gettext("The Bene Gesserit predicted %(faction)s to win in turn %(turn)s") % {
        "faction": faction(e["faction"]), "turn": e.get("turn")}


def _quick_record(e: Mapping[str, Any]) -> str:
    held = _occupants(e.get("occupants"))
    if not held:
        return gettext("The strongholds were recorded: nobody holds one")
    return gettext("The strongholds were recorded: %(held)s") % {"held": held}


def _game_setup(e: Mapping[str, Any]) -> str:
    """The game as the seating set it up: its factions, turn limit, tracking and the rules it is
    played by (the markers are on the faction table)."""
    tracking = gettext("quick tracking") if e.get("quick") else gettext("full tracking")
    said = {"factions": factions(e.get("factions")), "turns": e.get("turns"), "tracking": tracking}
    if e.get("turns"):
        sentence = gettext("The game was set up for %(factions)s: at most %(turns)s turns, %(tracking)s") % said
    else:
        sentence = gettext("The game was set up for %(factions)s: %(tracking)s") % said
    if e.get("three_alliances"):
        sentence += "; " + gettext("three-faction alliances allowed")
    ruleset = RULESETS.get(str(e.get("ruleset")))
    if ruleset is not None:
        sentence += "; " + gettext("rules %(ruleset)s") % {"ruleset": core_word(ruleset.name)}
    return sentence


_SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "game_setup": _game_setup,
    "phase_advanced": _phase,
    "turn_advanced": _turn,
    "storm_moved": _storm_moved,
    "storm_placed": _storm_placed,
    "worm": _worm,
    "bg_prediction_made": _bg_prediction,
    "quick_record": _quick_record,
    "alliance_formed": lambda e: gettext("%(factions)s formed an alliance") % {"factions": factions(e.get("factions"))},
    "alliance_broken": lambda e: gettext("%(faction)s left their alliance") % {"faction": faction(e.get("faction"))},
    "win_attempt_confirmed": lambda e: gettext("Win attempt confirmed for %(factions)s") % {
        "factions": factions(e.get("factions"))},
    "victory_claimed": lambda e: gettext("%(factions)s claimed victory") % {"factions": factions(e.get("winners"))},
    "concession": lambda e: gettext("The table conceded the game to %(factions)s") % {
        "factions": factions(e.get("to_factions"))},
    "dropout": lambda e: gettext("%(faction)s dropped out") % {"faction": faction(e.get("faction"))},
    "last_turn_ended": lambda e: gettext("The last turn ended with no winner"),
    "void": lambda e: gettext("Record #%(seq)s was voided") % {"seq": e.get("seq")},
}


def said(event: Any) -> str | None:
    """The record as a sentence, or None for a kind with no sentence of its own."""
    if not isinstance(event, Mapping):
        return None
    sentence = _SENTENCES.get(str(event.get("type")))
    return sentence(event) if sentence is not None else None
