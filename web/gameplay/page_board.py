"""The table page's board in tables: each faction's row, the strongholds and who holds them,
the spice on the board and the pieces a form may name (read from the snapshot and the
engine's evaluation)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from dune.engine.codec.schema import SnapshotView
from dune.engine.evaluation import Evaluation
from dune.engine.names import faction_name, place_name
from gameplay import engine_adapter as rules

#: The faction table's number columns: the heading, and its short form on a phone.
FACTION_COLUMNS = (
    (gettext_lazy("Spice"), pgettext_lazy("short for spice", "Sp")),
    (gettext_lazy("Cards"), pgettext_lazy("short for cards", "Cd")),
    (gettext_lazy("Leaders"), pgettext_lazy("short for leaders", "Ld")),
    (gettext_lazy("On board"), pgettext_lazy("short for on board", "Bd")),
    (gettext_lazy("Reserve"), pgettext_lazy("short for reserve", "Rs")),
    (gettext_lazy("Tanks"), pgettext_lazy("short for tanks", "Tk")),
)


def _num(value: Any) -> Any:
    return "?" if value is None else value


def faction_rows(snapshot: Mapping[str, Any], answer: Evaluation | None, seats: list[Any]) -> list[dict[str, Any]]:
    """Per seat: the faction's spice, cards, leaders, forces on the board (the engine's count;
    unknown in quick tracking), reserves, tanks and allies."""
    view = SnapshotView.of(snapshot)
    stats = answer.stats if answer is not None else {}
    rows = []
    for seat in seats:
        f = seat.faction
        sheet = view.sheet(f)
        allies = view.allies_of(f)
        stat = stats.get(f)
        rows.append(
            {
                "faction": f,
                "player": seat.player.name,
                "seat": seat.seat,
                "marker": sheet.marker,
                "spice": _num(sheet.counted("spice", stat and stat.spice)),
                "cards": _num(sheet.counted("cards", stat and stat.cards)),
                "leaders": _num(sheet.counted("leaders", stat and stat.leaders)),
                "on_board": _num(stat and stat.forces),
                "reserves": _num(sheet.all_forces("reserves")),
                "tanks": _num(sheet.all_forces("tanks")),
                "allies": [a for a in allies if a != f],
                "dropped": sheet.dropped,
                "strongholds": stat and stat.strongholds,
            }
        )
    return rows


def grid(snapshot: Mapping[str, Any], answer: Evaluation | None) -> list[dict[str, Any]]:
    """The quick-tracking grid's rows: each stronghold in play as the engine's evaluation
    counts them (the Shield Wall by its sides) with who stands there now."""
    places = rules.stronghold_places(answer)
    view = SnapshotView.of(snapshot)
    present: dict[str, set[str]] = {}
    for stack in view.forces:
        if stack.total:
            present.setdefault(stack.territory, set()).add(stack.faction)
            if stack.sector is not None:
                present.setdefault(f"{stack.territory}@{stack.sector}", set()).add(stack.faction)
    coexisting = view.coexisting
    control = answer.control if answer is not None else {}
    return [
        {"place": p, "present": present.get(p, set()), "coexisting": p in coexisting, "controller": control.get(p)}
        for p in places
    ]


def stronghold_tiles(snapshot: Mapping[str, Any], control: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each stronghold the engine rules on, in board order, in words: who controls it, or
    "empty", or "contested (Atreides, Harkonnen)" when several factions stand there and none
    controls it (WBC IV.1 / LoLV Glossary: Control)."""
    present: dict[str, list[str]] = {}
    for stack in SnapshotView.of(snapshot).forces:
        if stack.total:
            names = present.setdefault(stack.territory, [])
            if stack.faction not in names:
                names.append(stack.faction)
    tiles = []
    for place, controller in sorted(control.items(), key=_board_order):
        here = present.get(place.partition("@")[0], [])
        if controller:
            state, words = "held", faction_name(controller)
        elif len(here) > 1:
            factions = ", ".join(sorted(faction_name(f) for f in here))
            state, words = "contested", pgettext("a stronghold", "contested (%(factions)s)") % {"factions": factions}
        elif here:
            faction = faction_name(here[0])
            state, words = "contested", pgettext("a stronghold", "not controlled (%(faction)s)") % {"faction": faction}
        else:
            state, words = "empty", pgettext("a stronghold", "empty")
        tiles.append({"place": place, "name": place_name(place), "controller": controller, "state": state,
                      "words": words})
    return tiles


def _board_order(item: tuple[str, Any]) -> tuple[int, str]:
    printed = list(rules.printed_strongholds())
    place = item[0]
    return (printed.index(place) if place in printed else len(printed), place)


def spice_on_board(snapshot: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The spice lying on the board, by territory name."""
    board: Mapping[str, int] = SnapshotView.of(snapshot).spice_on_board or {}
    return sorted(
        ({"territory": t, "place": place_name(t), "amount": amount} for t, amount in board.items()),
        key=lambda r: r["place"],
    )


def pieces(*, hms: bool = True) -> list[tuple[str, str]]:
    """Every sector piece as a (value, label) choice: `arrakeen@9`, `polar_sink`; the Hidden
    Mobile Stronghold only with `hms` (the Ixians in the game)."""
    out = []
    for tid, name, sectors in rules.territory_choices(hms=hms):
        if not sectors:
            out.append((tid, name))
        for s in sectors:
            out.append((f"{tid}@{s}", f"{name} · {s}"))
    return out

