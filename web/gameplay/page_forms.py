"""The forms the table page offers a judge, filled from the engine: which forms the engine
accepts now, what each starts from, the battles still to fight, the income rounds, the
expansion factions' pieces and what the engine removed by itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dune.engine.codec.schema import Piece, Removed, SnapshotView
from dune.engine.losses import KINDS
from dune.engine.names import faction_name, place_name
from foundation.core_words import card_words, core_refusal, core_status
from gameplay import engine_adapter as rules
from gameplay.models import Game
from gameplay.services import position_of
from web.gameplay.actions import ACTION_EVENTS, build

#: The forms that record a phase's own business, whose "then" button also moves on to the next
#: phase (full tracking); elsewhere a form stays as it is from phase to phase.
THEN_ACTIONS: dict[str, frozenset[str]] = {
    "storm": frozenset({"move_storm"}),
    "revival": frozenset({"revive_forces"}),
    "shipment_movement": frozenset({"place_forces", "move_forces"}),
    "battle": frozenset({"battle"}),
    "spice_collection": frozenset({"collect_spice", "harvest_spice"}),
    "bidding": frozenset({"buy_card"}),
    "spice_blow": frozenset({"spice_blow"}),
    "choam_charity": frozenset({"collect_charity"}),
}


def with_picked(offered: list[str], values: Mapping[str, Any] | None, action: str, factions: list[str]) -> list[str]:
    """`offered` factions plus those a refused `action` form had picked, in seat order."""
    picked: set[str] = set()
    if values and values.get("action") == action:
        for key in ("factions", "faction"):
            value = values.get(key)
            picked |= set(value if isinstance(value, list) else [value] if value else [])
    return [f for f in factions if f in offered or f in picked]


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


def form_defaults(snapshot: Mapping[str, Any] | SnapshotView, recent_rows: list[dict[str, Any]],
                  worm_territory: str | None = None) -> dict[str, Any]:
    """What a full-tracking form starts from when the answer is close to certain: the revival
    of the one faction with forces in the tanks, as many as it revives for free (LoLV 1.05.01,
    AH IX.B); the move of the faction that has just shipped (each faction ships, then moves, on
    its turn: LoLV 1.06.01, AH IX.A); the worm's territory (`worm_defaults`). The judge changes
    any of them with a tap."""
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
    return out | worm_defaults(snapshot, worm_territory)


def worm_territory(game: Game) -> str | None:
    """Where a worm turned over next appears: the territory on top of its own Spice discard
    pile, from the game's whole log of Spice Blow cards and worms, voided ones left out (AH
    VII.A.2, LoLV 1.02.05, 1.13.02.01-02), or None when that pile holds no territory yet."""
    if game.pk is None:
        return None
    kinds = ("turn_advanced", "spice_blow", "worm", "void")
    events = list(game.events.filter(type__in=kinds).order_by("seq").values_list("seq", "type", "body"))
    voided = {int((body or {}).get("seq", 0)) for _, kind, body in events if kind == "void"}
    log = [(kind, (body or {}).get("territory")) for seq, kind, body in events
           if kind != "void" and seq not in voided]
    return rules.worm_territory(position_of(game), log)


def worm_defaults(snapshot: Mapping[str, Any] | SnapshotView, territory: str | None) -> dict[str, Any]:
    """The worm appears in `territory`, the one on top of its own Spice discard pile
    (`worm_territory`; AH VII.A.2, LoLV 1.02.05, 1.13.02.01-02): the worm form starts from it,
    and in the spice blow phase the move form, a Fremen worm ride (AH VII.A.2.b, WBC VII.6,
    LoLV 2.04.08), starts from the Fremen there. Nothing when the territory is unknown."""
    if not territory:
        return {}
    out: dict[str, Any] = {"worm_territory": territory}
    view = SnapshotView.of(snapshot)
    if view.phase == "spice_blow":
        fremen = [s for s in view.forces if s.faction == "fremen" and s.territory == territory]
        if fremen:
            sector = fremen[0].sector
            out["move_faction"] = "fremen"
            out["move_from"] = territory if sector is None else f"{territory}@{sector}"
    return out


def priced(game: Game, defaults: dict[str, Any]) -> dict[str, Any]:
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
INCOME_ACTIONS = frozenset({"buy_card", "collect_charity", "harvest_spice", "place_inflation"})


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
        "opener": faction_name(offers["opener"]) if offers.get("opener") else "",
        "charity_known": charity is not None,
        "charity": [{"faction": f, "name": faction_name(f), "amount": n, "value": f"{f}:{n}"} for f, n in sorted((charity or {}).items())],
        # With the CHOAM: what they pay the others from their own spice (2.09.04), and the
        # Inflation token's side this turn (2.09.10-11).
        "choam_pays": sum(n for f, n in (charity or {}).items() if f != "choam") if "choam" in (charity or {}) else None,
        "inflation": {"double": _("Welfare State: every amount doubled (2.09.10)"),
                      "cancel": _("Market Crash: no charity this turn (2.09.11)")}.get(offers["inflation"] or ""),
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
    sides = {"winner": faction_name(winner or ""), "loser": faction_name(loser or "")}
    if outcome == "two_traitors":
        head = _("Both leaders are traitors: no winner, both sides lose")
    elif outcome == "explosion":
        head = _("Lasgun and shield: everything in the territory is lost")
    elif outcome == "traitor":
        head = _("%(winner)s win (traitor called); %(loser)s lose") % sides
    else:
        head = _("%(winner)s win; %(loser)s lose") % sides
    totals = ", ".join(f"{faction_name(f)} {t}" for f, t in (resolution.get("totals") or {}).items() if t is not None)
    lines = []
    for loss in resolution.get("losses") or []:
        count = int(loss["normal"]) + int(loss["special"]) + int(loss["advisors"])
        lost = {"faction": faction_name(loss["faction"]), "count": count, "place": place_name(loss["territory"])}
        words = ngettext("%(faction)s lose %(count)s force in %(place)s", "%(faction)s lose %(count)s forces in %(place)s",
                         count) % lost
        lines.append((words, loss.get("rule") or ""))
    for fate in resolution.get("leaders") or []:
        name = dict(rules.leaders_of(fate["faction"])).get(fate["leader"], fate["leader"])
        status = core_status(str(fate["status"]))
        words = _("%(name)s (%(faction)s): %(status)s") % {"name": name, "faction": faction_name(fate["faction"]), "status": status}
        lines.append((words, fate.get("rule") or ""))
    for faction, cards in (resolution.get("discarded") or {}).items():
        if cards:
            discarded = {"faction": faction_name(faction), "cards": ", ".join(card_words(c) for c in cards)}
            lines.append((_("%(faction)s discard %(cards)s") % discarded, ""))
    for faction, spice in (resolution.get("spice") or {}).items():
        if spice:
            lines.append((_("%(faction)s: %(spice)s spice") % {"faction": faction_name(faction), "spice": f"{spice:+d}"}, ""))
    rulings = [(core_refusal(r.get("text", "")), r.get("rule", "")) for r in resolution.get("rulings") or []]
    return {"head": head, "totals": totals, "lines": lines, "rulings": rulings}


def preview_battle(game: Game, form: Mapping[str, Any]) -> dict[str, Any]:
    """The posted battle form's resolution by the engine, in words, recording nothing.
    Raises Refusal (a field of the form, or the engine's rule) as recording it would."""
    return battle_words(rules.battle_resolution(position_of(game), build("battle", form)))


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


def judge_forms(game: Game, *, error: dict[str, Any] | None) -> tuple[set[str], list[str], dict[str, Any]]:
    """The forms a judge is offered now, the phases the game may advance to and the engine's
    offers (the factions each alliance form lists)."""
    offered = rules.offers(position_of(game))
    # Only what the engine's choices accept now: a form it would refuse is never offered.
    allowed = set(offered["allowed"])
    can = {action for action, event_type in ACTION_EVENTS.items() if event_type in allowed}
    if error and error.get("action") in ACTION_EVENTS:
        can.add(error["action"])  # a refused form stays on the page with its error
    return can, list(offered["phases"]), offered

