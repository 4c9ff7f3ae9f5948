"""The flow of the game: phases and turns, quick records, win attempts, the clock."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dune.clock_limits import LIMIT_NAMES, LIMITS
from dune.engine.apply_setup import chosen_on_board
from dune.engine.board import (
    HIDDEN_MOBILE_STRONGHOLD,
    PRINTED_STRONGHOLDS,
    SHIELD_WALL,
    SHIELD_WALL_LEFT_SECTOR,
    TERRITORIES,
)
from dune.engine.checks import need_faction, need_phase, need_piece, refuse
from dune.engine.control import control, occupancy
from dune.engine.editions import distinguished
from dune.engine.errors import InvalidPosition, OutOfTime, UnknownIdentifier
from dune.engine.events import (
    DefaultAction,
    DieRolled,
    DiplomacyChipUsed,
    PhaseAdvanced,
    QuickRecord,
    TimeUp,
    TurnAdvanced,
    WinAttemptConfirmed,
)
from dune.engine.factions import BENE_GESSERIT, ECAZ, MORITANI
from dune.engine.impossible import allies_together
from dune.engine.losses import action_over, automatic, remove, worm_devours
from dune.engine.moves import flyers_at
from dune.engine.names import faction_name, factions_text, join_names, phase_name, place_name
from dune.engine.phases import BATTLE, BIDDING, MENTAT_PAUSE, SETUP, SHIPMENT_MOVEMENT, SPICE_BLOW, STORM
from dune.engine.position import FactionState, ForceKey, Position, Stack, evolve
from dune.engine.pp import turn_pp
from dune.engine.spice import SpiceLoss, without_spice, worm_spice
from dune.engine.storm import storm_order
from dune.engine.victory import mentat_victory, victory_stands

#: The rule behind each table clock (`time_up.clock`): the clocks' limits cite it.
CLOCK_RULES = {key: limit.rule for key, limit in LIMITS.items()}


def _phase_records() -> dict[str, Any]:
    """What a phase records only while it lasts, empty as a phase or a turn begins: the moves,
    whether the storm moved, the nexus's alliances, who acts and who has acted, the shipments
    and the order cards."""
    return {
        "moves": {},
        "storm_moved": False,
        "nexus_allied": frozenset(),
        "acting": None,
        "acted": frozenset(),
        "shipments": {},
        "order_cards": {},
    }


def apply_phase_advanced(pos: Position, ev: PhaseAdvanced) -> dict[str, Any]:
    """Phases run in order within a turn; skipping is allowed, going back is not."""
    phases = pos.ruleset.phases
    if ev.phase not in phases:
        raise UnknownIdentifier(
            rule=pos.ruleset.cite["phase"],
            msg=f"{ev.phase.replace('_', ' ')} is not a phase of {pos.ruleset.name}",
            phase=pos.phase,
            input=ev.phase,
        )
    if pos.phase == SETUP:
        if ev.phase != phases[0]:
            refuse(pos, "phase", f"the first turn starts with the {phase_name(phases[0])} phase", ev.phase)
        _check_setup_complete(pos)
    elif phases.index(ev.phase) <= phases.index(pos.phase):
        refuse(pos, "phase", f"the game is in the {phase_name(pos.phase)} phase; phases only move forward", ev.phase)
    changes: dict[str, Any] = {
        "phase": ev.phase,
        "nexus": pos.nexus and ev.phase == SPICE_BLOW,
        **_phase_records(),
        "flyers": flyers_at(pos) if ev.phase == SHIPMENT_MOVEMENT else None,
        "worm_pending": None,
    }
    losses = action_over(pos)
    spice: list[SpiceLoss] = []
    if pos.worm_pending is not None and automatic(pos):
        losses += worm_devours(pos, pos.worm_pending)  # the nexus is over (AH XII.B, WBC VII.9)
        spice = worm_spice(pos, pos.worm_pending)
    changes = without_spice(pos, spice, remove(pos, losses, changes))
    if not losses and not spice and pos.phase == STORM and pos.storm_moved:
        # The storm's removals stay listed, with their put-back, as its phase moves on (a storm
        # recorded with its next phase in one tap): the judge has not seen them yet. A fact of
        # the position, so a position read back from its snapshot says the same.
        changes.update(losses=pos.losses, spice_lost=pos.spice_lost, pieces_lost=pos.pieces_lost)
    if ev.phase == MENTAT_PAUSE:
        changes["states"] = collect_front_spice(changes.get("states", pos.states))
        if pos.vidal == MORITANI and distinguished(pos):
            changes["vidal"] = None  # 2.12.13: the Moritani set Duke Vidal aside (ninth edition)
        if distinguished(pos):
            # 1.06.06, 1.10.02.06: what `load_position` refuses at the Mentat Pause is refused
            # here first, so the judge records the forces sent to the tanks.
            together = allies_together(pos.evolve(**changes))
            if together is not None:
                refuse(pos, "ally_tanks", together[1], together[2], field="phase")
    return changes


def collect_front_spice(states: Mapping[str, FactionState]) -> dict[str, FactionState]:
    """Spice in front of the shields goes behind them as the Mentat Pause begins (LoLV 1.09.01,
    1.12.02); a faction whose spice is unknown keeps it in front."""
    out = dict(states)
    for f, st in states.items():
        if st.spice_front and st.spice is not None:
            out[f] = evolve(st, spice=st.spice + st.spice_front, spice_front=0)
    return out


def _check_setup_complete(pos: Position) -> None:
    """Every faction that chooses its starting placement has placed it (LoLV 0.13, AH III.E.4)."""
    if pos.quick:
        return
    for f in pos.factions:
        sheet = pos.sheet(f)
        if sheet.choose_count and chosen_on_board(pos, f) != sheet.choose_count:
            refuse(
                pos, "setup", f"{faction_name(f)} must place {sheet.choose_count} starting forces first", f
            )


def apply_turn_advanced(pos: Position, ev: TurnAdvanced) -> dict[str, Any]:
    """The next turn starts after the Mentat Pause (LoLV 1.09.04); this turn's PP are added."""
    setup = pos.setup
    assert setup is not None
    need_phase(pos, (MENTAT_PAUSE,), "phase", "a new turn starts")
    if pos.time_up is not None:
        time_up = LIMIT_NAMES.get(pos.time_up, pos.time_up)
        raise OutOfTime(
            rule=CLOCK_RULES.get(pos.time_up, pos.ruleset.cite["time"]),
            msg=f"the table's clock ran out ({time_up}): no new turn may start",
            phase=pos.phase,
            input=pos.time_up,
        )
    if pos.turn >= setup.turn_limit:
        refuse(
            pos,
            "turn_limit",
            f"turn {pos.turn} was the last of {setup.turn_limit}; record last_turn_ended",
            pos.turn,
        )
    if ev.turn is not None and ev.turn != pos.turn + 1:
        refuse(pos, "phase", f"the next turn is {pos.turn + 1}, not {ev.turn}", ev.turn)
    order = storm_order(pos) or list(pos.factions)
    occ = occupancy(pos)
    ctrl = control(pos, occ)
    standing = mentat_victory(pos, occ, ctrl, order)
    if standing is not None:
        refuse(pos, "solo", victory_stands(standing, "starting another turn"), pos.turn)
    states = add_turn_pp(pos)
    # Coexistence in a territory the BG holds alone lapses at the next turn (AH XV.B.1).
    coexisting = frozenset(
        t for t in pos.coexisting if {f for (f, tt, _s) in pos.forces if tt == t} - {BENE_GESSERIT}
    )
    turn = pos.turn + 1
    return {
        "turn": turn,
        "phase": pos.ruleset.phases[0],
        "nexus": False,
        "states": states,
        "coexisting": coexisting,
        "last_turn": turn >= setup.turn_limit,
        **_phase_records(),
        "flyers": None,
        "declared": frozenset(),
        "declared_apart": {},
    }


def add_turn_pp(pos: Position) -> dict[str, FactionState]:
    """Faction states with this turn's performance points added (WBC Best Faction Awards)."""
    occ = occupancy(pos)
    pp = turn_pp(pos, occ, control(pos, occ))
    states = dict(pos.states)
    if pp:
        for f, v in pp.items():
            if v:
                states[f] = evolve(states[f], pp=states[f].pp + v)
    return states


def _stronghold_key(pos: Position, key: str) -> tuple[str, int | None]:
    territory, _, sec = key.partition("@")
    t = TERRITORIES.get(territory)
    if t is None:
        raise UnknownIdentifier(rule="board", msg=f"unknown stronghold {key!r}", phase=pos.phase, input=key)
    if territory == SHIELD_WALL:
        if not sec:
            return territory, SHIELD_WALL_LEFT_SECTOR  # the side touching the Imperial Basin
        if int(sec) not in t.sectors:
            raise UnknownIdentifier(
                rule="board",
                msg=f"the Shield Wall spans sectors {join_names(map(str, t.sectors), last='or')}",
                input=key,
            )
        return territory, int(sec)
    if sec or not (territory in PRINTED_STRONGHOLDS or territory == HIDDEN_MOBILE_STRONGHOLD):
        raise UnknownIdentifier(
            rule="quick tracking",
            msg=f"quick records name strongholds (and Shield Wall sides), not {place_name(key)}",
            input=key,
        )
    sector = None if territory == HIDDEN_MOBILE_STRONGHOLD else t.sectors[0]
    need_piece(pos, territory, sector)  # the HMS only with the Ixians
    return territory, sector


def apply_quick_record(pos: Position, ev: QuickRecord) -> dict[str, Any]:
    """Who stands in each stronghold; the rest of the board becomes unknown."""
    if pos.phase == SETUP:
        refuse(pos, "setup", "quick records start with turn 1", ev)
    forces: dict[ForceKey, Stack] = {}
    coexisting: set[str] = set()
    co_given = set(ev.coexisting)
    by_territory: dict[str, set[str]] = {}
    for key, factions in ev.occupants:
        territory, sector = _stronghold_key(pos, key)
        for f in factions:
            need_faction(pos, f)
            inert = f == BENE_GESSERIT and (territory in co_given or key in co_given)
            forces[(f, territory, sector)] = (0, 0, 1) if inert else (1, 0, 0)
            if inert:
                coexisting.add(territory)
            else:
                by_territory.setdefault(territory, set()).add(f)
    for key in co_given:
        territory = key.partition("@")[0]
        if territory not in coexisting:
            raise InvalidPosition(
                rule=pos.ruleset.cite["coexist"],
                msg=f"the Bene Gesserit is not recorded in {place_name(key)}",
                phase=pos.phase,
                input=key,
            )
    for territory, present in by_territory.items():
        if territory != SHIELD_WALL and len(present) > 2:
            raise InvalidPosition(
                rule=pos.ruleset.cite["occupancy"],
                msg=f"{place_name(territory)} cannot hold forces of {len(present)} factions",
                phase=pos.phase,
                input=sorted(present),
            )
        for f in present:
            for ally in set(pos.allies_of(f)) & present:
                if not (pos.ruleset.ecaz_co_occupy and ECAZ in (f, ally)):
                    raise InvalidPosition(
                        rule=pos.ruleset.cite["ally_cohabit"],
                        msg=f"allies {faction_name(f)} and {faction_name(ally)} cannot share {place_name(territory)}",
                        phase=pos.phase,
                        input=territory,
                    )
    changes: dict[str, Any] = {"forces": forces, "coexisting": frozenset(coexisting), "quick": True}
    if ev.storm is not None:
        changes["storm"] = ev.storm
    if ev.worms is not None:
        if ev.worms < pos.worms:
            refuse(
                pos,
                "shield_wall",
                f"{pos.worms} worms have already appeared; the count never goes down",
                ev.worms,
            )
        changes["worms"] = ev.worms
    if not pos.quick:
        changes["states"] = {f: evolve(st, reserves=None, tanks=None) for f, st in pos.states.items()}
    return changes


def apply_win_attempt(pos: Position, ev: WinAttemptConfirmed) -> dict[str, Any]:
    """A side's win attempt at the start of a battle phase, counted per faction (LoLV 4.01.04)."""
    need_phase(pos, (BATTLE,), "win_attempts", "win attempts are recorded")
    for f in ev.factions:
        need_faction(pos, f)
    side = tuple(sorted(ev.factions))
    if set(pos.side_of(ev.factions[0])) != set(ev.factions):
        refuse(
            pos,
            "win_attempts",
            "a win attempt is made by a side: an unallied faction or a whole alliance",
            ev.factions,
        )
    if (pos.turn, side) in pos.attempts:
        refuse(
            pos,
            "win_attempts",
            f"the win attempt of {factions_text(side)} is already recorded this turn",
            ev.factions,
        )
    states = dict(pos.states)
    for f in side:
        states[f] = evolve(states[f], win_attempts=states[f].win_attempts + 1)
    return {"states": states, "attempts": pos.attempts | {(pos.turn, side)}}


def apply_time_up(pos: Position, ev: TimeUp) -> dict[str, Any]:
    """The clock ran out: the turn in play is the last (LoLV 4.01.08, WBC heat duration)."""
    if pos.time_up is not None:
        refuse(pos, "time", "time is already up", ev.clock)
    return {"time_up": ev.clock, "last_turn": True}


_DEFAULT_PHASES = {
    "bid": (BIDDING,),
    "turn": (SHIPMENT_MOVEMENT,),
    "battle_plan": (BATTLE,),
    "nexus": (SPICE_BLOW,),
}
#: Each default action in words, as a refusal naming its phase says it.
_DEFAULT_WORDS = {
    "bid": "a default bid is taken",
    "turn": "a default turn is taken",
    "battle_plan": "a default battle plan is taken",
    "nexus": "a default nexus is taken",
}


def apply_default_action(pos: Position, ev: DefaultAction) -> dict[str, Any]:
    """A called clock expired and the default action was taken (WBC time guidelines)."""
    need_faction(pos, ev.faction)
    _need_time_guidelines(pos)
    need_phase(pos, _DEFAULT_PHASES[ev.action], "chips", _DEFAULT_WORDS[ev.action])
    if ev.action == "nexus" and not pos.nexus:
        refuse(pos, "nexus", "there is no nexus to miss", ev.action)
    st = pos.states[ev.faction]
    states = dict(pos.states)
    states[ev.faction] = evolve(st, defaults=st.defaults + 1)
    return {"states": states}


def _need_time_guidelines(pos: Position) -> None:
    """Diplomacy chips and called clocks exist only where the rules have them (WBC time
    guidelines); the LoLV times whole games instead (4.01.08)."""
    rs = pos.ruleset
    if not rs.call_timers:
        refuse(pos, "chips", f"{rs.name} has no called clock and its default action", None)


def apply_chip(pos: Position, ev: DiplomacyChipUsed) -> dict[str, Any]:
    need_faction(pos, ev.faction)
    chips = pos.ruleset.diplomacy_chips
    if not chips:
        refuse(pos, "chips", f"{pos.ruleset.name} has no diplomacy chips", ev.faction)
    st = pos.states[ev.faction]
    if st.chips >= chips:
        refuse(pos, "chips", f"{faction_name(ev.faction)} has used all {chips} diplomacy chips", ev.faction)
    states = dict(pos.states)
    states[ev.faction] = evolve(st, chips=st.chips + 1)
    return {"states": states}


def apply_die_rolled(pos: Position, ev: DieRolled) -> dict[str, Any]:
    """Recorded die rolls: the last adjudication criterion (WBC adjudication)."""
    states = dict(pos.states)
    for f, value in ev.die:
        need_faction(pos, f)
        if not 1 <= value <= 6:
            refuse(pos, "adjudication", "a die roll is 1..6", value)
        states[f] = evolve(states[f], die=value)
    return {"states": states}
