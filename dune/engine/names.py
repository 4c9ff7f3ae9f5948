"""Display names for the messages a person reads: factions, territories, and lists of them.

Messages name "Atreides and Fremen", never `['atreides', 'fremen']`; the ids stay in the
data an error carries (its offending input).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from dune.engine.board import TERRITORIES

#: The factions as the rulebooks print them.
FACTION_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "atreides": "Atreides",
        "bene_gesserit": "Bene Gesserit",
        "emperor": "Emperor",
        "fremen": "Fremen",
        "harkonnen": "Harkonnen",
        "guild": "Guild",
        "ixians": "Ixians",
        "tleilaxu": "Tleilaxu",
        "choam": "CHOAM",
        "richese": "Richese",
        "ecaz": "Ecaz",
        "moritani": "Moritani",
    }
)


def join_names(names: Iterable[str], *, empty: str = "nobody", last: str = "and") -> str:
    """`["Atreides", "Fremen", "Guild"]` -> `"Atreides, Fremen and Guild"` (`last="or"`:
    "... or Guild")."""
    items = [str(n) for n in names]
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def faction_name(faction: str) -> str:
    """`bene_gesserit` -> `Bene Gesserit`; an unknown id is shown in words, not as an id."""
    return FACTION_NAMES.get(faction) or faction.replace("_", " ").title()


def factions_text(factions: Iterable[str], *, empty: str = "nobody") -> str:
    """`["atreides", "fremen"]` -> `"Atreides and Fremen"`."""
    return join_names((faction_name(f) for f in factions), empty=empty)


def place_name(place: str) -> str:
    """A territory or sector piece: `shield_wall@8` -> `Shield Wall (sector 8)`."""
    territory, _, sector = place.partition("@")
    known = TERRITORIES.get(territory)
    words = known.name if known is not None else territory.replace("_", " ").title()
    return f"{words} (sector {sector})" if sector else words


#: Phases as a judge says them (LoLV 1.00.00; the AH and WBC rounds carry the same names).
PHASE_NAMES: Mapping[str, str] = MappingProxyType({
    "setup": "setup",
    "storm": "storm",
    "spice_blow": "spice blow",
    "choam_charity": "CHOAM Charity",
    "bidding": "bidding",
    "revival": "revival",
    "shipment_movement": "shipment and movement",
    "battle": "battle",
    "spice_collection": "spice collection",
    "mentat_pause": "Mentat Pause",
})


def leader_status_words(status: str) -> str:
    """A leader's state in words ("tanks face up"), as a refusal names it."""
    return status.replace("_", " ")


def shipment_kind_words(kind: str) -> str:
    """One of the Guild's kinds of shipment in words ("cross ship")."""
    return kind.replace("_", " ")


def phase_name(phase: str) -> str:
    """A phase in words ("shipment and movement"), never its key."""
    return PHASE_NAMES.get(phase) or phase.replace("_", " ")


def phases_text(phases: Iterable[str]) -> str:
    """Phases in words joined by "or"."""
    return " or ".join(phase_name(p) for p in phases)
