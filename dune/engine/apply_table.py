"""Storm, worms, Family Atomics, the nexus, and each faction's spice, cards and leaders."""

from __future__ import annotations

from typing import Any

from dune.engine.ambassador_supply import stormed_back
from dune.engine.battle.captives import leaders_after, prison_break_fates
from dune.engine.board import HIDDEN_MOBILE_STRONGHOLD, SECTOR_COUNT, SHIELD_WALL, TERRITORIES
from dune.engine.checks import active_count, need_faction, need_phase, need_piece, piece_in_storm, refuse
from dune.engine.editions import advanced, corrected, distinguished, limited, refined, sheltered
from dune.engine.errors import UnknownIdentifier
from dune.engine.events import (
    AllianceBroken,
    AllianceFormed,
    CardsSet,
    FamilyAtomics,
    LeaderChanged,
    SpiceChanged,
    SpiceSet,
    StormMoved,
    StormPlaced,
    Worm,
)
from dune.engine.factions import ECAZ, HARKONNEN, MORITANI
from dune.engine.impossible import holder_problem
from dune.engine.karama import check_cards, karama_worm, leader_revival
from dune.engine.losses import automatic, remove, storm_hits, worm_devours
from dune.engine.movement import UNREACHABLE, distances, pieces_of
from dune.engine.names import (
    faction_name,
    factions_text,
    join_names,
    leader_status_words,
    phase_name,
    place_name,
)
from dune.engine.phases import BATTLE, SETUP, SPICE_BLOW, STORM
from dune.engine.position import FactionState, ForceKey, Position, Stack, evolve
from dune.engine.spice import storm_spice, without_spice, worm_spice
from dune.engine.storm import is_shielded


def apply_storm_placed(pos: Position, ev: StormPlaced) -> dict[str, Any]:
    """The first storm placement (LoLV 0.16, AH VI.A)."""
    if pos.storm is not None:
        refuse(pos, "storm_first", "the storm is already on the board; record storm_moved", ev.sector)
    if ev.sector is None:
        refuse(pos, "storm_first", "the storm is placed on a sector 0..17", ev.sector)
    if pos.phase not in (SETUP, STORM) or pos.turn != 1:
        refuse(pos, "storm_first", "the storm is first placed in turn 1", pos.phase)
    changes: dict[str, Any] = {"storm": ev.sector}
    if automatic(pos) and pos.ruleset.storm_placement_destroys:
        return remove(pos, storm_hits(pos, ev.sector, 0, placed=True), changes)
    return changes


#: The farthest the storm moves in one storm phase: Weather Control's 10 (LoLV 3.01.23, WBC VI.3).
STORM_MOST = 10


def apply_storm_moved(pos: Position, ev: StormMoved) -> dict[str, Any]:
    """The storm moves counterclockwise in the storm phase of turns 2+ (LoLV 1.01.02, AH VI.C)."""
    need_phase(pos, (STORM,), "storm_move", "the storm moves")
    if pos.storm is None:
        refuse(pos, "storm_first", "the storm has not been placed yet", ev.sectors)
    if pos.turn == 1:
        refuse(pos, "storm_first", "in turn 1 the storm is placed, not moved", ev.sectors)
    if not 0 <= ev.sectors <= SECTOR_COUNT:
        refuse(pos, "storm_move", f"the storm moves at most {SECTOR_COUNT} sectors", ev.sectors)
    if ev.sectors > STORM_MOST and limited(pos):
        # Weather Control moves it 1 to 10 (LoLV 3.01.23, WBC VI.3); the dials and the storm
        # deck less (1.01.02, 2.04.13, AH VI.C).
        refuse(pos, "storm_most", f"the storm moves at most {STORM_MOST} sectors, not {ev.sectors}", ev.sectors, field="sectors")
    if pos.storm_moved and corrected(pos):
        # Weather Control replaces the move rather than adding one (WBC VI.3, LoLV 3.01.23).
        refuse(pos, "storm_once", "the storm has already moved in this storm phase", ev.sectors)
    changes: dict[str, Any] = {"storm": (pos.storm + ev.sectors) % SECTOR_COUNT, "storm_moved": True}
    if not automatic(pos):
        return changes
    _no_field_first(pos, _no_field_under_storm(pos, pos.storm, ev.sectors), by_worm=False)
    if refined(pos):
        changes.update(_ambassadors_stormed(pos, pos.storm, ev.sectors))
    changes = remove(pos, storm_hits(pos, pos.storm, ev.sectors), changes)
    return without_spice(pos, storm_spice(pos, pos.storm, ev.sectors), changes)


def _ambassadors_stormed(pos: Position, start: int, sectors: int) -> dict[str, Any]:
    """Ambassadors in the sectors the storm moves into return to the Ecaz supply (LoLV 2.11.09;
    the stronghold shelters forces, not them); the HMS's is where it points (2.07.17)."""
    hit = {(start + i) % SECTOR_COUNT for i in range(1, sectors + 1)}
    kept = {}
    for territory, symbol in pos.ambassadors.items():
        if territory == HIDDEN_MOBILE_STRONGHOLD:
            sector = pos.hms[1] if pos.hms is not None else None
        else:
            sector = _first_sector(territory)
        if sector not in hit or (limited(pos) and is_shielded(territory, pos.family_atomics)):
            # Fifth edition: the standing Shield Wall shelters an Ambassador in Arrakeen or
            # Carthag as it shelters the forces there (LoLV 1.01.04, 2.11.09).
            kept[territory] = symbol
    if len(kept) == len(pos.ambassadors):
        return {}
    back = [s for t, s in pos.ambassadors.items() if t not in kept]
    # Never silently: the judge sees what went back, from where, by which rule.
    rule = pos.ruleset.cite.get("ambassador_stormed", "2.11.09")
    lost = tuple(
        (symbol, t, pos.hms[1] if t == HIDDEN_MOBILE_STRONGHOLD and pos.hms is not None else _first_sector(t), rule)
        for t, symbol in pos.ambassadors.items()
        if t not in kept
    )
    return {"ambassadors": kept, "pieces_lost": lost, **stormed_back(pos, back)}


def _no_field_under_storm(pos: Position, start: int, sectors: int) -> bool:
    """Whether the storm moves over or onto the sector of the No-Field token (2.10.14)."""
    if pos.no_field is None or pos.no_field[1] is None:
        return False
    return (pos.no_field[1] - start) % SECTOR_COUNT in range(1, sectors + 1)


def _no_field_first(pos: Position, hit: bool, *, by_worm: bool) -> None:
    """A No-Field token the storm or a worm reaches is revealed first, then the storm or the
    worm acts on the forces it stood for (LoLV 2.10.14): the engine cannot know its hidden
    number, so the judge records the reveal before the storm's move or the worm."""
    if hit and pos.no_field is not None:
        where = place_name(pos.no_field[0])
        refuse(
            pos,
            "no_field_hit",
            f"a worm appears in the territory of the No-Field token in {where}: record its reveal "
            "(no_field_revealed with the forces it stands for) first"
            if by_worm
            else f"the storm reaches the No-Field token in {where}: record its reveal "
            "(no_field_revealed with the forces it stands for) first",
            pos.no_field[0],
        )


def apply_worm(pos: Position, ev: Worm) -> dict[str, Any]:
    """A worm after turn 1: counts for the Shield Wall (Karama worms too) and opens a nexus."""
    need_phase(pos, (SPICE_BLOW,), "nexus", "worms appear")
    if pos.turn == 1:
        refuse(pos, "first_turn_worms", "worms of the first turn are set aside and do not count", ev)
    if ev.territory is not None:
        need_piece(pos, ev.territory, _first_sector(ev.territory))
    if not ev.allies_spared and not pos.ruleset.fremen_may_expose_allies:
        refuse(
            pos,
            "worm_allies",
            "the Fremen's allies are spared by worms; the Fremen cannot withdraw it",
            ev.allies_spared,
            field="allies_spared",
        )
    # A Karama worm opens no nexus under AH (questions A.8); it counts for the Shield Wall.
    nexus = pos.nexus if ev.karama and not pos.ruleset.karama_worm_nexus and refined(pos) else True
    changes: dict[str, Any] = {"worms": pos.worms + 1, "nexus": nexus}
    if ev.karama:
        changes.update(karama_worm(pos))
    if not automatic(pos):
        return changes
    devoured = []
    if pos.worm_pending is not None:
        devoured.append(pos.worm_pending)  # the previous nexus is over
    changes["worm_pending"] = None
    if ev.territory is not None:
        if pos.ruleset.worm_devours_after_nexus:
            changes["worm_pending"] = ev.territory
        else:
            devoured.append(ev.territory)
    hit = pos.no_field is not None and pos.no_field[0] in devoured
    _no_field_first(pos, hit, by_worm=True)
    losses = [loss for t in devoured for loss in worm_devours(pos, t, allies_spared=ev.allies_spared)]
    spice = [loss for t in devoured for loss in worm_spice(pos, t)]
    return without_spice(pos, spice, remove(pos, losses, changes))


def _first_sector(territory: str) -> int | None:
    t = TERRITORIES.get(territory)
    return t.sectors[0] if t is not None and t.sectors else None


def apply_family_atomics(pos: Position, ev: FamilyAtomics) -> dict[str, Any]:
    """Family Atomics: not in turn 1 (WBC VI.2); every token on the Shield Wall goes to the
    tanks (WBC VI.6); Arrakeen, Carthag and Imperial Basin lose the storm's shelter."""
    need_faction(pos, ev.faction)
    need_phase(pos, (STORM,), "family_atomics", "Family Atomics is played")
    if pos.turn == 1:
        refuse(pos, "family_atomics", "Family Atomics may not be played in the first turn", ev)
    if pos.family_atomics:
        refuse(pos, "family_atomics", "Family Atomics has already been played", ev)
    if refined(pos) and "family_atomics_reach" in pos.ruleset.cite:
        _need_atomics_reach(pos, ev.faction)
    forces: dict[ForceKey, Stack] = {}
    states = dict(pos.states)
    for key, stack in pos.forces.items():
        f, t, _s = key
        if t != SHIELD_WALL:
            forces[key] = stack
            continue
        st = states[f]
        if st.tanks is not None:
            states[f] = evolve(st, tanks=(st.tanks[0] + stack[0] + stack[2], st.tanks[1] + stack[1]))
    return {"forces": forces, "states": states, "family_atomics": True}


def _need_atomics_reach(pos: Position, faction: str) -> None:
    """The player needs forces on the Shield Wall, or next to it with no storm between
    (LoLV 3.01.07, WBC VI.5); advisors and coexisting BG tokens never count (LoLV 2.02.12,
    WBC VI.4). Third edition; the AH text leaves it to the card (AH questions A.2)."""
    inert = False
    for (f, t, s), stack in pos.forces.items():
        if f != faction or not any(stack) or t == HIDDEN_MOBILE_STRONGHOLD:
            continue
        if active_count(pos, f, t, stack) == 0:
            inert = True
            continue
        if t == SHIELD_WALL:
            return
        if piece_in_storm(pos, t, s):
            continue
        reach = distances((t, s), pos.storm, sheltered(pos))
        if any(reach.get(p, UNREACHABLE) <= 1 for p in pieces_of(SHIELD_WALL)):
            return
    refuse(
        pos,
        "family_atomics_bg" if inert else "family_atomics_reach",
        f"{faction_name(faction)} has no forces on the Shield Wall or next to it with no storm between"
        + (" (advisors and coexisting tokens do not count)" if inert else ""),
        faction,
        field="faction",
    )


def apply_alliance_formed(pos: Position, ev: AllianceFormed) -> dict[str, Any]:
    """Alliances form in a nexus (LoLV 1.10.00, AH XII.A), never in turn 1 (no worm counts
    then), within the ruleset's size, one alliance per faction (1.10.01.04), and under the
    LoLV once per faction per nexus (1.10.01.01); or outside a nexus through the Moritani
    (2.12.10-11) or the Ecaz Ambassador (2.11.10.11) where the ruleset has them (1.10.01.06)."""
    setup = pos.setup
    assert setup is not None
    for f in ev.factions:
        need_faction(pos, f)
    if len(ev.factions) < 2:
        refuse(pos, "alliance_limit", "an alliance needs at least two factions", ev.factions)
    if ev.how != "nexus":
        return _ability_alliance(pos, ev)
    if pos.turn == 1:
        refuse(pos, "first_turn_worms", "no nexus and so no alliance in turn 1", ev.factions)
    if not (pos.phase == SPICE_BLOW and pos.nexus):
        refuse(pos, "nexus", "alliances are formed only during a nexus", ev.factions)
    if pos.ruleset.allies_once_per_nexus and corrected(pos):
        again = sorted(set(ev.factions) & pos.nexus_allied)
        if again:
            refuse(
                pos,
                "ally_once",
                f"{factions_text(again)} already allied in this nexus; a faction allies once per nexus",
                again,
            )
    existing = {pos.side_of(f) for f in ev.factions if len(pos.side_of(f)) > 1}
    if len(existing) > 1:
        refuse(pos, "one_alliance", "a faction may belong to only one alliance", ev.factions)
    joined = tuple(sorted(set(ev.factions).union(*existing)))
    limit = pos.ruleset.alliance_limit(len(pos.factions), setup.three_alliances, setup.options)
    if limit is not None and len(joined) > limit:
        refuse(pos, "alliance_limit", f"an alliance has at most {limit} factions", joined)
    if existing and set(joined) == set(next(iter(existing))):
        refuse(pos, "one_alliance", "these factions are already allied", ev.factions)
    alliances = tuple(sorted([a for a in pos.alliances if a not in existing] + [joined]))
    return {"alliances": alliances, "nexus_allied": pos.nexus_allied | set(ev.factions)}


#: The faction whose ability forms an alliance outside a nexus, by `alliance_formed.how`.
_ABILITY_OWNER = {
    "moritani": (MORITANI, "moritani_alliance"),
    "ecaz_ambassador": (ECAZ, "ambassador_alliance"),
}


def _ability_alliance(pos: Position, ev: AllianceFormed) -> dict[str, Any]:
    """An alliance of two through a faction's ability (LoLV 1.10.01.06)."""
    if ev.how not in pos.ruleset.alliance_abilities:
        refuse(
            pos,
            "nexus",
            f"{pos.ruleset.name} has no alliances by {ev.how.replace('_', ' ')}: alliances form in a nexus",
            ev.how,
        )
    owner, rule = _ABILITY_OWNER[ev.how]
    if len(ev.factions) != 2 or owner not in ev.factions:
        refuse(
            pos, rule, f"this alliance is between {faction_name(owner)} and the faction it met", ev.factions
        )
    if refined(pos):
        _need_trigger(pos, ev, rule)
    if ev.how == "ecaz_ambassador":
        allied = [f for f in ev.factions if len(pos.side_of(f)) > 1]
        if allied:
            refuse(
                pos,
                rule,
                f"{factions_text(allied)} already allied: the Ambassador allies two unallied factions",
                allied,
            )
        rest = pos.alliances
    else:
        # Enemy of My Enemy breaks the alliances either faction was in (2.12.11).
        rest = pos.alliances
        for f in ev.factions:
            rest = _without(rest, f)
    return {"alliances": tuple(sorted([*rest, tuple(sorted(ev.factions))]))}


def _need_trigger(pos: Position, ev: AllianceFormed, rule: str) -> None:
    """What the ability needs on the board (third edition): Enemy of My Enemy is offered to a
    faction other than the Ecaz about to trigger a Terror token (2.12.10); the Ecaz
    Ambassador alliance comes from the Ecaz Ambassador token triggered in a stronghold
    (2.11.10.11)."""
    if ev.how == "moritani":
        if ECAZ in ev.factions:
            refuse(pos, "enemy_of_my_enemy", "Enemy of My Enemy is never offered to the Ecaz", ev.factions)
        if not pos.terror:
            refuse(
                pos,
                "enemy_of_my_enemy",
                "no Terror token is on the board to trigger: Enemy of My Enemy is offered before one is revealed",
                ev.factions,
            )
    elif ev.how == "ecaz_ambassador" and ECAZ not in pos.ambassadors.values():
        refuse(pos, rule, "the Ecaz Ambassador is not on the board to trigger", ev.factions)


def apply_alliance_broken(pos: Position, ev: AllianceBroken) -> dict[str, Any]:
    """A faction breaks from its alliance during a nexus (LoLV 1.10.01.05, AH XII.D)."""
    need_faction(pos, ev.faction)
    if not (pos.phase == SPICE_BLOW and pos.nexus):
        refuse(pos, "nexus", "alliances are broken only during a nexus", ev.faction)
    side = pos.side_of(ev.faction)
    if len(side) == 1:
        refuse(pos, "nexus", f"{faction_name(ev.faction)} is not allied", ev.faction)
    return {"alliances": _without(pos.alliances, ev.faction)}


def _without(alliances: tuple[tuple[str, ...], ...], faction: str) -> tuple[tuple[str, ...], ...]:
    out = []
    for a in alliances:
        rest = tuple(f for f in a if f != faction)
        if len(rest) > 1:
            out.append(rest)
    return tuple(sorted(out))


def _set_state(pos: Position, faction: str, st: FactionState) -> dict[str, Any]:
    states = dict(pos.states)
    states[faction] = st
    return {"states": states}


def apply_spice_set(pos: Position, ev: SpiceSet) -> dict[str, Any]:
    need_faction(pos, ev.faction)
    if ev.amount < 0:
        refuse(pos, "spice", "spice cannot be negative", ev.amount)
    return _set_state(pos, ev.faction, evolve(pos.states[ev.faction], spice=ev.amount))


def apply_spice_changed(pos: Position, ev: SpiceChanged) -> dict[str, Any]:
    need_faction(pos, ev.faction)
    st = pos.states[ev.faction]
    if st.spice is None:
        refuse(pos, "spice", f"{faction_name(ev.faction)}'s spice is unknown; record spice_set", ev.delta)
    if st.spice + ev.delta < 0:
        refuse(pos, "spice", f"{faction_name(ev.faction)} has only {st.spice} spice", ev.delta)
    return _set_state(pos, ev.faction, evolve(st, spice=st.spice + ev.delta))


def apply_cards_set(pos: Position, ev: CardsSet) -> dict[str, Any]:
    """Cards held, within the hand limit (LoLV 1.04.02, 2.05.07; AH Harkonnen 8)."""
    need_faction(pos, ev.faction)
    limit = pos.sheet(ev.faction).hand_limit
    if pos.aftermath is not None and MORITANI in (ev.faction, *pos.allies_of(ev.faction)):
        limit -= 1  # LoLV 2.12.09.02: the Moritani's and its ally's hand shrinks after Atomics
        if not 0 <= ev.count <= limit:
            refuse(
                pos,
                "aftermath",
                f"{faction_name(ev.faction)} holds at most {limit} treachery cards",
                ev.count,
            )
    if not 0 <= ev.count <= limit:
        refuse(
            pos, "hand_limit", f"{faction_name(ev.faction)} holds at most {limit} treachery cards", ev.count
        )
    if ev.names is not None and len(ev.names) != ev.count:
        refuse(pos, "hand_limit", "name every card or none", ev.names)
    if ev.karama:
        check_cards(pos, ev)
    return _set_state(pos, ev.faction, evolve(pos.states[ev.faction], cards=ev.count, card_names=ev.names))


def apply_leader_changed(pos: Position, ev: LeaderChanged) -> dict[str, Any]:
    need_faction(pos, ev.faction)
    sheet = pos.sheet(ev.faction)
    i = sheet.leader_index(ev.leader)
    if i is None:
        raise UnknownIdentifier(
            rule="leaders",
            msg=f"{faction_name(ev.faction)} has no leader {ev.leader}; leaders: {join_names(ld.name for ld in sheet.leaders)}",
            phase=pos.phase,
            input=ev.leader,
        )
    if (ev.status in ("captured", "held")) != (ev.captor is not None):
        refuse(
            pos, "leaders", "a captor (or holder) is named exactly when the leader is captured or held", ev
        )
    if ev.captor is not None:
        need_faction(pos, ev.captor)
        if ev.captor == ev.faction:
            # A ghola is a leader of another faction (2.08.16); the Harkonnen take the loser's
            # leader (2.05.10, AH X.B.2.a.ii).
            held = ev.status == "held"
            if held:
                refuse(pos, "ghola", f"{faction_name(ev.faction)} cannot hold its own leader as a ghola", ev.captor, field="captor")
            refuse(pos, "capture", f"{faction_name(ev.faction)} cannot capture its own leader", ev.captor, field="captor")
        problem = holder_problem(pos, sheet.leaders[i].id, sheet.leaders[i].name, ev.status, ev.captor)
        if problem is not None and refined(pos):
            refuse(pos, problem[0], problem[1], ev.captor, field="captor")
    st = pos.states[ev.faction]
    leaders = list(st.leaders)
    karama = leader_revival(pos, ev, leaders[i][0]) if ev.karama else {}
    if limited(pos):
        _check_capture_limits(pos, ev, leaders[i][0] if leaders else None)
        _check_ghola(pos, ev, leaders[i][0] if leaders else None)
    before_status = leaders[i][0] if leaders else None
    leaders[i] = (ev.status, ev.captor)
    changes = {**_set_state(pos, ev.faction, evolve(st, leaders=tuple(leaders))), **karama}
    if distinguished(pos) and ev.status == "active" and before_status is not None and before_status.startswith("tanks"):
        # Revived: killed again, it goes to the tanks face down (1.05.04, AH IX.D.5).
        changes["leaders_revived"] = pos.leaders_revived | {(ev.faction, sheet.leaders[i].id)}
    if limited(pos):
        changes = _prison_break(pos, changes)
    return changes


#: The most active leaders the Tleilaxu may have and still take a ghola (2.08.16).
GHOLA_POOL = 5


def _check_ghola(pos: Position, ev: LeaderChanged, before: str | None) -> None:
    """Fifth edition: a ghola is a dead leader of another faction (from the tanks), taken while
    the Tleilaxu have fewer than five active leaders (2.08.16)."""
    if ev.status != "held" or before == "held":
        return
    name = pos.sheet(ev.faction).leaders[pos.sheet(ev.faction).leader_index(ev.leader) or 0].name
    if before is not None and not before.startswith("tanks"):
        refuse(pos, "ghola", f"{name} is not dead ({leader_status_words(before)}): a ghola comes from the tanks", ev.status, field="status")
    holder = ev.captor or ""
    own = pos.states.get(holder)
    if own is not None and own.leaders:
        active = sum(1 for status, _c in own.leaders if status == "active")
        active += sum(
            1 for st in pos.states.values() for status, captor in st.leaders if status in ("held", "captured") and captor == holder
        )
        if active >= GHOLA_POOL:
            refuse(pos, "ghola", f"{faction_name(holder)} already have {active} active leaders: a ghola needs fewer than five", ev.status, field="captor")


def _check_capture_limits(pos: Position, ev: LeaderChanged, before: str | None) -> None:
    """Fifth edition: a leader is captured only after a battle the Harkonnen won, in the battle
    phase, from the loser's active leaders, and in the LoLV only in the Advanced game (2.05.10,
    2.05.00; AH X.B.2.a.ii). The `battle` event records a capture with its battle."""
    if ev.status != "captured" or before == "captured":
        return
    name = pos.sheet(ev.faction).leaders[pos.sheet(ev.faction).leader_index(ev.leader) or 0].name
    if pos.ruleset.basic_or_advanced and not advanced(pos):
        refuse(pos, "2.05.00", f"the Basic game has no captured leaders (2.05.10 is an Advanced ability), so {name} is not captured", ev.status, field="status")
    if pos.phase != BATTLE:
        refuse(pos, "capture_when", f"the Harkonnen capture a leader after a battle they won, not in the {phase_name(pos.phase)} phase", ev.status, field="status")
    if before is not None and before != "active":
        refuse(pos, "capture_when", f"{name} is not an active leader ({leader_status_words(before)}) and cannot be captured", ev.status, field="status")


def _prison_break(pos: Position, changes: dict[str, Any]) -> dict[str, Any]:
    """When every Harkonnen leader of its own is dead, the captives go home at once (2.05.11,
    AH X.B.2.a.ii)."""
    states = changes.get("states", pos.states)
    if HARKONNEN not in states:
        return changes
    leaders = {f: list(st.leaders) for f, st in states.items() if st.leaders}
    freed = prison_break_fates(pos, leaders)
    if not freed:
        return changes
    after = leaders_after(pos.evolve(states=states), freed)
    new_states = dict(states)
    for fate in freed:
        new_states[fate.owner] = evolve(new_states[fate.owner], leaders=tuple(after[fate.owner]))
    return {**changes, "states": new_states}
