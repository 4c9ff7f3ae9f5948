"""The table page's quick actions: each turns a posted form into one engine event.

A builder only reads and types the form (a missing or non-numeric field is an `ActionError`
naming the field); whether the event is legal is the engine's decision, made in
`services.append_event`. The same events can be posted to the API directly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from dune.engine.events import FLIP_TARGETS, TERROR_EFFECTS
from dune.engine.ids import FACTIONS
from dune.refusals import Refusal
from dune.text_rules import whole_number
from gameplay.commands import EventCommand


class ActionError(Refusal):
    """A form field is missing or malformed; `field` names it for the page (a refusal like
    any other, so the page shows every refusal of a command the same way)."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message, field=field, text=f"{field}: {message}")


Form = Mapping[str, Any]  # a QueryDict (getlist) or a plain dict in tests
Builder = Callable[[Form], dict[str, Any]]


def _get(form: Form, name: str) -> str:
    value = form.get(name)
    return "" if value is None else str(value).strip()


def _getlist(form: Form, name: str) -> list[str]:
    if hasattr(form, "getlist"):
        return [str(v) for v in form.getlist(name)]
    value = form.get(name)
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]


def _int(
    form: Form, name: str, *, required: bool = True, low: int | None = None, high: int | None = None, what: str = "",
) -> int | None:
    """A whole number; `what` names it for a blank required field ("enter the spice collected")."""
    raw = _get(form, name)
    if raw == "":
        if required:
            raise ActionError(name, _("enter %(what)s") % {"what": what} if what else _("enter a number"))
        return None
    value = whole_number(raw, signed=True)
    if value is None:
        raise ActionError(name, _("must be a whole number, got %(raw)s") % {"raw": repr(raw)})
    if low is not None and value < low:
        raise ActionError(name, _("must be at least %(low)s") % {"low": low})
    if high is not None and value > high:
        raise ActionError(name, _("must be at most %(high)s") % {"high": high})
    return value


def _faction(form: Form, name: str = "faction") -> str:
    value = _get(form, name)
    if value not in FACTIONS:
        raise ActionError(name, _("choose a faction"))
    return value


def _factions(form: Form, name: str = "factions", *, at_least: int = 1) -> list[str]:
    chosen = [f for f in _getlist(form, name) if f in FACTIONS]
    if len(chosen) < at_least:
        raise ActionError(name, ngettext("choose at least %(count)s faction", "choose at least %(count)s factions", at_least) % {"count": at_least})
    return chosen


def _optional_faction(form: Form, name: str) -> str | None:
    """A faction, or None when the field is blank (the storm, an unknown cause)."""
    return _faction(form, name) if _get(form, name) else None


def _sector(form: Form, name: str) -> int | None:
    """A sector 0..17, or blank for the Polar Sink (which spans no sector)."""
    return _int(form, name, required=False, low=0, high=17)


def _territory(form: Form, name: str = "territory", *, required: bool = True) -> str | None:
    value = _get(form, name)
    if not value and required:
        raise ActionError(name, _("choose a territory"))
    return value or None


def _piece(form: Form, name: str) -> tuple[str, int | None]:
    """A `territory@sector` choice (or a bare territory for the Polar Sink)."""
    value = _get(form, name)
    if not value:
        raise ActionError(name, gettext("choose a territory and sector"))
    territory, _, sector = value.partition("@")
    number = whole_number(sector)
    if sector and number is None:
        raise ActionError(name, gettext("unknown sector in %(value)s") % {"value": repr(value)})
    return territory, number


def _counts(form: Form) -> dict[str, int]:
    counts = {k: _int(form, k, required=False, low=0) or 0 for k in ("normal", "special", "advisors")}
    if not any(counts.values()):
        raise ActionError("normal", _("give a number of forces"))
    return counts


# --- builders --------------------------------------------------------------------------


def advance_phase(form: Form) -> dict[str, Any]:
    phase = _get(form, "phase")
    if not phase:
        raise ActionError("phase", _("choose a phase"))
    return {"type": "phase_advanced", "phase": phase}


def advance_turn(form: Form) -> dict[str, Any]:
    return {"type": "turn_advanced", "turn": _int(form, "turn", required=False, low=1)}


def place_storm(form: Form) -> dict[str, Any]:
    return {"type": "storm_placed", "sector": _int(form, "sector", low=0, high=17)}


def move_storm(form: Form) -> dict[str, Any]:
    return {"type": "storm_moved", "sectors": _int(form, "sectors", low=0, high=18)}


def worm(form: Form) -> dict[str, Any]:
    return {"type": "worm", "territory": _territory(form, required=False), "karama": bool(_get(form, "karama"))}


def form_alliance(form: Form) -> dict[str, Any]:
    """An alliance; where the form asked whether the table agreed at the start of the game to
    three-faction alliances (a WBC heat of six: WBC house rules, alliances), three factions need
    the judge's yes."""
    factions = _factions(form, at_least=2)
    if len(factions) == 3 and _get(form, "consent_asked") and not _get(form, "consent"):
        raise ActionError("consent", _(
            "three factions ally only if every player at the table agreed at the start of the game "
            "(WBC house rules, alliances): tick that they did, or form an alliance of two"))
    return {"type": "alliance_formed", "factions": factions}


def break_alliance(form: Form) -> dict[str, Any]:
    return {"type": "alliance_broken", "faction": _faction(form)}


def quick_record(form: Form) -> dict[str, Any]:
    """The strongholds × factions grid: checkboxes `occ` valued `<stronghold>|<faction>`,
    `coex` valued `<stronghold>` where the BG stands as advisors (coexisting)."""
    occupants: dict[str, list[str]] = {}
    for cell in _getlist(form, "occ"):
        place, _, faction = cell.partition("|")
        if faction not in FACTIONS or not place:
            raise ActionError("occ", gettext("unknown grid cell %(cell)s") % {"cell": repr(cell)})
        occupants.setdefault(place, []).append(faction)
    coexisting = sorted(set(_getlist(form, "coex")))
    for place in coexisting:  # BG advisors there: the BG is present, coexisting
        if "bene_gesserit" not in occupants.setdefault(place, []):
            occupants[place].append("bene_gesserit")
    for place in _getlist(form, "places"):
        occupants.setdefault(place, [])
    return {
        "type": "quick_record",
        "occupants": occupants,
        "coexisting": coexisting,
        "storm": _sector(form, "storm"),
        "worms": _int(form, "worms", required=False, low=0),
    }


#: The actions whose spice cost, left empty, is the rules' price (`commands.EventCommand.priced`).
PRICED: frozenset[str] = frozenset({"place_forces", "revive_forces", "place_ambassador"})


def _cost(form: Form) -> dict[str, int]:
    """The spice paid with the shipment, revival or Ambassador, when the judge typed one."""
    cost = _int(form, "cost", required=False, low=0)
    return {} if cost is None else {"cost": cost}


def place_forces(form: Form) -> dict[str, Any]:
    """Forces onto the board with the shipment's payment (LoLV 1.06.02.01, AH IX.C.1.b);
    `karama`: a shipment bought at the Guild's rate with a Karama card (3.01.11.03, WBC
    Player Aid 18)."""
    territory, sector = _piece(form, "piece")
    source = _get(form, "source") or "reserves"
    return {"type": "forces_placed", "faction": _faction(form), "territory": territory, "sector": sector,
            **_counts(form), "source": source, "karama": bool(_get(form, "karama")), **_cost(form)}


def move_forces(form: Form) -> dict[str, Any]:
    src, src_sector = _piece(form, "from_piece")
    dst, dst_sector = _piece(form, "to_piece")
    via = _get(form, "via") or "move"  # a worm ride, a Guild cross-planet shipment (the engine checks)
    return {"type": "forces_moved", "faction": _faction(form), "from_territory": src, "from_sector": src_sector,
            "to_territory": dst, "to_sector": dst_sector, **_counts(form), "via": via}


def remove_forces(form: Form) -> dict[str, Any]:
    territory, sector = _piece(form, "piece")
    return {"type": "forces_removed", "faction": _faction(form), "territory": territory, "sector": sector,
            **_counts(form), "to": _get(form, "to") or "tanks"}


def correct_loss(form: Form) -> dict[str, Any]:
    """Put back forces the engine removed by itself; the reason is the engine's to require."""
    territory, sector = _piece(form, "piece")
    return {"type": "loss_corrected", "faction": _faction(form), "territory": territory, "sector": sector,
            "reason": _get(form, "reason"), **_counts(form)}


def spice_blow(form: Form) -> dict[str, Any]:
    """A Spice Blow; a blank amount means the amount printed for the territory."""
    return {"type": "spice_blow", "territory": _territory(form),
            "amount": _int(form, "amount", required=False, low=0)}  # 0: its sector is in the storm


def collect_spice(form: Form) -> dict[str, Any]:
    return {"type": "spice_collected", "faction": _faction(form), "territory": _territory(form),
            "amount": _int(form, "amount", low=1, what=_("the spice collected"))}


def _pairs(form: Form, name: str) -> dict[str, int]:
    """`faction:spice` values of a field the page fills from the engine's derivation."""
    out: dict[str, int] = {}
    for raw in _getlist(form, name):
        faction, _, amount = raw.partition(":")
        value = whole_number(amount, signed=False)
        if faction not in FACTIONS or value is None:
            raise ActionError(name, _("not a faction and its spice: %(value)s") % {"value": raw})
        out[faction] = value
    return out


def buy_card(form: Form) -> dict[str, Any]:
    """One card of the bidding round: who won it and for how much (LoLV 1.04.06, AH VIII.B), or
    nobody, which ends the round (1.04.09, AH VIII.E)."""
    if _get(form, "nobody"):
        return {"type": "card_bought", "faction": None}
    ally_paid = _int(form, "ally_paid", required=False, low=0)
    return {"type": "card_bought", "faction": _faction(form), "price": _int(form, "price", low=0),
            "karama": bool(_get(form, "karama")), "ally_paid": ally_paid or 0}


def collect_charity(form: Form) -> dict[str, Any]:
    """CHOAM Charity as the page showed it from the engine (LoLV 1.03.01, AH VIII.I)."""
    return {"type": "charity_collected", "amounts": _pairs(form, "amount")}


def place_inflation(form: Form) -> dict[str, Any]:
    """The CHOAM's Inflation token placed at the Mentat Pause, its side face up (LoLV 2.09.09)."""
    face = _get(form, "face")
    if not face:
        raise ActionError("face", _("choose the side face up: double or cancel"))
    return {"type": "inflation_placed", "face": face}


def harvest_spice(form: Form) -> dict[str, Any]:
    """The collection round as the page showed it from the engine (LoLV 1.08, 1.13.01; AH XI)."""
    collections = []
    for raw in _getlist(form, "collection"):
        faction, territory, amount = (raw.split("|") + ["", "", ""])[:3]
        value = whole_number(amount, signed=False)
        if faction not in FACTIONS or not territory or value is None:
            raise ActionError("collection", _("not a faction, territory and spice: %(value)s") % {"value": raw})
        collections.append({"faction": faction, "territory": territory, "amount": value})
    return {"type": "spice_harvested", "collections": collections, "income": _pairs(form, "income")}


def set_board_spice(form: Form) -> dict[str, Any]:
    """The spice lying in a territory, corrected with a reason (the engine requires it)."""
    return {"type": "board_spice_set", "territory": _territory(form), "amount": _int(form, "amount", low=0),
            "reason": _get(form, "reason")}


def set_spice(form: Form) -> dict[str, Any]:
    return {"type": "spice_set", "faction": _faction(form), "amount": _int(form, "amount", low=0)}


def bribe(form: Form) -> dict[str, Any]:
    """Spice from behind one shield to in front of another's (LoLV 1.12.02, WBC XIII.1);
    collected behind that shield when the Mentat Pause begins (1.09.01)."""
    return {"type": "spice_in_front", "faction": _faction(form), "delta": _int(form, "amount", low=1),
            "from_faction": _faction(form, "from_faction")}


def _plan(form: Form, side: str) -> dict[str, Any]:
    """One side's battle plan from its fields (`a_...` the aggressor's, `d_...` the defender's):
    the leader (`owner|leader` for a captive, `cheap_hero`, or none), the dial, the spice paid,
    the cards and the traitor call. The engine judges the plan (LoLV 1.07.04, AH X.B)."""
    p = f"{side}_"
    plan: dict[str, Any] = {"faction": _faction(form, p + "faction")}
    leader = _get(form, p + "leader")
    if leader == "cheap_hero":
        plan["cheap_hero"] = True
    elif leader:
        owner, _, leader_id = leader.rpartition("|")
        plan["leader"] = leader_id
        if owner and owner != plan["faction"]:
            plan["leader_of"] = owner
    raw = _get(form, p + "dial")
    try:
        dial = float(raw) if raw else 0.0
    except ValueError:
        raise ActionError(p + "dial", gettext("must be a number, got %(raw)s") % {"raw": repr(raw)}) from None
    plan["dial"] = int(dial) if dial == int(dial) else dial
    plan["spice"] = _int(form, p + "spice", required=False, low=0) or 0
    for card in ("weapon", "defense"):
        if _get(form, p + card):
            plan[card] = _get(form, p + card)
    plan["traitor"] = bool(_get(form, p + "traitor"))
    plan["kwisatz_haderach"] = bool(_get(form, p + "kwisatz_haderach"))
    if _get(form, p + "stone_burner_kill"):
        plan["stone_burner_kill"] = True  # LoLV 3.02.10: both leaders die
    # A winner's losses "in any manner" (AH X.C.6): how many of each and from which sectors;
    # blank, the engine takes normal forces first from the lowest sectors.
    for kind in ("lost_normal", "lost_special"):
        count = _int(form, p + kind, required=False, low=0)
        if count is not None:
            plan[kind] = count
    sectors = _get(form, p + "lost_sectors").replace(",", " ").split()
    if sectors:
        if not all(s.isdigit() and int(s) <= 17 for s in sectors):
            raise ActionError(p + "lost_sectors", _("give sector numbers 0 to 17, in order, such as 8 9"))
        plan["lost_sectors"] = [int(s) for s in sectors]
    return plan


def battle(form: Form) -> dict[str, Any]:
    """A battle fought in a territory: both plans as revealed, the traitor calls made; the
    engine resolves it into the winner and every loss (LoLV 1.07.06, AH X.C-D, WBC X)."""
    territory = _get(form, "territory")
    if not territory:
        raise ActionError("territory", _("choose the battle"))
    return {"type": "battle", "territory": territory, "aggressor": _plan(form, "a"), "defender": _plan(form, "d")}


def set_cards(form: Form) -> dict[str, Any]:
    return {"type": "cards_set", "faction": _faction(form), "count": _int(form, "count", low=0),
            "karama": bool(_get(form, "karama"))}


def change_leader(form: Form) -> dict[str, Any]:
    leader = _get(form, "leader")
    if "|" not in leader:
        raise ActionError("leader", gettext("choose a leader"))
    faction, _, leader_id = leader.partition("|")
    captor = _get(form, "captor") or None
    return {"type": "leader_changed", "faction": faction, "leader": leader_id,
            "status": _get(form, "status") or "active", "captor": captor, "karama": bool(_get(form, "karama"))}


def revive_forces(form: Form) -> dict[str, Any]:
    """Forces back from the tanks to reserves with the revival's payment (LoLV 1.05.01.02, AH
    IX.B.1); `karama` marks the
    Emperor's free revival with a Karama card (1.14.02, WBC XVII.9)."""
    return {"type": "forces_revived", "faction": _faction(form),
            "normal": _int(form, "normal", required=False, low=0) or 0,
            "special": _int(form, "special", required=False, low=0) or 0, "karama": bool(_get(form, "karama")),
            **_cost(form)}


def flip_forces(form: Form) -> dict[str, Any]:
    """Bene Gesserit tokens in a sector turned advisor or fighter side up (LoLV 2.02.10)."""
    territory, sector = _piece(form, "piece")
    side = _get(form, "side")
    if side not in FLIP_TARGETS:
        raise ActionError("side", _("choose whether they become advisors or fighters"))
    return {"type": "forces_flipped", "territory": territory, "sector": sector, "side": side,
            "count": _int(form, "count", low=1)}


def play_family_atomics(form: Form) -> dict[str, Any]:
    """Family Atomics played: the Shield Wall's forces go to the tanks (LoLV 3.01.07, WBC VI.6)."""
    return {"type": "family_atomics", "faction": _faction(form)}


def place_ambassador(form: Form) -> dict[str, Any]:
    """An Ecaz Ambassador token into a stronghold with its cost (LoLV 2.11.05-06; empty: the
    rules' price)."""
    return {"type": "ambassador_placed", "territory": _territory(form), "ambassador": _faction(form, "ambassador"),
            **_cost(form)}


def remove_ambassador(form: Form) -> dict[str, Any]:
    """An Ambassador token off the board: triggered by the faction that entered (2.11.07) or,
    with no faction, hit by the storm (2.11.09)."""
    return {"type": "ambassador_removed", "territory": _territory(form),
            "triggered_by": _optional_faction(form, "triggered_by")}


def place_terror(form: Form) -> dict[str, Any]:
    """A Moritani Terror token into a stronghold, or moved there from another (LoLV 2.12.05)."""
    return {"type": "terror_placed", "territory": _territory(form),
            "from_territory": _territory(form, "from_territory", required=False)}


def reveal_terror(form: Form) -> dict[str, Any]:
    """A Terror token revealed (2.12.07) with its effect (2.12.09), or sent back behind the
    Moritani shield (`to_supply`, 2.12.11)."""
    effect = _get(form, "effect") or None
    if effect is not None and effect not in TERROR_EFFECTS:
        raise ActionError("effect", _("choose one of the Terror tokens' effects"))
    return {"type": "terror_revealed", "territory": _territory(form), "effect": effect,
            "triggered_by": _optional_faction(form, "triggered_by"), "to_supply": bool(_get(form, "to_supply"))}


def place_no_field(form: Form) -> dict[str, Any]:
    """A Richese No-Field token shipped face down (LoLV 2.10.10)."""
    territory, sector = _piece(form, "piece")
    return {"type": "no_field_placed", "territory": territory, "sector": sector}


def reveal_no_field(form: Form) -> dict[str, Any]:
    """The No-Field token turned over: its number of Richese forces take its place (2.10.13)."""
    return {"type": "no_field_revealed", "normal": _int(form, "normal", low=0)}


def move_hms(form: Form) -> dict[str, Any]:
    """The Hidden Mobile Stronghold deployed or moved (LoLV 2.07.04, 2.07.18), with a Karama
    card in the shipment and movement phase (1.14.07)."""
    territory, sector = _piece(form, "piece")
    return {"type": "hms_moved", "territory": territory, "sector": sector, "karama": bool(_get(form, "karama"))}


def declare_coexistence(form: Form) -> dict[str, Any]:
    return {"type": "coexistence_declared", "territory": _territory(form), "coexisting": _get(form, "end") == ""}


def make_prediction(form: Form) -> dict[str, Any]:
    return {"type": "bg_prediction_made", "faction": _faction(form), "turn": _int(form, "turn", low=1)}


def reveal_prediction(form: Form) -> dict[str, Any]:
    return {"type": "bg_prediction_revealed"}


def confirm_win_attempt(form: Form) -> dict[str, Any]:
    return {"type": "win_attempt_confirmed", "factions": _factions(form), "note": _get(form, "note")}


def claim_victory(form: Form) -> dict[str, Any]:
    return {"type": "victory_claimed", "winners": _factions(form, "winners"), "kind": _get(form, "kind") or None}


def end_last_turn(form: Form) -> dict[str, Any]:
    return {"type": "last_turn_ended"}


def concede(form: Form) -> dict[str, Any]:
    return {"type": "concession", "to_factions": _factions(form, "to_factions"), "unanimous": bool(_get(form, "unanimous"))}


def confirm_adjudication(form: Form) -> dict[str, Any]:
    return {"type": "adjudication_confirmed", "winners": _factions(form, "winners"),
            "override_reason": _get(form, "override_reason") or None}


def drop_out(form: Form) -> dict[str, Any]:
    return {"type": "dropout", "faction": _faction(form), "reason": _get(form, "why")}


def roll_die(form: Form) -> dict[str, Any]:
    rolls = {}
    for faction in FACTIONS:
        value = _int(form, f"die_{faction}", required=False, low=1, high=6)
        if value is not None:
            rolls[faction] = value
    if not rolls:
        raise ActionError("die", _("enter at least one roll (1..6)"))
    return {"type": "die_rolled", "die": rolls}


def end_game(form: Form) -> dict[str, Any]:
    return {"type": "game_ended", "reason": _get(form, "why")}


def void(form: Form) -> dict[str, Any]:
    reason = _get(form, "reason")
    if not reason:
        raise ActionError("reason", _("a correction needs a reason"))
    return {"type": "void", "seq": _int(form, "seq", low=1), "reason": reason}


def insert(form: Form) -> dict[str, Any]:
    """A refused action (`inner_action`, its own fields in the form) recorded as if before
    record `before`: a correction of the log's order, with its reason."""
    inner = _get(form, "inner_action")
    if inner in ("void", "insert") or inner not in ACTIONS:
        raise ActionError("inner_action", _("only a record of play can be recorded before an earlier record"))
    reason = _get(form, "reason")
    if not reason:
        raise ActionError("reason", _("a correction needs a reason"))
    return {"type": "insert", "before": _int(form, "before", low=2), "event": ACTIONS[inner](form), "reason": reason}


ACTIONS: dict[str, Builder] = {
    "advance_phase": advance_phase,
    "advance_turn": advance_turn,
    "place_storm": place_storm,
    "move_storm": move_storm,
    "worm": worm,
    "form_alliance": form_alliance,
    "break_alliance": break_alliance,
    "quick_record": quick_record,
    "place_forces": place_forces,
    "move_forces": move_forces,
    "remove_forces": remove_forces,
    "correct_loss": correct_loss,
    "set_spice": set_spice,
    "spice_blow": spice_blow,
    "collect_spice": collect_spice,
    "set_board_spice": set_board_spice,
    "buy_card": buy_card,
    "collect_charity": collect_charity,
    "place_inflation": place_inflation,
    "harvest_spice": harvest_spice,
    "set_cards": set_cards,
    "change_leader": change_leader,
    "declare_coexistence": declare_coexistence,
    "revive_forces": revive_forces,
    "bribe": bribe,
    "battle": battle,
    "flip_forces": flip_forces,
    "play_family_atomics": play_family_atomics,
    "place_ambassador": place_ambassador,
    "remove_ambassador": remove_ambassador,
    "place_terror": place_terror,
    "reveal_terror": reveal_terror,
    "place_no_field": place_no_field,
    "reveal_no_field": reveal_no_field,
    "move_hms": move_hms,
    "make_prediction": make_prediction,
    "reveal_prediction": reveal_prediction,
    "confirm_win_attempt": confirm_win_attempt,
    "claim_victory": claim_victory,
    "end_last_turn": end_last_turn,
    "concede": concede,
    "confirm_adjudication": confirm_adjudication,
    "drop_out": drop_out,
    "roll_die": roll_die,
    "end_game": end_game,
    "void": void,
    "insert": insert,
}


#: The event type each action records (the page offers an action when the engine allows its type).
ACTION_EVENTS: dict[str, str] = {
    "advance_phase": "phase_advanced", "advance_turn": "turn_advanced", "place_storm": "storm_placed",
    "move_storm": "storm_moved", "worm": "worm", "form_alliance": "alliance_formed",
    "break_alliance": "alliance_broken", "quick_record": "quick_record", "place_forces": "forces_placed",
    "move_forces": "forces_moved", "remove_forces": "forces_removed", "correct_loss": "loss_corrected",
    "set_spice": "spice_set", "set_cards": "cards_set", "change_leader": "leader_changed", "declare_coexistence": "coexistence_declared",
    "make_prediction": "bg_prediction_made", "reveal_prediction": "bg_prediction_revealed",
    "confirm_win_attempt": "win_attempt_confirmed", "claim_victory": "victory_claimed",
    "end_last_turn": "last_turn_ended", "concede": "concession", "confirm_adjudication": "adjudication_confirmed",
    "drop_out": "dropout", "roll_die": "die_rolled", "end_game": "game_ended", "void": "void",
    "insert": "insert",
    "spice_blow": "spice_blow", "collect_spice": "spice_collected", "set_board_spice": "board_spice_set",
    "revive_forces": "forces_revived", "flip_forces": "forces_flipped", "play_family_atomics": "family_atomics",
    "place_ambassador": "ambassador_placed", "remove_ambassador": "ambassador_removed", "place_terror": "terror_placed",
    "reveal_terror": "terror_revealed", "place_no_field": "no_field_placed", "reveal_no_field": "no_field_revealed",
    "move_hms": "hms_moved", "bribe": "spice_in_front", "battle": "battle",
    "buy_card": "card_bought", "collect_charity": "charity_collected",
    "place_inflation": "inflation_placed", "harvest_spice": "spice_harvested",
}


#: The "then" value of a button that starts the next turn right after its event.
NEXT_TURN = "next_turn"


def then_phase(form: Form) -> str | None:
    """The later phase a form's "then" button moves the game to right after its event (the
    engine checks it is a later phase of this turn), or None."""
    then = _get(form, "then")
    return then if then and then != NEXT_TURN else None


def then_turn(form: Form) -> bool:
    """Whether a form's "then" button starts the next turn right after its event (the Mentat
    Pause and the next turn in one tap; the engine checks the turn may start)."""
    return _get(form, "then") == NEXT_TURN


def command_of(form: Form) -> EventCommand:
    """The posted form as its command's one typed input: the action's engine event (`build`),
    the sequence number it was made against, a void's reason, what the table does next (a
    "then" button) and whether an empty cost pays the rules' price (`PRICED`). Raises
    ActionError (unknown action, bad field, no sequence number)."""
    action = form.get("action", "")
    # What cannot be refused first, then the event and its sequence number (refused in that order).
    after = {"then_phase": then_phase(form), "then_turn": then_turn(form)} if action != "void" else {}
    priced = (form.get("inner_action", "") if action == "insert" else action) in PRICED
    event = build(action, form)
    expected = whole_number(form.get("expected_seq", ""))
    if expected is None:
        raise ActionError("expected_seq", _("the form lost its sequence number; reload the page"))
    reason = form.get("reason", "") if action == "void" else ""
    return EventCommand(event=event, expected_seq=expected, reason=reason, priced=priced, **after)


def build(action: str, form: Form) -> dict[str, Any]:
    """The event dict for a posted action. Raises ActionError (unknown action or bad field)."""
    builder = ACTIONS.get(action)
    if builder is None:
        raise ActionError("action", _("unknown action %(action)s") % {"action": repr(action)})
    return builder(form)
