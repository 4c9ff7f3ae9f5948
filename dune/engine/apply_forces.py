"""Forces placed, moved, removed, revived and flipped; BG coexistence.

Checks: the faction owns the forces it uses (reserves, tanks, the stack it moves), no
shipment or move into, out of or through a sector in storm (LoLV 1.01.04, 1.06.02.04,
1.06.04.06; AH IX.C), the occupancy limit of strongholds (1.06.02.05, 1.06.04.09) and
allies never sharing a territory (AH XII.E.5, LoLV 1.06.06).
"""

from __future__ import annotations

from typing import Any

from dune.engine.apply_setup import place_at_setup
from dune.engine.board import HIDDEN_MOBILE_STRONGHOLD, POLAR_SINK, TERRITORIES
from dune.engine.checks import (
    factions_active_in,
    factions_in,
    need_counts,
    need_faction,
    need_full_tracking,
    need_piece,
    need_room,
    piece_in_storm,
    refuse,
)
from dune.engine.coexistence import announced_apart, may_coexist_again
from dune.engine.editions import advanced, corrected, distinguished, limited, ordered, refined
from dune.engine.errors import IllegalAction
from dune.engine.events import (
    CoexistenceDeclared,
    FlipForces,
    ForcesAt,
    ForcesMoved,
    ForcesPlaced,
    ForcesRemoved,
    ForcesRevived,
)
from dune.engine.factions import BENE_GESSERIT, CHOAM, ECAZ, FREMEN, GUILD, IXIANS, MORITANI, TLEILAXU
from dune.engine.karama import check_shipment, revival
from dune.engine.losses import Loss, automatic, remove, shipped_into_storm
from dune.engine.moves import check_move
from dune.engine.names import faction_name, phase_name, place_name
from dune.engine.no_field_supply import ally_shipment
from dune.engine.payments import pay_revival, pay_shipment
from dune.engine.phases import BATTLE, MENTAT_PAUSE, SETUP, SHIPMENT_MOVEMENT
from dune.engine.position import ForceKey, Position, Stack, evolve
from dune.engine.revival_limits import check_revival, guild_shipment
from dune.engine.turn_order import accompanies, piece_key, shipment, take_turn


def _add(forces: dict[ForceKey, Stack], key: ForceKey, n: int, s: int, a: int) -> None:
    old = forces.get(key)
    if old is None:
        forces[key] = (n, s, a)
    else:
        new = (old[0] + n, old[1] + s, old[2] + a)
        if new == (0, 0, 0):
            del forces[key]
        else:
            forces[key] = new


def apply_forces_placed(pos: Position, ev: ForcesPlaced) -> dict[str, Any]:
    """Forces placed on the board, and the shipment's cost paid when the event names it."""
    return pay_shipment(pos, ev, _place(pos, ev))


def _place(pos: Position, ev: ForcesPlaced) -> dict[str, Any]:
    """Forces placed on the board (a shipment, or setup from reserves).

    Long because a shipment is checked step by step (the Karama card or No-Field token behind
    it, the Hidden Mobile Stronghold, a Terror aftermath, the storm, the Fremen and Guild
    exceptions, occupancy, the pool it comes from), each check naming its own rule, and then
    applied with its automatic storm loss.
    """
    if ev.karama:
        check_shipment(pos, ev)
    extra: dict[str, Any] = {}
    if ev.no_field is not None:
        need_full_tracking(pos, "placing forces")
        need_faction(pos, ev.faction)
        need_piece(pos, ev.territory, ev.sector)
        if pos.phase == SETUP:
            refuse(
                pos, "setup", "no shipment with a No-Field token during setup", ev.no_field, field="no_field"
            )
        extra["supplies"] = ally_shipment(pos, ev)
        if not ev.normal + ev.special + ev.advisors:
            # The token showed 0 (or the reserves are empty): nothing lands, but the shipment
            # was the ally's (2.10.13, 2.10.19).
            ended, turn = take_turn(pos, ev.faction)
            extra.update(turn)
            extra.update(shipment(pos, ev.faction, "to:" + piece_key(ev.territory, ev.sector)))
            return remove(evolve(pos, **extra), ended, extra)
    if pos.phase == SETUP and ev.source == "reserves":
        p = ForcesAt(ev.faction, ev.territory, ev.sector, ev.normal, ev.special, ev.advisors)
        after = place_at_setup(pos, p)
        return {"forces": after.forces, "states": after.states}
    need_full_tracking(pos, "placing forces")
    need_faction(pos, ev.faction)
    need_piece(pos, ev.territory, ev.sector)
    need_counts(pos, ev.normal, ev.special, ev.advisors, ev.faction)
    if ev.advisors and not advanced(pos):
        refuse(
            pos,
            "2.02.00",
            "the Basic game sends no advisors: sending them is an Advanced ability (2.02.11, 1.13.00)",
            ev.advisors,
            field="advisors",
        )
    if ordered(pos):
        # The BG's token sent along with another faction's shipment, fighter or advisor (AH
        # IX.C.1.e, LoLV 2.02.05, 2.02.11), is not a turn of its own; advisors come only so
        # (2.02.11, 2.02.13), and `_spiritual_advisor` says why when they do not follow one.
        spiritual = bool(ev.advisors) or accompanies(pos, ev.faction, ev.territory, ev.normal + ev.special, ev.advisors)
    else:
        spiritual = ev.faction == BENE_GESSERIT and (ev.territory == POLAR_SINK or ev.normal + ev.special == 0)
    own_turn: tuple[list[Loss], dict[str, Any]] = ([], {})
    if ev.source == "reserves" and not spiritual:
        own_turn = take_turn(pos, ev.faction)  # whose turn it is first (sixth edition)
    _need_sides_apart(pos, ev)
    if limited(pos):
        extra.update(_spiritual_advisor(pos, ev))
        if ev.source == "reserves" and pos.phase == SHIPMENT_MOVEMENT:
            extra.update(guild_shipment(pos, ev.faction, "normal"))
    fixed = corrected(pos)
    if fixed and ev.territory == HIDDEN_MOBILE_STRONGHOLD and ev.faction != IXIANS:
        refuse(pos, "hms_ship", "only the Ixians ship forces into the Hidden Mobile Stronghold", ev.faction)
    if ev.territory == pos.aftermath and ev.faction != MORITANI:
        # Only the Moritani's own Sneak Attack may still send forces there (2.12.09.06).
        refuse(
            pos,
            "aftermath",
            f"no forces may ship into {place_name(ev.territory)}: the Atomics Aftermath lies there",
            ev,
        )
    storm_loss = False
    if piece_in_storm(pos, ev.territory, ev.sector):
        # The Fremen may send reserves into the storm at half loss (AH IX.C.1.c.i, LoLV 2.04.17,
        # WBC IX.11), but not with Guild shipment (WBC IX.16); the first edition let them
        # send reserves into the storm anywhere.
        near = TERRITORIES[ev.territory].within_2_of_great_flat or not fixed
        # Storm migration is an Advanced ability under the LoLV (2.04.17, 1.13.00).
        if ev.faction != FREMEN or not near or not advanced(pos):
            refuse(
                pos,
                "ship_storm",
                f"no shipment into {place_name(ev.territory)} sector {ev.sector}: it is in storm",
                ev.sector,
            )
        storm_loss = True
    if (
        fixed
        and ev.faction == FREMEN
        and ev.source == "reserves"
        and not TERRITORIES[ev.territory].within_2_of_great_flat
    ):
        # The Fremen send reserves only within two territories of the Great Flat (LoLV 2.04.05,
        # AH IX.C.1.h, WBC IX.11-13), unless allied with the Guild where the ruleset lets them
        # ship reserves by Guild shipment (WBC IX.12, IX.16; not AH IX.C.1.i, LoLV 2.04.03).
        if GUILD not in pos.allies_of(FREMEN):
            refuse(
                pos,
                "fremen_shipment",
                f"the Fremen send reserves only to the Great Flat or within two territories of it, not {place_name(ev.territory)}",
                ev.territory,
            )
        if not pos.ruleset.fremen_guild_shipment:
            refuse(
                pos,
                "fremen_guild_shipment",
                f"the Guild alliance does not ship the Fremen's reserves: they are sent only to the Great Flat or within two territories of it, not {place_name(ev.territory)}",
                ev.territory,
            )
    inert = ev.faction == BENE_GESSERIT and (ev.normal + ev.special == 0 or ev.territory in pos.coexisting)
    # Where coexistence is assumed (AH XV.B), Bene Gesserit tokens may go into a stronghold two
    # other factions hold to coexist there peacefully (AH IX.C.1.d, XIV.B), unless the BG
    # announced this turn it would not coexist there (ninth edition). Under the WBC the BG
    # declares it first (WBC XV.12): the refusal says so.
    coexist = (
        ev.faction == BENE_GESSERIT
        and not inert
        and distinguished(pos)
        and pos.ruleset.coexistence_assumed
        and TERRITORIES[ev.territory].is_stronghold
        and ev.territory not in pos.declared_apart
        and len(factions_active_in(pos, ev.territory) - {BENE_GESSERIT}) >= 2
    )
    declares = (
        ev.faction == BENE_GESSERIT and not (inert or coexist) and distinguished(pos)
        and not pos.ruleset.coexistence_assumed and "spiritual_advisor" not in pos.ruleset.cite
    )
    try:
        need_room(pos, ev.faction, ev.territory, inert=inert or coexist, limit_rule="ship_occupancy")
    except IllegalAction as full:
        if not declares:
            raise
        rule = pos.ruleset.cite.get("coexist_timing", pos.ruleset.cite["coexist"])
        refuse(
            pos,
            "ship_occupancy",
            f"{full.message}; the Bene Gesserit may go in to coexist there: record their coexistence in "
            f"{place_name(ev.territory)} first ({rule})",
            ev.territory,
        )
    st = pos.states[ev.faction]
    pool = st.reserves if ev.source == "reserves" else st.tanks
    who = faction_name(ev.faction)
    if pool is None:
        if ev.source == "reserves":
            refuse(pos, "forces", f"{who}'s reserves are unknown in this position", ev.source)
        refuse(pos, "forces", f"{who}'s tanks are unknown in this position", ev.source)
    if pool[0] < ev.normal + ev.advisors or pool[1] < ev.special:
        asked = (ev.normal + ev.advisors, ev.special)
        if ev.source == "reserves":
            refuse(pos, "forces", f"{who} has only {pool[0]} normal and {pool[1]} special forces in its reserves", asked)
        refuse(pos, "forces", f"{who} has only {pool[0]} normal and {pool[1]} special forces in its tanks", asked)
    left = (pool[0] - ev.normal - ev.advisors, pool[1] - ev.special)
    states = dict(pos.states)
    states[ev.faction] = evolve(st, reserves=left) if ev.source == "reserves" else evolve(st, tanks=left)
    forces = dict(pos.forces)
    _add(forces, (ev.faction, ev.territory, ev.sector), ev.normal, ev.special, ev.advisors)
    changes: dict[str, Any] = {"forces": forces, "states": states, **extra}
    if coexist:
        changes["coexisting"] = pos.coexisting | {ev.territory}
    losses: list[Loss] = []
    if ev.source == "reserves" and not spiritual:
        # BG advisors sent along with another faction's shipment (LoLV 2.02.05, 2.02.11) are
        # not a turn of the BG's own.
        losses, turn = own_turn
        changes.update(turn)
        changes.update(shipment(pos, ev.faction, "to:" + piece_key(ev.territory, ev.sector)))
    elif spiritual and ordered(pos):
        changes["shipped"] = None  # one token a shipment (AH IX.C.1.e, LoLV 2.02.05, 2.02.11)
    after = evolve(pos, **changes)
    if storm_loss and automatic(pos):
        losses += shipped_into_storm(after, ev.faction, ev.territory, ev.sector, ev.normal, ev.special)
    return remove(after, losses, changes)


def _take(pos: Position, faction: str, territory: str, sector: int | None, n: int, s: int, a: int) -> Stack:
    stack = pos.forces.get((faction, territory, sector))
    if stack is None or stack[0] < n or stack[1] < s or stack[2] < a:
        have = stack or (0, 0, 0)
        refuse(
            pos,
            "forces",
            f"{faction_name(faction)} has {have[0]} normal, {have[1]} special, {have[2]} advisor forces "
            f"in {place_name(territory)} sector {sector}",
            (n, s, a),
        )
    return stack


def apply_forces_moved(pos: Position, ev: ForcesMoved) -> dict[str, Any]:
    """A move, worm ride, cross-shipment or Ambassador move (see `moves.check_move` for the
    kind, phase, group, range and path)."""
    need_full_tracking(pos, "moving forces")
    need_faction(pos, ev.faction)
    need_piece(pos, ev.from_territory, ev.from_sector)
    need_piece(pos, ev.to_territory, ev.to_sector)
    need_counts(pos, ev.normal, ev.special, ev.advisors, ev.faction)
    if pos.phase == SETUP:
        refuse(pos, "setup", "forces do not move during setup", ev)
    if (ev.from_territory, ev.from_sector) == (ev.to_territory, ev.to_sector):
        refuse(pos, "move_storm", "a move needs a different destination", ev)
    _take(pos, ev.faction, ev.from_territory, ev.from_sector, ev.normal, ev.special, ev.advisors)
    storm_rule = {"worm": "worm_storm", "cross_ship": "cross_ship_storm"}.get(ev.via, "move_storm")
    if storm_rule not in pos.ruleset.cite:
        storm_rule = "move_storm"
    if piece_in_storm(pos, ev.from_territory, ev.from_sector):
        refuse(
            pos,
            storm_rule,
            f"no move out of {place_name(ev.from_territory)} sector {ev.from_sector}: it is in storm",
            ev,
        )
    if piece_in_storm(pos, ev.to_territory, ev.to_sector):
        refuse(
            pos,
            storm_rule,
            f"no move into {place_name(ev.to_territory)} sector {ev.to_sector}: it is in storm",
            ev,
        )
    if ev.via in ("move", "cross_ship"):
        losses, turn = take_turn(pos, ev.faction)  # whose turn it is first (sixth edition)
    moves = check_move(pos, ev)
    fighters, advisors = ev.normal, ev.advisors
    if ev.from_territory != ev.to_territory:
        if ev.faction == BENE_GESSERIT and pos.ruleset.movement.bg_types_adapt:
            fighters, advisors = _bg_arrival(pos, ev)
        inert = ev.faction == BENE_GESSERIT and (
            fighters + ev.special == 0 or ev.to_territory in pos.coexisting
        )
        need_room(pos, ev.faction, ev.to_territory, inert=inert)
    forces = dict(pos.forces)
    _add(forces, (ev.faction, ev.from_territory, ev.from_sector), -ev.normal, -ev.special, -ev.advisors)
    _add(forces, (ev.faction, ev.to_territory, ev.to_sector), fighters, ev.special, advisors)
    changes: dict[str, Any] = {"forces": forces, "moves": moves}
    if ev.via == "cross_ship":
        changes.update(guild_shipment(pos, ev.faction, "cross_ship"))
    if ev.via in ("move", "cross_ship"):
        changes.update(turn)
        if ev.via == "cross_ship":
            where = f"cross_ship:{piece_key(ev.from_territory, ev.from_sector)}>{piece_key(ev.to_territory, ev.to_sector)}"
            changes.update(shipment(pos, ev.faction, where))
        return remove(evolve(pos, **changes), losses, changes)
    return changes


def _bg_arrival(pos: Position, ev: ForcesMoved) -> tuple[int, int]:
    """(fighters, advisors) of a BG group arriving in another territory: the type already
    there (LoLV 2.02.20 ADAPTIVE FORCE), fighters in a territory nobody else occupies
    (2.02.14 ENLISTMENT), otherwise as recorded."""
    total = ev.normal + ev.advisors
    here_f = here_a = 0
    others = False
    for (f, t, _s), (n, _sp, a) in pos.forces.items():
        if t != ev.to_territory:
            continue
        if f == BENE_GESSERIT:
            here_f += n
            here_a += a
        else:
            others = True
    if here_f and not here_a:
        return total, 0
    if here_a and not here_f:
        return 0, total
    if not here_f and not here_a and not others:
        return total, 0
    return ev.normal, ev.advisors


def apply_forces_removed(pos: Position, ev: ForcesRemoved) -> dict[str, Any]:
    need_full_tracking(pos, "removing forces")
    need_faction(pos, ev.faction)
    need_piece(pos, ev.territory, ev.sector)
    need_counts(pos, ev.normal, ev.special, ev.advisors, ev.faction)
    _take(pos, ev.faction, ev.territory, ev.sector, ev.normal, ev.special, ev.advisors)
    made: dict[str, Any] = {}
    if ev.cause is not None:
        _sent_home(pos, ev)
    elif ev.to == "reserves" and ev.faction != GUILD:
        # Only the Guild ships from the board back to reserves (LoLV 1.06.03, 2.06.05.02; AH IX.C.1.f).
        refuse(pos, "ship_back", "only the Guild ships forces back to reserves", ev.to)
    elif ev.to == "reserves":
        made = guild_shipment(pos, ev.faction, "off_planet")
    forces = dict(pos.forces)
    _add(forces, (ev.faction, ev.territory, ev.sector), -ev.normal, -ev.special, -ev.advisors)
    st = pos.states[ev.faction]
    states = dict(pos.states)
    pool = st.tanks if ev.to == "tanks" else st.reserves
    if pool is None:
        who = faction_name(ev.faction)
        if ev.to == "tanks":
            refuse(pos, "forces", f"{who}'s tanks are unknown in this position", ev.to)
        refuse(pos, "forces", f"{who}'s reserves are unknown in this position", ev.to)
    added = (pool[0] + ev.normal + ev.advisors, pool[1] + ev.special)
    states[ev.faction] = evolve(st, tanks=added) if ev.to == "tanks" else evolve(st, reserves=added)
    changes = {"forces": forces, "states": states, **made}
    if made and ordered(pos) and pos.phase == SHIPMENT_MOVEMENT:
        # Sixth edition: the Guild's shipment back to reserves is its turn's one shipment
        # (AH IX.C.1.g.iii, LoLV 2.06.05.02).
        losses, turn = take_turn(pos, ev.faction)
        changes.update(turn)
        changes.update(shipment(pos, ev.faction, "off_planet:" + piece_key(ev.territory, ev.sector)))
        return remove(evolve(pos, **changes), losses, changes)
    return changes


#: What sends another faction's forces home: the ability's owner, its phase, its rule, the most
#: forces (LoLV 2.08.05.03 Face Dancer; 2.09.07.06 Trip to Gamont, one force).
_SENT_HOME: dict[str, tuple[str, str, str, int | None]] = {
    "face_dancer": (TLEILAXU, BATTLE, "2.08.05.03", None),
    "trip_to_gamont": (CHOAM, MENTAT_PAUSE, "2.09.07.06", 1),
}
#: Those abilities as the cards and the rules name them.
_SENT_HOME_NAMES: dict[str, str] = {"face_dancer": "Face Dancer", "trip_to_gamont": "Trip to Gamont"}


def _sent_home(pos: Position, ev: ForcesRemoved) -> None:
    """Forces another faction's ability sends back to reserves (not a shipment: 1.06.03 does
    not apply): a Face Dancer revealed in the battle phase (2.08.05.03), Trip to Gamont at the
    Mentat Pause, one force (2.09.07.06); only in games with that faction."""
    assert ev.cause is not None
    owner, phase, rule, most = _SENT_HOME[ev.cause]
    ability = _SENT_HOME_NAMES[ev.cause]
    if ev.to != "reserves":
        refuse(pos, rule, f"{ability} sends forces to reserves, not to the {ev.to}", ev.to, field="to")
    if not pos.ruleset.expansion_pieces:
        # No such faction in the game's rules: only the Guild sends forces home (AH IX.C.1.f).
        refuse(pos, "ship_back", f"there is no {ability} in {pos.ruleset.name}: only the Guild sends forces from the board to reserves", ev.cause, field="cause")
    if owner not in pos.playing:
        refuse(pos, rule, f"{ability} is {faction_name(owner)}'s, and {faction_name(owner)} is not in this game", ev.cause, field="cause")
    if ev.faction == owner:
        refuse(pos, rule, f"{ability} sends another faction's forces home, not {faction_name(owner)}'s", ev.faction, field="faction")
    if pos.phase != phase:
        refuse(pos, rule, f"{ability} is played in the {phase_name(phase)} phase", pos.phase, field="cause")
    if most is not None and ev.normal + ev.special + ev.advisors > most:
        refuse(pos, rule, f"{ability} sends {most} force home", ev.normal + ev.special + ev.advisors, field="normal")


def apply_forces_revived(pos: Position, ev: ForcesRevived) -> dict[str, Any]:
    need_full_tracking(pos, "reviving forces")
    need_faction(pos, ev.faction)
    need_counts(pos, ev.normal, ev.special, 0, ev.faction)
    st = pos.states[ev.faction]
    if st.tanks is None or st.reserves is None:
        refuse(
            pos, "forces", f"{faction_name(ev.faction)}'s reserves and tanks are unknown in this position", ev
        )
    if st.tanks[0] < ev.normal or st.tanks[1] < ev.special:
        refuse(
            pos,
            "forces",
            f"{faction_name(ev.faction)} has only {st.tanks[0]} normal and {st.tanks[1]} special forces in the tanks",
            ev,
        )
    karama = revival(pos, ev) if ev.karama else {}
    karama.update(check_revival(pos, ev))
    states = dict(pos.states)
    states[ev.faction] = evolve(
        st,
        tanks=(st.tanks[0] - ev.normal, st.tanks[1] - ev.special),
        reserves=(st.reserves[0] + ev.normal, st.reserves[1] + ev.special),
    )
    return pay_revival(pos, ev, {"states": states, **karama})


def _spiritual_advisor(pos: Position, ev: ForcesPlaced) -> dict[str, Any]:
    """Fifth edition. Under the LoLV an advisor comes onto the board only as a spiritual
    advisor: one, free, into the territory and sector another faction has just shipped to from
    off-planet - not the Fremen's sending nor a Guild cross-ship (2.02.05, 2.02.11); under AH
    and the WBC the BG tokens have no advisor side (AH XV.A, WBC XV.5). Records the shipment
    an advisor may follow (`Position.shipped`)."""
    if ev.advisors and "spiritual_advisor" not in pos.ruleset.cite:
        refuse(pos, "no_advisors", f"Bene Gesserit tokens have no advisor side under {pos.ruleset.name}: they coexist by territory", ev.advisors, field="advisors")
    if ev.advisors:
        followed = pos.shipped
        here = (pos.turn, ev.territory, ev.sector)
        if followed is None or (followed[0], followed[2], followed[3]) != here or ev.source != "reserves":
            refuse(
                pos,
                "spiritual_advisor",
                f"an advisor follows another faction's shipment from off-planet into the same territory and sector, and none went to {place_name(ev.territory)} sector {ev.sector}",
                ev.advisors,
                field="advisors",
            )
        if ev.advisors != 1 or ev.normal or ev.special:
            refuse(pos, "spiritual_advisor", "one advisor follows a shipment, alone", ev.advisors, field="advisors")
        return {"shipped": None}
    if ev.source == "reserves" and ev.faction not in (BENE_GESSERIT, FREMEN) and pos.phase == SHIPMENT_MOVEMENT:
        return {"shipped": (pos.turn, ev.faction, ev.territory, ev.sector)}
    return {}


def _bg_sides(pos: Position, territory: str) -> tuple[int, int]:
    """The BG fighters and advisors in a territory."""
    fighters = advisors = 0
    for (f, t, _s), (n, s, a) in pos.forces.items():
        if f == BENE_GESSERIT and t == territory:
            fighters, advisors = fighters + n + s, advisors + a
    return fighters, advisors


def _need_sides_apart(pos: Position, ev: ForcesPlaced) -> None:
    """LoLV 2.02.11: advisors are sent only where the BG has no fighters; 2.02.13: fighters
    are never shipped where BG advisors are (third edition)."""
    if ev.faction != BENE_GESSERIT or not (pos.ruleset.bg_sides_apart and refined(pos)):
        return
    if ev.territory == POLAR_SINK:
        return
    fighters, advisors = _bg_sides(pos, ev.territory)
    if ev.advisors and fighters:
        refuse(
            pos,
            "bg_advisors",
            f"the Bene Gesserit has fighters in {place_name(ev.territory)}: no advisors may join them",
            ev.advisors,
            field="advisors",
        )
    if (ev.normal or ev.special) and advisors:
        refuse(
            pos,
            "bg_mixed",
            f"the Bene Gesserit has advisors in {place_name(ev.territory)}: no fighters may ship there",
            ev.normal,
            field="normal",
        )


def apply_forces_flipped(pos: Position, ev: FlipForces) -> dict[str, Any]:
    """BG advisors and fighters are two sides of one token (LoLV 2.02.10)."""
    need_full_tracking(pos, "flipping forces")
    need_faction(pos, BENE_GESSERIT)
    if not advanced(pos):
        refuse(
            pos,
            "2.02.00",
            "the Basic game has no flips: they are Advanced abilities (2.02.14-21, 1.13.00)",
            ev,
        )
    need_piece(pos, ev.territory, ev.sector)
    if ev.count < 1:
        refuse(pos, "coexist", "flip at least one force", ev.count)
    if ordered(pos) and "spiritual_advisor" not in pos.ruleset.cite:
        # Sixth edition: AH and WBC tokens have no advisor side; they coexist by declaration
        # (AH XV.A-B, WBC XV.5-7: `coexistence_declared`).
        refuse(
            pos,
            "no_advisors",
            f"Bene Gesserit tokens have no advisor side under {pos.ruleset.name}: record coexistence_declared instead",
            ev.side,
            field="side",
        )
    key: ForceKey = (BENE_GESSERIT, ev.territory, ev.sector)
    n, s, a = pos.forces.get(key, (0, 0, 0))
    if ev.side == "advisors":
        if n < ev.count:
            refuse(pos, "coexist", f"only {n} fighters there to flip", ev.count)
        new = (n - ev.count, s, a + ev.count)
    else:
        if a < ev.count:
            refuse(pos, "coexist", f"only {a} advisors there to flip", ev.count)
        stormed_in = pos.ruleset.advisors_stormed_in and corrected(pos)
        if stormed_in and piece_in_storm(pos, ev.territory, ev.sector):
            refuse(pos, "stormed_in", "advisors under the storm cannot flip to fighters", ev.sector)
        new = (n + ev.count, s, a - ev.count)
        _need_peacetime(pos, ev.territory)
        need_room(pos, BENE_GESSERIT, ev.territory, inert=False, entering=False)
    forces = dict(pos.forces)
    forces[key] = new
    after = evolve(pos, forces=forces)
    if (
        pos.ruleset.bg_sides_apart
        and refined(pos)
        and ev.territory != POLAR_SINK
        and all(_bg_sides(after, ev.territory))
    ):
        refuse(
            pos,
            "bg_mixed",
            f"every Bene Gesserit force in {place_name(ev.territory)} flips together: fighters and advisors never share a territory",
            ev.count,
            field="count",
        )
    return {"forces": forces}


def _need_peacetime(pos: Position, territory: str) -> None:
    """Advisors never flip to fighters beside an ally (LoLV 2.02.18 PEACETIME; AH XII.E.5.a and
    WBC XV.10 keep the BG coexisting there). Before the third edition an Ecaz ally was no
    obstacle (the Ecaz co-occupation, 2.11.11, was read as covering it)."""
    allies = set(pos.allies_of(BENE_GESSERIT)) & factions_in(pos, territory)
    if not allies or territory == POLAR_SINK:
        return
    if not refined(pos) and pos.ruleset.ecaz_co_occupy and ECAZ in pos.allies_of(BENE_GESSERIT):
        return
    refuse(
        pos,
        "peacetime",
        f"advisors cannot flip to fighters in {place_name(territory)}: the Bene Gesserit's ally {faction_name(sorted(allies)[0])} is there",
        territory,
    )


def apply_coexistence(pos: Position, ev: CoexistenceDeclared) -> dict[str, Any]:
    """Coexistence is declared per territory (AH XV.B, WBC XV.5, WBC XV.7); it may be declared as
    the BG tokens land, so before they are recorded there (WBC XV.12). Under the WBC a territory
    announced not coexisting turns coexisting again only as XV.8 allows."""
    need_faction(pos, BENE_GESSERIT)
    need_piece(pos, ev.territory, _any_sector(ev.territory))
    declared = pos.declared
    changes: dict[str, Any] = {}
    timed = pos.ruleset.coexistence_declared_in_movement_only and corrected(pos)
    if timed and pos.phase != SETUP:
        if pos.phase != SHIPMENT_MOVEMENT:
            refuse(pos, "coexist_timing", "coexistence is declared only in the movement round", pos.phase)
        if not ev.coexisting and ev.territory in pos.declared:
            refuse(
                pos,
                "coexist_withdraw",
                f"{place_name(ev.territory)} was declared coexisting this turn and stays so until the turn ends",
                ev.territory,
            )
        if ev.coexisting:
            if ev.territory not in pos.coexisting and not may_coexist_again(pos, ev.territory):
                refuse(
                    pos,
                    "coexist_again",
                    f"{place_name(ev.territory)} was announced not coexisting this turn; it may coexist "
                    "again only after every other faction has left it and a different faction enters",
                    ev.territory,
                )
            declared = declared | {ev.territory}
            changes["declared_apart"] = {t: v for t, v in pos.declared_apart.items() if t != ev.territory}
        else:
            changes["declared_apart"] = announced_apart(pos, ev.territory)
    elif pos.ruleset.coexistence_assumed and refined(pos):
        # AH XV.B: stating otherwise is remembered, or the assumption would return at once.
        if ev.coexisting:
            changes["declared_apart"] = {t: v for t, v in pos.declared_apart.items() if t != ev.territory}
            declared = declared | {ev.territory}  # stated, not assumed
        else:
            changes["declared_apart"] = announced_apart(pos, ev.territory)
    if not ev.coexisting and ev.territory in pos.coexisting:
        # Ending coexistence makes the BG tokens count: never a third faction in a
        # stronghold (AH IX.C.1.d, LoLV 1.06.02.05).
        need_room(pos, BENE_GESSERIT, ev.territory, inert=False, entering=False)
    co = pos.coexisting | {ev.territory} if ev.coexisting else pos.coexisting - {ev.territory}
    return {**changes, "coexisting": co, "declared": declared}


def _any_sector(territory: str) -> int | None:
    t = TERRITORIES.get(territory)
    return t.sectors[0] if t is not None and t.sectors else None
