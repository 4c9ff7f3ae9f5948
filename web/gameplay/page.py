"""What the table judge's page shows, read from the cached snapshot and evaluation.

A fixed number of queries whatever the length of the log: the game row (snapshot and
evaluation), the seats, the last few events, the void events, the filed report.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from dune import turn_flow
from dune.engine.evaluation import Evaluation
from dune.engine.losses import KINDS
from dune.engine.names import faction_name, place_name
from dune.engine.snapshot_view import Piece, Removed, SnapshotView
from gameplay import engine_adapter as rules
from gameplay import presenters
from gameplay.models import Game
from gameplay.services import game_events, position_of, voided_seqs
from tournament.permissions import can_judge_table, is_head_judge
from tournament.table_state import state_of
from web.gameplay.actions import ACTION_EVENTS, NEXT_TURN, build

#: The faction table's number columns: the heading, and its short form on a phone.
FACTION_COLUMNS = (("Spice", "Sp"), ("Cards", "Cd"), ("Leaders", "Ld"), ("On board", "Bd"), ("Reserve", "Rs"),
                   ("Tanks", "Tk"))

#: The full-tracking fold that holds each phase's own records: open as the phase begins, so
#: its forms are a tap away in the next step's box (CHOAM Charity and bidding: spice and
#: cards; revival, shipment and movement, battle: forces).
PHASE_FOLDS = {"choam_charity": "spice-cards-leaders", "bidding": "spice-cards-leaders", "revival": "forces-forms",
               "shipment_movement": "forces-forms", "battle": "forces-forms"}

#: How many recent events the page lists (with their void buttons).
RECENT = 12

#: The forms that record a phase's own business, whose "then" button also moves on to the next
#: phase (full tracking); elsewhere a form stays as it is from phase to phase.
THEN_ACTIONS: dict[str, frozenset[str]] = {
    "storm": frozenset({"move_storm"}),
    "revival": frozenset({"revive_forces"}),
    "shipment_movement": frozenset({"place_forces", "move_forces"}),
    "battle": frozenset({"battle"}),
    "spice_collection": frozenset({"collect_spice", "harvest_spice"}),
    "bidding": frozenset({"buy_card"}),
    "choam_charity": frozenset({"collect_charity"}),
}


def _quick_then(
    step: turn_flow.Step, phase_choices: list[str], turn: int | None, *, last_turn: bool, phases: list[str],
) -> tuple[str, str] | None:
    """Quick tracking's usual answer of two steps in one tap, as the `then` value and the
    label of the next step's first button: the storm moved and no worm in the spice blow, on to
    the battle phase (a phase skipped, never gone back to: LoLV 1.00.00, AH V); the Mentat Pause
    with nobody winning and the next turn (LoLV 1.09.04). The engine checks both records: a
    victory that stands, the last turn or a clock run out refuse the pair and record neither.
    None where the step has no such pair."""
    if step.key == "move_storm" and "battle" in phases:
        return "battle", "Move, no worm: battle phase"
    if step.key == "battle_done" and step.advance_to == "mentat_pause" and "mentat_pause" in phase_choices \
            and not last_turn and turn is not None:
        return NEXT_TURN, f"Nobody wins: next turn ({turn + 1})"
    return None


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
            state, words = "contested", f"contested ({', '.join(sorted(faction_name(f) for f in here))})"
        elif here:
            state, words = "contested", f"not controlled ({faction_name(here[0])})"
        else:
            state, words = "empty", "empty"
        tiles.append({"place": place, "name": place_name(place), "controller": controller, "state": state,
                      "words": words})
    return tiles


def _board_order(item: tuple[str, Any]) -> tuple[int, str]:
    printed = list(rules.printed_strongholds())
    place = item[0]
    return (printed.index(place) if place in printed else len(printed), place)


#: The judge's sections in their usual order; the next step's own section moves first.
SECTIONS = ("setup", "nexus", "attempts", "quick", "flow", "full", "ending")


def _sections(step: turn_flow.Step, *, judge: bool) -> list[str]:
    """The judge's sections below the faction table; the next step's own section is inside
    the next step's box (`step_section`), at the top."""
    if not judge:
        return []
    return [f"gameplay/sections/{name}.html" for name in SECTIONS if name != step.section]


def _with_picked(offered: list[str], values: Mapping[str, Any] | None, action: str, factions: list[str]) -> list[str]:
    """`offered` factions plus those a refused `action` form had picked, in seat order."""
    picked: set[str] = set()
    if values and values.get("action") == action:
        for key in ("factions", "faction"):
            value = values.get(key)
            picked |= set(value if isinstance(value, list) else [value] if value else [])
    return [f for f in factions if f in offered or f in picked]


def _this_phase(recent_rows: list[dict[str, Any]]) -> list[str]:
    """Event types recorded (and not voided) since the current phase began, oldest first."""
    types: list[str] = []
    for row in recent_rows:  # newest first
        if row["type"] in ("phase_advanced", "turn_advanced", "game_setup"):
            break
        if not row.get("voided") and row["type"] != "void":
            types.append(row["type"])
    return types[::-1]


def battle_forms(position: Any, values: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The battles still to fight (the engine's `battle_choices`), in words for the battle form:
    each side's faction, forces, most it can dial and the leaders it may put on its wheel, with
    what the judge typed when `values` (a refused or previewed battle form) was this battle's."""
    out = []
    for row in rules.battles_to_fight(position):
        mine = bool(values) and values.get("action") == "battle" and values.get("territory") == row["territory"]
        sides = []
        for key, faction in (("a", row["aggressor"]), ("d", row["defender"])):
            side = row["sides"][faction]
            names = dict(rules.leaders_of(faction))
            leaders = []
            for option in side.get("leaders") or []:
                owner = option.get("leader_of") or faction
                name = dict(rules.leaders_of(owner)).get(option["leader"], option["leader"]) if owner != faction \
                    else names.get(option["leader"], option["leader"])
                held = f", {faction_name(owner)}'s" if owner != faction else ""
                leaders.append((f"{owner}|{option['leader']}", f"{name} ({option['strength']}{held})"))
            forces = side["forces"]
            typed = {k: (values or {}).get(f"{key}_{k}", "") if mine else ""
                     for k in ("leader", "dial", "spice", "weapon", "defense", "traitor", "kwisatz_haderach",
                               "stone_burner_kill", "lost_normal", "lost_special", "lost_sectors")}
            own = [o for o in side.get("leaders") or [] if (o.get("leader_of") or faction) == faction]
            if not mine and own:  # the side's strongest leader first: the usual pick
                best = max(own, key=lambda o: o["strength"])
                typed["leader"] = f"{faction}|{best['leader']}"
            sides.append({
                "key": key, "faction": faction, "name": faction_name(faction), "leaders": leaders, "typed": typed,
                "forces": forces["normal"] + forces["special"], "special": forces["special"],
                "most_dial": side["most_dial"], "spice_dialing": side["spice_dialing"],
                "kwisatz_haderach": side["kwisatz_haderach"],
            })
        out.append({"territory": row["territory"], "place": place_name(row["territory"]), "sides": sides,
                    "open": mine})
    return out


def form_defaults(snapshot: Mapping[str, Any] | SnapshotView, recent_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What a full-tracking form starts from when the answer is close to certain: the revival
    of the one faction with forces in the tanks, as many as it revives for free (LoLV 1.05.01,
    AH IX.B); the move of the faction that has just shipped (each faction ships, then moves, on
    its turn: LoLV 1.06.01, AH IX.A). The judge changes either with a tap."""
    sheets = SnapshotView.of(snapshot).factions or {}
    in_tanks = {f: int(sheet.tanks or 0) for f, sheet in sheets.items() if int(sheet.tanks or 0)}
    out: dict[str, Any] = {}
    if len(in_tanks) == 1:
        faction, count = next(iter(in_tanks.items()))
        out["revive_faction"], out["revive_normal"] = faction, min(count, rules.free_revival(faction))
    for row in recent_rows:  # newest first, back to the start of this phase
        if row["type"] in ("phase_advanced", "turn_advanced", "game_setup"):
            break
        if row["type"] == "forces_placed" and not row.get("voided"):
            out["move_faction"] = (row.get("event") or {}).get("faction")
            break
    return out


def _priced(game: Game, defaults: dict[str, Any]) -> dict[str, Any]:
    """The defaults with the rules' price of the default revival (LoLV 1.05.01.02, AH IX.B.1),
    when the engine knows it, of the next Ambassador (2.11.06), and the shipment's faction: the next in storm order whose turn
    has not begun (LoLV 1.06.01, AH IX.C)."""
    position = position_of(game)
    defaults["ship_faction"] = rules.next_to_ship(position)
    defaults["ambassador_cost"] = rules.ambassador_cost(position)
    if defaults.get("revive_faction"):
        cost = rules.revival_cost(position, defaults["revive_faction"], int(defaults["revive_normal"] or 0))
        if cost is not None:
            defaults["revive_cost"] = cost
    return defaults


#: The one-tap income forms (bidding, CHOAM Charity, the collection round).
INCOME_ACTIONS = frozenset({"buy_card", "collect_charity", "harvest_spice"})

#: The phases whose own record is an income form: there the forms stand in the next step's box;
#: in any other phase (CHOAM Charity is not tied to one) they wait in the "Spice, cards, leaders"
#: fold, so the phase's own forms keep to a phone's first screens.
INCOME_STEP_PHASES = frozenset(phase for phase, actions in THEN_ACTIONS.items() if actions & INCOME_ACTIONS)


def income_forms(game: Game, can: set[str]) -> dict[str, Any]:
    """The bidding round, CHOAM Charity and the collection round as the engine derives them
    (`engine_adapter.income_offers`), in words for the one-tap forms: each line a faction and
    its spice, with the hidden values the tap sends back for the engine to check."""
    if not can & INCOME_ACTIONS:
        return {}
    offers = rules.income_offers(position_of(game))
    charity = offers["charity"]
    number, dealt, over = offers["card"]
    return {
        "bidders": [{"faction": f, "name": faction_name(f), "spice": spice, "cards": cards} for f, spice, cards in offers["bidders"]],
        "card_number": number,
        "cards_dealt": dealt,
        "bidding_over": over,
        "charity_known": charity is not None,
        "charity": [{"faction": f, "name": faction_name(f), "amount": n, "value": f"{f}:{n}"} for f, n in sorted((charity or {}).items())],
        "collections": [
            {"name": faction_name(f), "place": place_name(t), "amount": n, "value": f"{f}|{t}|{n}"}
            for f, t, n in offers["collections"]
        ],
        "income": [{"name": faction_name(f), "amount": n, "value": f"{f}:{n}"} for f, n in sorted(offers["income"].items())],
    }


def battle_words(resolution: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's resolution of a battle before it is recorded, in words with its rules."""
    outcome = resolution.get("outcome")
    winner, loser = resolution.get("winner"), resolution.get("loser")
    if outcome == "two_traitors":
        head = "Both leaders are traitors: no winner, both sides lose"
    elif outcome == "explosion":
        head = "Lasgun and shield: everything in the territory is lost"
    else:
        how = " (traitor called)" if outcome == "traitor" else ""
        head = f"{faction_name(winner or '')} win{how}; {faction_name(loser or '')} lose"
    totals = ", ".join(f"{faction_name(f)} {t}" for f, t in (resolution.get("totals") or {}).items() if t is not None)
    lines = []
    for loss in resolution.get("losses") or []:
        count = int(loss["normal"]) + int(loss["special"]) + int(loss["advisors"])
        lines.append((f"{faction_name(loss['faction'])} lose {count} force{'s' if count != 1 else ''} in "
                      f"{place_name(loss['territory'])}", loss.get("rule") or ""))
    for fate in resolution.get("leaders") or []:
        name = dict(rules.leaders_of(fate["faction"])).get(fate["leader"], fate["leader"])
        status = str(fate["status"]).replace("_", " ")
        lines.append((f"{name} ({faction_name(fate['faction'])}): {status}", fate.get("rule") or ""))
    for faction, cards in (resolution.get("discarded") or {}).items():
        if cards:
            lines.append((f"{faction_name(faction)} discard {', '.join(c.replace('_', ' ') for c in cards)}", ""))
    for faction, spice in (resolution.get("spice") or {}).items():
        if spice:
            lines.append((f"{faction_name(faction)}: {spice:+d} spice", ""))
    rulings = [(r.get("text", ""), r.get("rule", "")) for r in resolution.get("rulings") or []]
    return {"head": head, "totals": totals, "lines": lines, "rulings": rulings}


def preview_battle(game: Game, form: Mapping[str, Any]) -> dict[str, Any]:
    """The posted battle form's resolution by the engine, in words, recording nothing.
    Raises Refusal (a field of the form, or the engine's rule) as recording it would."""
    return battle_words(rules.battle_resolution(position_of(game), build("battle", form)))


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


def _next_phase(phase: str | None, phase_list: list[str]) -> str | None:
    """The phase after `phase`: setup goes on to turn 1's storm phase; after the Mentat Pause
    comes a new turn (no next phase)."""
    if phase in phase_list[:-1]:
        return phase_list[phase_list.index(phase) + 1]
    return phase_list[0] if phase == "setup" else None


def _attempts(snapshot: Mapping[str, Any] | SnapshotView, answer: Evaluation | None, turn: Any) -> tuple[list[list[str]], list[list[str]]]:
    """The win attempts the engine proposes that are not yet confirmed this turn, and the
    confirmed ones (LoLV 4.01.04)."""
    done = {tuple(sorted(side)) for t, side in SnapshotView.of(snapshot).attempts if t == turn}
    proposed = answer.win_attempts if answer is not None else ()
    proposals = [list(side) for side in proposed if tuple(sorted(side)) not in done]
    return proposals, [list(side) for side in sorted(done)]


def _judge_forms(game: Game, *, error: dict[str, Any] | None) -> tuple[set[str], list[str], dict[str, Any]]:
    """The forms a judge is offered now, the phases the game may advance to and the engine's
    offers (the factions each alliance form lists)."""
    offered = rules.offers(position_of(game))
    # Only what the engine's choices accept now: a form it would refuse is never offered.
    allowed = set(offered["allowed"])
    can = {action for action, event_type in ACTION_EVENTS.items() if event_type in allowed}
    if error and error.get("action") in ACTION_EVENTS:
        can.add(error["action"])  # a refused form stays on the page with its error
    return can, list(offered["phases"]), offered


def removed_by_engine(snapshot: Mapping[str, Any], posted: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """What the engine removed by itself (storm, worm, an ally's territory) and was not put
    back, in words: the snapshot's `losses` rows with display names, each with what its
    put-back form starts from (`typed`: what was removed, or what the judge typed when
    `posted`, a refused form's values, was that row's form). A row of a faction's forces puts
    them back from the tanks; a row of spice (no faction) sets the territory's spice back."""
    rows = []
    view = SnapshotView.of(snapshot)
    board: Mapping[str, int] = view.spice_on_board or {}
    for row in view.losses:
        if row.ambassador:
            rows.append(_ambassador_removed(row))
        elif row.faction:
            rows.append(_forces_removed(row, posted))
        else:
            rows.append(_spice_removed(row, board, posted))
    return rows


def _ambassador_removed(row: Removed) -> dict[str, Any]:
    """An Ecaz Ambassador the storm sent back to the supply (LoLV 2.11.09): nothing to put back."""
    territory, sector = row.territory, row.sector
    return {
        "faction": faction_name(str(row.faction or "ecaz")),
        "faction_id": row.faction,
        "ambassador": faction_name(str(row.ambassador)),
        "place": place_name(territory if sector is None else f"{territory}@{sector}") if territory else "",
        "forces": 0,
        "spice": 0,
        "rule": row.rule,
        "put_back": False,
        "open": False,
        "typed": {},
    }


def _forces_removed(row: Removed, posted: Mapping[str, Any] | None) -> dict[str, Any]:
    faction, territory, sector = row.faction, row.territory, row.sector
    piece = territory if sector is None else f"{territory}@{sector}"
    counts = {k: row.count(k) for k in KINDS}
    forces = sum(counts.values())
    asked: Mapping[str, Any] = posted if posted and posted.get("action") == "correct_loss" else {}
    mine = bool(asked) and (asked.get("faction"), asked.get("piece")) == (faction, piece)
    typed: dict[str, Any] = {**counts, "reason": ""}
    if mine:
        typed.update({k: asked.get(k, "") for k in typed})
    return {
        "faction": faction_name(faction) if faction else "",
        "faction_id": faction,
        "place": place_name(piece) if piece else "",
        "piece": piece,
        "forces": forces,
        **counts,
        "spice": 0,
        "rule": row.rule,
        "put_back": bool(faction and territory and forces),
        "open": mine,
        "typed": typed,
    }


def _spice_removed(row: Removed, board: Mapping[str, int], posted: Mapping[str, Any] | None) -> dict[str, Any]:
    territory, sector = row.territory, row.sector
    spice = row.spice
    asked: Mapping[str, Any] = posted if posted and posted.get("action") == "set_board_spice" else {}
    mine = bool(asked) and asked.get("territory") == territory
    typed: dict[str, Any] = {"amount": int(board.get(territory) or 0) + spice, "reason": ""}
    if mine:
        typed.update({k: asked.get(k, "") for k in typed})
    return {
        "faction": "",
        "faction_id": None,
        "place": place_name(territory if sector is None else f"{territory}@{sector}") if territory else "",
        "territory": territory,
        "forces": 0,
        "spice": spice,
        "rule": row.rule,
        "put_back": False,
        "spice_back": bool(territory and spice),
        "open": mine,
        "typed": typed,
    }


#: The expansion block whose forms record each event type (`expansion_pieces`).
_EXPANSION_BLOCKS = {
    "ambassador_placed": "ecaz", "ambassador_removed": "ecaz", "terror_placed": "moritani",
    "terror_revealed": "moritani", "no_field_placed": "richese", "no_field_revealed": "richese",
    "hms_moved": "ixians",
}


#: The expansion block holding the phase's own record, when its faction plays.
_PHASE_BLOCKS = {("shipment_movement", True): "ecaz", ("mentat_pause", True): "moritani"}


def expansion_pieces(
    snapshot: Mapping[str, Any], factions: list[str], *, judge: bool, quick: bool, just_done: str | None,
    phase: str | None = None,
) -> dict[str, Any]:
    """What the forms for the expansion factions' pieces offer (a judge's page in full
    tracking; a faction's forms only when it plays): the Ecaz Ambassadors (LoLV 2.11.05-09),
    the Moritani Terror tokens (2.12.05-09), the Richese No-Field token (2.10.10-13), the
    Ixian Hidden Mobile Stronghold (2.07.04, 2.07.18) and the Bene Gesserit flip (2.02.10).
    `just_done`: the event type just recorded or refused, whose block stays open."""
    playing = {f: judge and not quick and f in factions for f in ("ecaz", "moritani", "richese", "ixians")}
    playing_now = {"shipment_movement": playing["ecaz"], "mentat_pause": playing["moritani"]}.get(phase or "", False)
    view = SnapshotView.of(snapshot)
    ambassadors: Mapping[str, str] = view.ambassadors or {}
    return {
        "flip_sides": rules.flip_targets(),
        # The block just used stays open; else the phase's own (Ambassadors in shipment and
        # movement, LoLV 2.11.05; Terror tokens at the Mentat Pause, 2.12.05).
        "expansion_open": _EXPANSION_BLOCKS.get(just_done or "") or _PHASE_BLOCKS.get((phase or "", playing_now)),
        "ecaz_in_game": playing["ecaz"],
        "moritani_in_game": playing["moritani"],
        "richese_in_game": playing["richese"],
        "ixians_in_game": playing["ixians"],
        "strongholds": rules.stronghold_choices() if playing["ecaz"] or playing["moritani"] else [],
        "ambassador_symbols": rules.ambassador_symbols() if playing["ecaz"] else [],
        "ambassadors_on_board": sorted(
            ((t, f"{place_name(t)}: {faction_name(symbol)}") for t, symbol in ambassadors.items()), key=lambda x: x[1]
        ),
        "terror_on_board": sorted(((t, place_name(t)) for t in view.terror), key=lambda x: x[1]),
        "no_field_place": _piece_name(view.no_field),
        "hms_place": _piece_name(view.hms),
        "terror_effects": rules.terror_effects(),
        "no_field_numbers": rules.no_field_numbers(),
    }


def _piece_name(piece: Piece) -> str:
    """A snapshot's `[territory, sector]` in words (`The Great Flat (sector 14)`); '' for none."""
    if not piece:
        return ""
    territory, sector = piece
    return place_name(territory if sector is None else f"{territory}@{sector}")


def spice_on_board(snapshot: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The spice lying on the board, by territory name."""
    board: Mapping[str, int] = SnapshotView.of(snapshot).spice_on_board or {}
    return sorted(
        ({"territory": t, "place": place_name(t), "amount": amount} for t, amount in board.items()),
        key=lambda r: r["place"],
    )


def move_kinds(offered: Mapping[str, Any], cite: Mapping[str, str], this_phase: list[str]) -> list[tuple[str, str]]:
    """The move form's "How" choices, each with its rule: the kinds of move the engine lists
    for this phase; a worm ride once a worm has appeared this phase (AH VII.A.2.b, WBC VII.6,
    LoLV 2.04.08). Empty when the movement is the only kind (the form then asks nothing)."""
    words = {
        "move": _("Movement"),
        "worm": _("Fremen ride the worm (%(rule)s)"),
        "cross_ship": _("Guild cross-planet shipment (%(rule)s)"),
        "ambassador": _("Fremen Ambassador's move (%(rule)s)"),
    }
    rules_of = {"worm": "worm_ride", "cross_ship": "cross_ship", "ambassador": "ambassador"}
    kinds = [k for k in offered.get("move_kinds") or () if k != "worm" or "worm" in this_phase]
    if kinds == ["move"] or not kinds:
        return []
    return [(k, words[k] % {"rule": cite.get(rules_of.get(k, ""), "")}) for k in kinds]


def page_context(
    request: HttpRequest,
    table: Any,
    game: Game,
    *,
    error: dict[str, Any] | None = None,
    stale: dict[str, Any] | None = None,
    values: dict[str, Any] | None = None,
    filed: Any = None,
) -> dict[str, Any]:
    """Everything the table page shows; `filed` is the table's filed game report, if any.

    Long because its dictionary lists every name the page's template reads."""
    user = request.user
    judge = can_judge_table(user, table)
    head = is_head_judge(user, table.round.tournament)
    snapshot: Mapping[str, Any] = game.position or {}
    view = SnapshotView.of(snapshot)
    answer = rules.answer_of(game.evaluation)
    shown = snapshot if judge else rules.redact(snapshot, answer)
    if not judge:
        answer = rules.redact_answer(snapshot, answer)
    seats = list(table.seats.select_related("player").order_by("seat"))
    factions = [s.faction for s in seats]
    recent = game_events(game, latest=RECENT)
    voided = voided_seqs(game.events.filter(type="void")) if game.pk is not None else set()
    phase = answer.phase if answer is not None else view.phase
    phase_list = list(rules.phases())
    next_phase = _next_phase(phase, phase_list)
    control = answer.control if answer is not None else {}
    turn_now = answer.turn if answer is not None else view.turn
    proposals, confirmed = _attempts(view, answer, turn_now)
    outcome = answer.outcome if answer is not None else None
    # The table's state (`tournament.table_state`); a report filed in this request may not be
    # on the loaded row yet, so the filed report counts too.
    state = state_of(
        game_started=table.game_started_at is not None,
        clock_started=table.clock_started_at is not None,
        filed=table.report_filed_at is not None or bool(filed is not None and filed.locked),
        decided=bool(outcome) or view.ended,
    )
    can: set[str] = set()
    phase_choices: list[str] = []
    offered: dict[str, Any] = {}
    if judge and not state.filed:  # a filed report closes the record: nothing is offered under it
        can, phase_choices, offered = _judge_forms(game, error=error)
        if next_phase not in phase_choices:
            next_phase = phase_choices[0] if phase_choices else None
    recent_rows = presenters.events_json(recent, game=game, judge=judge, voided=voided)
    step = turn_flow.next_step(
        phase=phase, turn=turn_now, storm=view.storm, this_phase=_this_phase(recent_rows),
        nexus_open=view.nexus and bool(can & {"form_alliance", "break_alliance"}),
        proposals=len(proposals) if "confirm_win_attempt" in can else 0,
        victory_proposed=answer is not None and bool(answer.victory) and "claim_victory" in can,
        allowed={ACTION_EVENTS[action] for action in can}, quick=game.tracking == Game.Tracking.QUICK,
        # A filed report ends the game, even one judged on paper with no result in the record.
        over=state.over,
        next_phase=next_phase,
        to_place=[faction_name(f) for f in offered.get("to_place") or ()],
    )
    full = judge and game.tracking != Game.Tracking.QUICK
    if full and step.key == "next_turn" and "moritani" in factions and "place_terror" in can:
        # The Moritani place their Terror tokens at the Mentat Pause (LoLV 2.12.05): the forms
        # come with the next turn's button, at the top.
        step = dataclasses.replace(step, section="full")
    # In full tracking a form's second button records its event and moves on to the next phase
    # in one request; the phases after that may be reached in one tap too (skipped phases allowed).
    then_to = next_phase if full and next_phase in phase_choices else None
    if then_to == "spice_collection" and not view.spice_on_board and "mentat_pause" in phase_choices:
        then_to = "mentat_pause"  # no spice lies on the board: nothing to collect (LoLV 1.08, AH XI)
    then_actions = THEN_ACTIONS.get(phase or "", frozenset()) if then_to else frozenset()
    later = phase_choices[phase_choices.index(next_phase) + 1:] if full and next_phase in phase_choices else []
    stands = answer.victory if answer is not None else None
    quick_then = (
        _quick_then(step, phase_choices, turn_now, last_turn=view.last_turn, phases=phase_list)
        if judge and game.tracking == Game.Tracking.QUICK and stands is None else None
    )
    if stands is not None and step.advance_to == "mentat_pause":
        # A faction (or an alliance) holds what wins: the main button goes to the Mentat Pause,
        # where the victory is confirmed, never on to another turn (LoLV 1.09.02, AH IV.A).
        step = dataclasses.replace(step, advance_label=_("Mentat Pause: %(winners)s win") % {
            "winners": " & ".join(faction_name(f) for f in stands.winners)})
    return {
        "step": step,
        "then_to": then_to,
        "then_label": turn_flow.phase_label(then_to) if then_to else "",
        "then_actions": then_actions,
        "quick_then": quick_then,
        "later_phases": [(p, turn_flow.phase_label(p)) for p in later],
        "defaults": _priced(game, form_defaults(snapshot, recent_rows)) if full else {},
        "cite": rules.citations(game.ruleset),
        "move_kinds": move_kinds(offered, rules.citations(game.ruleset), _this_phase(recent_rows)) if full else [],
        "sections": _sections(step, judge=judge),
        "step_section": f"gameplay/sections/{step.section}.html" if judge and step.section else None,
        "poll_etag": presenters.game_etag(game, judge=judge),
        # The alliance forms list what the engine accepts now; a refused form keeps its picks.
        "allies": _with_picked(offered.get("allies") or [], values, "form_alliance", factions),
        "breakers": _with_picked(offered.get("breakers") or [], values, "break_alliance", factions),
        "can": can,
        "phase_choices": phase_choices,
        "table": table,
        "tournament": table.round.tournament,
        "round": table.round,
        "game": game,
        "seq": game.seq,
        "judge": judge,
        "head": head,
        "snapshot": shown,
        "answer": answer,
        "turn": turn_now,
        "phase": phase,
        "phases": phase_list,
        "next_phase": next_phase,
        "storm": view.storm,
        "worms": view.worms,
        "nexus_open": view.nexus,
        # In board order, whatever order the stored evaluation kept its keys in.
        "control": stronghold_tiles(shown, control),
        "factions": factions,
        "rows": faction_rows(snapshot, answer, seats),
        "faction_columns": FACTION_COLUMNS,
        "phase_fold": PHASE_FOLDS.get(phase or "") if game.tracking != Game.Tracking.QUICK else None,
        "battles": battle_forms(position_of(game), values) if judge and "battle" in can else [],
        "income_forms": income_forms(game, can) if full else {},
        "income_in_step": phase in INCOME_STEP_PHASES,
        "battle_cards": rules.battle_cards(game.ruleset) if judge and "battle" in can else {},
        "stone_burner": judge and "battle" in can and "stone_burner" in rules.citations(game.ruleset),
        "grid": grid(snapshot, answer) if judge else [],
        "proposals": proposals,
        "confirmed_attempts": confirmed,
        "victory": answer.victory if answer is not None else None,
        "end_of_game": answer.end_of_game if answer is not None else None,
        "adjudication": answer.adjudication if answer is not None else None,
        "outcome": outcome,
        "prediction": SnapshotView.of(shown).bg_prediction,
        "bg_in_game": "bene_gesserit" in factions,
        # A heat of six under the WBC: three factions ally only if the table agreed at the start.
        "three_alliances": SnapshotView.of(snapshot).three_alliances and len(factions) == 6,
        "to_place": [faction_name(f) for f in offered.get("to_place") or ()],
        **expansion_pieces(
            shown, factions, judge=judge, quick=game.tracking == Game.Tracking.QUICK,
            just_done=ACTION_EVENTS.get((error or {}).get("action", "")) or (recent_rows[0]["type"] if recent_rows else None),
            phase=phase,
        ),
        "recent": recent_rows,
        "removed": removed_by_engine(snapshot, values) if judge else [],
        "pieces": pieces(hms="ixians" in factions) if judge else [],
        "territories": rules.territory_choices(hms="ixians" in factions) if judge else [],
        "spice_on_board": spice_on_board(snapshot),
        "blow_choices": rules.spice_blow_choices() if judge else [],
        "leaders": [(f"{f}|{lid}", f"{faction_name(f)}: {name}") for f in factions for lid, name in rules.leaders_of(f)]
        if judge
        else [],
        "leader_states": rules.leader_states(),
        "filed": filed,
        "error": error,
        "stale": stale,
        "values": values,
        "ended": state.over,
        "table_state": state,
        # Under a filed report the page speaks of the report's turns, not of the record's position.
        "filed_turns": (filed.data or {}).get("turns") if state.filed and filed is not None else None,
    }
