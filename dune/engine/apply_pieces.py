"""Tokens beyond forces and the corrections of automatic losses.

The Hidden Mobile Stronghold's location (LoLV 2.07.04, 2.07.17-18), the Richese No-Field
token (2.10.10, 2.10.11, 2.10.13, 2.10.15), Moritani Terror tokens and the Atomics Aftermath
(2.12.05, 2.12.07, 2.12.09), Ecaz
Ambassadors (2.11.05, 2.11.07, 2.11.09), Duke Vidal (2.11.16, 2.12.12), spice in front of the shields
(1.12.02), the end of a shipment-and-movement action (1.06.06) and `loss_corrected`.
"""

from __future__ import annotations

from typing import Any

from dune.engine.ambassador_supply import after_removal, taken_from_supply
from dune.engine.battles import battles
from dune.engine.board import HIDDEN_MOBILE_STRONGHOLD, PRINTED_STRONGHOLDS, SHIELD_WALL, TERRITORIES
from dune.engine.checks import (
    need_counts,
    need_faction,
    need_full_tracking,
    need_phase,
    need_piece,
    need_room,
    piece_in_storm,
    refuse,
)
from dune.engine.control import occupancy
from dune.engine.editions import advanced, limited, ordered, refined, sheltered
from dune.engine.events import (
    ActionEnded,
    AmbassadorPlaced,
    AmbassadorRemoved,
    DukeVidal,
    HmsMoved,
    LossCorrected,
    NoFieldPlaced,
    NoFieldRevealed,
    SpiceInFront,
    TerrorPlaced,
    TerrorRevealed,
)
from dune.engine.factions import ECAZ, IXIANS, MORITANI, RICHESE
from dune.engine.impossible import AMBASSADOR_SYMBOLS, TERROR_TOKENS
from dune.engine.karama import once_a_game
from dune.engine.losses import KINDS, Loss, action_over, put_back, remove, removed_at
from dune.engine.movement import distance
from dune.engine.names import faction_name, phase_name, place_name
from dune.engine.no_field_supply import placed_from_supply, revealed_face_up
from dune.engine.payments import pay_ambassador
from dune.engine.phases import BATTLE, MENTAT_PAUSE, SHIPMENT_MOVEMENT, SPICE_COLLECTION
from dune.engine.position import ForceKey, Position, Stack, evolve
from dune.engine.storm import storm_order
from dune.engine.supplies import NO_FIELD_NUMBERS
from dune.engine.turn_order import piece_key, shipment, take_turn, turn_passed

#: How far the HMS moves: 3 territories at the Mentat Pause (2.07.18), 2 with a Karama in the
#: shipment and movement phase (1.14.07).
#: How far the HMS moves, by phase (2.07.18 at the Mentat Pause, 1.14.07 with a Karama card).
HMS_RANGE = {MENTAT_PAUSE: 3, SHIPMENT_MOVEMENT: 2}


def _need_pieces(pos: Position, pieces: str) -> None:
    """The game's rules have the expansion `pieces` (the pages translate their words:
    foundation.core_words.WORD_FIELDS)."""
    if not pos.ruleset.expansion_pieces:
        refuse(pos, "setup", f"{pos.ruleset.name} has no {pieces}", pieces)


def apply_hms_moved(pos: Position, ev: HmsMoved) -> dict[str, Any]:
    """Deploy the HMS after the first storm (2.07.04) or move it (2.07.18, 1.14.07)."""
    _need_pieces(pos, "Hidden Mobile Stronghold")
    need_faction(pos, IXIANS)
    need_piece(pos, ev.territory, ev.sector)
    t = TERRITORIES[ev.territory]
    if ev.sector is None or t.is_stronghold or t.expansion is not None:
        refuse(pos, "hms_move", "the HMS points at a sector of a non-stronghold territory", ev.territory)
    if piece_in_storm(pos, ev.territory, ev.sector):
        refuse(pos, "hms_move", "the HMS cannot move into the storm", ev.sector)
    if pos.hms is None:
        if pos.storm is None:
            refuse(pos, "hms", "the HMS is deployed after the first storm (2.07.04)", ev)
        return {"hms": (ev.territory, ev.sector)}
    reach = HMS_RANGE.get(pos.phase)
    if pos.phase == SHIPMENT_MOVEMENT and not advanced(pos):
        refuse(
            pos, "1.14.00", "moving the HMS with a Karama (1.14.07) is an Advanced power (1.13.00)", pos.phase
        )
    if reach is None:
        refuse(pos, "hms_move", f"the HMS moves at the Mentat Pause, not in {pos.phase}", pos.phase)
    if refined(pos) and ev.karama != (pos.phase == SHIPMENT_MOVEMENT):
        # The Karama card is recorded with the move it enables (1.14.07); the Mentat Pause
        # move needs none (2.07.18).
        refuse(
            pos,
            "1.14.07" if pos.phase == SHIPMENT_MOVEMENT else "hms_move",
            "the HMS moves in the shipment and movement phase only with a Karama card, at the Mentat Pause without one",
            ev.karama,
            field="karama",
        )
    if not any(f == IXIANS for (f, t_, _s) in pos.forces if t_ == HIDDEN_MOBILE_STRONGHOLD):
        refuse(pos, "hms_move", "the Ixians move the HMS only while their forces occupy it", ev)
    old = pos.hms
    if piece_in_storm(pos, old[0], old[1]):
        refuse(pos, "hms_move", "the HMS cannot move out of the storm", old)
    if distance(old, (ev.territory, ev.sector), pos.storm, sheltered(pos)) > reach:
        refuse(pos, "hms_move", f"the HMS moves up to {reach} territories, never through the storm", ev)
    if ev.karama and pos.phase == SHIPMENT_MOVEMENT:
        return {"hms": (ev.territory, ev.sector), **once_a_game(pos, IXIANS)}
    return {"hms": (ev.territory, ev.sector)}


def apply_no_field_placed(pos: Position, ev: NoFieldPlaced) -> dict[str, Any]:
    """A No-Field token of the supply lands with a Richese shipment, those face up going back to
    the supply (2.10.10); one on the board (2.10.15)."""
    _need_pieces(pos, "No-Field tokens")
    need_faction(pos, RICHESE)
    need_piece(pos, ev.territory, ev.sector)
    if pos.no_field is not None:
        refuse(pos, "no_field", "there is already a No-Field token on the board", pos.no_field)
    if piece_in_storm(pos, ev.territory, ev.sector):
        refuse(pos, "ship_storm", f"no shipment into {place_name(ev.territory)}: it is in storm", ev.sector)
    if refined(pos):
        # The token is one Richese force for the occupancy limit (2.10.11 with 1.06.02.05).
        need_room(pos, RICHESE, ev.territory, inert=False, limit_rule="no_field_occupancy")
    changes = {"no_field": (ev.territory, ev.sector), **placed_from_supply(pos)}
    if ordered(pos) and pos.phase == SHIPMENT_MOVEMENT:
        # Sixth edition: the token lands with the Richese's one shipment, in its turn (2.10.10,
        # 1.06.01-02).
        losses, turn = take_turn(pos, RICHESE)
        changes.update(turn)
        changes.update(shipment(pos, RICHESE, "to:" + piece_key(ev.territory, ev.sector)))
        return remove(evolve(pos, **changes), losses, changes)
    return changes


def apply_no_field_revealed(pos: Position, ev: NoFieldRevealed) -> dict[str, Any]:
    """The token leaves for the front of the Richese shield, face up; as many Richese forces
    from reserves as its number, or all that are left in reserve if fewer, take its place
    (2.10.13). `normal` is the token's number."""
    _need_pieces(pos, "No-Field tokens")
    if pos.no_field is None:
        refuse(pos, "no_field", "no No-Field token is on the board", ev)
    if ev.normal not in NO_FIELD_NUMBERS:
        refuse(pos, "2.10.03", "a No-Field token shows 0, 3 or 5", ev.normal, field="normal")
    changes: dict[str, Any] = {"no_field": None, **revealed_face_up(pos, ev.normal)}
    if not ev.normal:
        return changes
    need_full_tracking(pos, "placing revealed forces")
    st = pos.states[RICHESE]
    if st.reserves is None:
        refuse(pos, "forces", "the Richese forces in reserve are not known", ev.normal)
    placed = min(ev.normal, st.reserves[0])
    territory, sector = pos.no_field
    forces: dict[ForceKey, Stack] = dict(pos.forces)
    old = forces.get((RICHESE, territory, sector), (0, 0, 0))
    if placed:
        forces[(RICHESE, territory, sector)] = (old[0] + placed, old[1], old[2])
    states = dict(pos.states)
    states[RICHESE] = evolve(st, reserves=(st.reserves[0] - placed, st.reserves[1]))
    changes.update(forces=forces, states=states)
    return changes


def _need_stronghold(pos: Position, territory: str, rule: str) -> None:
    need_piece(
        pos,
        territory,
        TERRITORIES[territory].sectors[0]
        if territory in TERRITORIES and TERRITORIES[territory].sectors
        else None,
    )
    if territory == SHIELD_WALL or territory not in PRINTED_STRONGHOLDS:
        # The Shield Wall is rock (4.02.07); the HMS takes no Terror token (2.12.05).
        if rule == "terror":
            refuse(pos, rule, f"Terror tokens go only into the five strongholds, not {place_name(territory)}", territory)
        refuse(pos, rule, f"Ambassadors go only into the five strongholds, not {place_name(territory)}", territory)


def apply_terror_placed(pos: Position, ev: TerrorPlaced) -> dict[str, Any]:
    """A Terror token goes into a stronghold without one, storm or not (2.12.05)."""
    _need_pieces(pos, "Terror tokens")
    need_faction(pos, MORITANI)
    if refined(pos):
        need_phase(pos, (MENTAT_PAUSE,), "terror_timing", "Terror tokens are placed or moved")
    _need_stronghold(pos, ev.territory, "terror")
    if ev.territory in pos.terror:
        refuse(pos, "terror", f"{place_name(ev.territory)} already holds a Terror token", ev.territory)
    terror = set(pos.terror)
    left = TERROR_TOKENS - len(terror) - pos.terror_spent
    if ev.from_territory is None and left < 1 and refined(pos):
        refuse(
            pos,
            "2.12.03",
            "the Moritani have no Terror token left behind their shield",
            ev,
            field="territory",
        )
    if ev.from_territory is not None:
        if ev.from_territory not in terror:
            refuse(
                pos,
                "terror",
                f"no Terror token in {place_name(ev.from_territory)} to move",
                ev.from_territory,
            )
        terror.discard(ev.from_territory)
    return {"terror": frozenset(terror | {ev.territory})}


def apply_terror_revealed(pos: Position, ev: TerrorRevealed) -> dict[str, Any]:
    """A revealed token leaves the game (2.12.07); Atomics clear the territory (2.12.09.02)."""
    _need_pieces(pos, "Terror tokens")
    if ev.territory not in pos.terror:
        refuse(pos, "terror", f"no Terror token in {place_name(ev.territory)}", ev.territory)
    if ev.triggered_by is not None:
        _need_trigger(pos, ev.triggered_by, ev.territory, MORITANI, "terror_trigger", advisors=True)
    changes: dict[str, Any] = {"terror": pos.terror - {ev.territory}}
    if not ev.to_supply:
        changes["terror_spent"] = pos.terror_spent + 1  # out of the game (2.12.07)
    if ev.effect != "atomics":
        return changes
    changes["aftermath"] = ev.territory
    if refined(pos):
        # The Moritani's hand and its ally's shrink by one, a random card discarded (2.12.09.02):
        # the count drops, which cards went the judge records with cards_set.
        states = dict(pos.states)
        for f in (MORITANI, *pos.allies_of(MORITANI)):
            st = states[f]
            limit = pos.sheet(f).hand_limit - 1
            if st.cards is not None and st.cards > limit:
                states[f] = evolve(st, cards=limit, card_names=None)
        changes["states"] = states
    if pos.quick:
        return changes
    rule = pos.ruleset.cite["aftermath"]
    losses: list[Loss] = [
        (f, t, s, st[0], st[1], st[2], rule) for (f, t, s), st in pos.forces.items() if t == ev.territory
    ]
    return remove(pos, losses, changes)


def apply_ambassador_placed(pos: Position, ev: AmbassadorPlaced) -> dict[str, Any]:
    """An Ambassador into a stronghold not in storm that has none (2.11.05, 4.02.07)."""
    _need_pieces(pos, "Ambassadors")
    need_faction(pos, ECAZ)
    if refined(pos):
        # After the revival phase (2.11.05), so in the shipment and movement phase.
        need_phase(pos, (SHIPMENT_MOVEMENT,), "ambassadors", "Ambassadors are placed")
        if ev.ambassador not in AMBASSADOR_SYMBOLS:
            refuse(
                pos,
                "ambassador_symbols",
                f"there is no {faction_name(ev.ambassador)} Ambassador: the Ecaz's and one of each other faction but the Moritani",
                ev.ambassador,
                field="ambassador",
            )
    if ev.territory == HIDDEN_MOBILE_STRONGHOLD and refined(pos):
        # The HMS is a stronghold (2.07.17); only Terror tokens are kept out of it (2.12.05).
        if pos.hms is None:
            refuse(pos, "ambassadors", "the Hidden Mobile Stronghold is not on the board yet", ev.territory)
    else:
        _need_stronghold(pos, ev.territory, "ambassadors")
    if ev.territory in pos.ambassadors:
        refuse(pos, "ambassadors", f"{place_name(ev.territory)} already holds an Ambassador", ev.territory)
    sectors = TERRITORIES[ev.territory].sectors
    if piece_in_storm(pos, ev.territory, sectors[0] if sectors else None):
        refuse(pos, "ambassadors", f"{place_name(ev.territory)} is in storm", ev.territory)
    if ev.ambassador == ECAZ and any(a == ECAZ for a in pos.ambassadors.values()):
        refuse(pos, "ambassadors", "the Ecaz Ambassador is already on the board", ev.ambassador)
    placed = {"ambassadors": {**pos.ambassadors, ev.territory: ev.ambassador}, **taken_from_supply(pos, ev.ambassador)}
    return pay_ambassador(pos, ev, placed)


def apply_ambassador_removed(pos: Position, ev: AmbassadorRemoved) -> dict[str, Any]:
    _need_pieces(pos, "Ambassadors")
    if ev.territory not in pos.ambassadors:
        refuse(pos, "ambassadors", f"no Ambassador in {place_name(ev.territory)}", ev.territory)
    if ev.triggered_by is not None:
        _need_trigger(pos, ev.triggered_by, ev.territory, ECAZ, "ambassador_trigger", advisors=False)
        if ev.triggered_by == pos.ambassadors[ev.territory]:
            refuse(
                pos,
                "ambassador_trigger",
                f"the {faction_name(ev.triggered_by)} Ambassador is not triggered by the {faction_name(ev.triggered_by)}",
                ev.triggered_by,
                field="triggered_by",
            )
    gone = after_removal(pos, pos.ambassadors[ev.territory], triggered=ev.triggered_by is not None)
    return {"ambassadors": {t: a for t, a in pos.ambassadors.items() if t != ev.territory}, **gone}


def _need_trigger(pos: Position, who: str, territory: str, owner: str, rule: str, *, advisors: bool) -> None:
    """A token is triggered by another faction than its owner and the owner's ally, one that
    has entered its stronghold (2.12.06: advisors too; 2.11.07: not advisors)."""
    need_faction(pos, who)
    if who == owner or who in pos.allies_of(owner):
        refuse(
            pos,
            rule,
            f"{faction_name(who)} cannot trigger a token of {faction_name(owner)}: only a faction other than its ally",
            who,
            field="triggered_by",
        )
    there = [st for (f, t, _s), st in pos.forces.items() if f == who and t == territory]
    if not any(st[0] + st[1] + (st[2] if advisors else 0) for st in there):
        refuse(
            pos,
            rule,
            f"{faction_name(who)} has no forces in {place_name(territory)} to have triggered it"
            + ("" if advisors else " (advisors do not)"),
            who,
            field="triggered_by",
        )


def apply_duke_vidal(pos: Position, ev: DukeVidal) -> dict[str, Any]:
    """Duke Vidal leads for `holder` (2.11.10.11, 2.12.12) or for nobody (2.11.16)."""
    _need_pieces(pos, "Duke Vidal")
    if ECAZ not in pos.playing and MORITANI not in pos.playing:
        need_faction(pos, ECAZ)  # Duke Vidal is the Ecaz's (2.11.10.11) or the Moritani's (2.12.12)
    if ev.holder is not None:
        need_faction(pos, ev.holder)
        if ev.holder == MORITANI and limited(pos):
            _vidal_to_moritani(pos)
        if pos.phase == MENTAT_PAUSE and refined(pos):
            refuse(
                pos,
                "vidal_pause",
                f"at the Mentat Pause Duke Vidal is set aside, not made a leader of {faction_name(ev.holder)}",
                ev.holder,
                field="holder",
            )
    return {"vidal": ev.holder}


def _vidal_to_moritani(pos: Position) -> None:
    """Fifth edition: the Moritani take Duke Vidal at the end of the shipment and movement
    phase, when they are in at least two battles in strongholds not involving the Ecaz
    (2.12.12)."""
    if pos.phase not in (SHIPMENT_MOVEMENT, BATTLE):
        refuse(pos, "2.12.12", "the Moritani take Duke Vidal at the end of the shipment and movement phase", pos.phase, field="holder")
    order = storm_order(pos) or list(pos.factions)
    fights = [
        b
        for b in battles(pos, occupancy(pos), order)
        if MORITANI in b.factions and ECAZ not in b.factions and TERRITORIES[b.territory].is_stronghold
    ]
    if len(fights) < 2:
        refuse(
            pos,
            "2.12.12",
            f"the Moritani are in {len(fights)} battles in strongholds without the Ecaz; Duke Vidal needs two",
            len(fights),
            field="holder",
        )


def apply_spice_in_front(pos: Position, ev: SpiceInFront) -> dict[str, Any]:
    """Spice in front of a shield (1.12.02, 2.12.09.03), from another shield or the bank."""
    need_faction(pos, ev.faction)
    st = pos.states[ev.faction]
    if st.spice_front + ev.delta < 0:
        refuse(
            pos,
            "bribe",
            f"{faction_name(ev.faction)} has only {st.spice_front} spice in front of its shield",
            ev.delta,
        )
    states = dict(pos.states)
    if ev.from_faction is not None:
        need_faction(pos, ev.from_faction)
        if ev.delta < 0 or ev.from_faction == ev.faction:
            refuse(pos, "bribe", "a bribe moves spice from one faction to another", ev)
        if refined(pos):
            _need_bribe_allowed(pos, ev)
        payer = states[ev.from_faction]
        if payer.spice is None or payer.spice < ev.delta:
            refuse(pos, "bribe", f"{faction_name(ev.from_faction)} has only {payer.spice} spice", ev.delta)
        states[ev.from_faction] = evolve(payer, spice=payer.spice - ev.delta)
    states[ev.faction] = evolve(states[ev.faction], spice_front=st.spice_front + ev.delta)
    return {"states": states}


def _need_bribe_allowed(pos: Position, ev: SpiceInFront) -> None:
    """When spice may pass from one shield to another (third edition): LoLV 1.12.01 (never
    between allies), 1.12.04 (not before the first storm), 1.12.05 (not once the Mentat
    Pause has begun); WBC XIII.1 (in the collection round only, allies too)."""
    rule = pos.ruleset.bribes
    payer = ev.from_faction or ""
    if rule == "collection_round" and pos.phase != SPICE_COLLECTION:
        refuse(
            pos,
            "bribe_timing",
            f"spice changes hands only in the collection round, not in the {phase_name(pos.phase)} phase",
            pos.phase,
        )
    if rule != "front_of_shield":
        return
    if ev.faction in pos.allies_of(payer):
        refuse(
            pos,
            "bribe_allies",
            f"{faction_name(payer)} and {faction_name(ev.faction)} are allies: allies make deals, never bribes",
            ev.faction,
            field="faction",
        )
    if pos.storm is None:
        refuse(pos, "bribe_timing", "no bribe before the first storm", pos.phase)
    if pos.phase == MENTAT_PAUSE:
        refuse(pos, "bribe_late", "no bribe once the Mentat Pause has begun", pos.phase)


def apply_action_ended(pos: Position, ev: ActionEnded) -> dict[str, Any]:
    """The faction's shipment-and-movement action is over (1.06.01, 1.06.06, 4.01.16)."""
    need_faction(pos, ev.faction)
    need_phase(pos, (SHIPMENT_MOVEMENT,), "ally_cohabit", "a shipment-and-movement action ends")
    if pos.acting not in (None, ev.faction):
        refuse(
            pos,
            "ally_cohabit",
            f"{faction_name(pos.acting or '')} is shipping and moving now, not {faction_name(ev.faction)}",
            ev.faction,
        )
    return remove(
        evolve(pos, acting=ev.faction),
        action_over(evolve(pos, acting=ev.faction)),
        {"acting": None, **turn_passed(pos, ev.faction)},
    )


def _not_put_back(kind: str, had: int, who: str, place: str, want: int) -> str:
    """Why `want` forces of a kind cannot go back where the rules removed only `had`."""
    if kind == "special":
        return f"the rules removed only {had} {who} special forces from {place}: {want} cannot be put back"
    if kind == "advisors":
        return f"the rules removed only {had} {who} advisors from {place}: {want} cannot be put back"
    return f"the rules removed only {had} {who} forces from {place}: {want} cannot be put back"


def apply_loss_corrected(pos: Position, ev: LossCorrected) -> dict[str, Any]:
    """The judge returns forces from the tanks to where they stood, with a reason. Where the
    removal listed in `pos.losses` took forces from that stack, at most that many go back, and
    what is not put back stays listed. Refusals name the event's field at fault."""
    need_full_tracking(pos, "correcting losses")
    need_faction(pos, ev.faction)
    need_piece(pos, ev.territory, ev.sector)
    need_counts(pos, ev.normal, ev.special, ev.advisors, ev.faction)
    if not ev.reason.strip():
        refuse(pos, "loss_corrected", "a correction needs a reason", ev, field="reason")
    key = (ev.faction, ev.territory, ev.sector)
    asked = (ev.normal, ev.special, ev.advisors)
    who, place = (
        faction_name(ev.faction),
        place_name(ev.territory if ev.sector is None else f"{ev.territory}@{ev.sector}"),
    )
    removed = removed_at(pos, key)
    for kind, want, had in zip(KINDS, asked, removed[0] if removed else asked, strict=True):
        if removed is not None and want > had:
            refuse(
                pos,
                removed[1],  # the rule the engine removed them by
                _not_put_back(kind, had, who, place, want),
                ev,
                field=kind,
            )
    st = pos.states[ev.faction]
    if st.tanks is None:
        refuse(pos, "loss_corrected", f"the {who} forces in the tanks are not known", ev)
    if ev.special > st.tanks[1]:
        refuse(
            pos,
            "loss_corrected",
            f"{who} has only {st.tanks[1]} special forces in the tanks",
            ev,
            field="special",
        )
    if ev.normal + ev.advisors > st.tanks[0]:
        refuse(
            pos,
            "loss_corrected",
            f"{who} has only {st.tanks[0]} forces in the tanks",
            ev,
            field="normal" if ev.normal > st.tanks[0] or not ev.advisors else "advisors",
        )
    forces: dict[ForceKey, Stack] = dict(pos.forces)
    old = forces.get(key, (0, 0, 0))
    forces[key] = (old[0] + ev.normal, old[1] + ev.special, old[2] + ev.advisors)
    states = dict(pos.states)
    states[ev.faction] = evolve(st, tanks=(st.tanks[0] - ev.normal - ev.advisors, st.tanks[1] - ev.special))
    # What is not put back stays listed, the spice the same removal destroyed included.
    return {
        "forces": forces,
        "states": states,
        "losses": put_back(pos.losses, key, asked),
        "spice_lost": pos.spice_lost,
    }
