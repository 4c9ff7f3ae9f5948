"""The Harkonnen's captives: a winner's capture or kill of a loser's leader, a captive going home
after it fought, and every captive going home when the Harkonnen's own leaders are all dead
(LoLV 2.05.10-2.05.12, AH X.B.2.a.ii, WBC X.16, X.18)."""

from __future__ import annotations

from collections.abc import Mapping

from dune.engine.battle.cards import CAPTURE_KILL_SPICE
from dune.engine.battle.leaders import fought_elsewhere, leader_status
from dune.engine.battle.refusals import refuse, rule_for
from dune.engine.battle.resolution import LeaderFate, Ruling
from dune.engine.battle.tally import Tally
from dune.engine.editions import advanced
from dune.engine.errors import UnknownIdentifier
from dune.engine.events import Capture
from dune.engine.factions import (
    HARKONNEN,
)
from dune.engine.names import faction_name
from dune.engine.position import Position


def _check_capture(
    pos: Position,
    capture: Capture,
    winner: str | None,
    loser: str | None,
    killed: set[tuple[str, str]],
    territory: str,
    outcome: str = "won",
) -> None:
    f = "capture.leader"
    if winner != HARKONNEN:
        # Nobody wins an explosion (WBC X.23) nor two traitors (WBC X.24).
        rule = {"explosion": "explosion", "two_traitors": "two_traitors"}.get(outcome, "capture")
        refuse(pos, rule, "only the Harkonnen take a leader, and only after a battle they won", capture.leader, "capture", "capture")
    if not advanced(pos):
        refuse(pos, "2.05.00", "capturing leaders is an Advanced ability: the Basic game plays the Harkonnen sheet to 2.05.09", capture.leader, "capture")
    if capture.faction != loser:
        refuse(pos, "capture", f"the Harkonnen take a leader of the loser, {faction_name(loser or '')}", capture.faction, "capture.faction")
    sheet = pos.sheet(capture.faction)
    index = sheet.leader_index(capture.leader)
    if index is None:
        raise UnknownIdentifier(
            rule=rule_for(pos, "leaders"), msg=f"{faction_name(capture.faction)} has no leader {capture.leader}", phase=pos.phase, input=capture.leader, field=f
        )
    ld = sheet.leaders[index]
    if (capture.faction, ld.id) in killed:
        refuse(pos, "capture", f"{ld.name} was killed in this battle", capture.leader, f)
    status = leader_status(pos, capture.faction, index)
    if status is not None and status[0] != "active":
        if status[0].startswith("tanks"):
            refuse(pos, "capture", f"{ld.name} is in the Tleilaxu Tanks: only an active leader is taken", capture.leader, f)
        refuse(pos, "capture", f"{ld.name} is not an active leader: only an active leader is taken", capture.leader, f)
    if (capture.faction, ld.id) in fought_elsewhere(pos, territory):
        refuse(pos, "capture", f"{ld.name} fought elsewhere this turn and cannot be taken", capture.leader, f)


def captives_home(t: Tally) -> None:
    """A captive fights once and goes home, or to its owner's tanks if killed (2.05.10.02,
    2.05.12, AH X.B.2.a.ii)."""
    for side in (t.agg, t.dfd):
        key = side.leader_key()
        if key is None or key[0] == side.faction or side.leader_index is None:
            continue
        status = leader_status(t.pos, key[0], side.leader_index)
        if status is None or status[0] != "captured":
            continue
        if key in t.killed:
            t.note("captive_killed", f"the captive {key[1]} goes to the tanks; {faction_name(key[0])} may revive it", "captured")
        elif side.plan.keep_captive:
            t.note("traitor_restores", f"the captive {key[1]} is considered not used and stays with {faction_name(side.faction)}", "captured")
        else:
            rule = t.note("captive_once", f"the captive {key[1]} has fought once and goes home", "captured")
            t.fates.append(LeaderFate(key[0], key[1], "active", None, rule))


def take_leader(t: Tally, cap: Capture) -> None:
    """The Harkonnen's pick (2.05.10.01-02, AH X.B.2.a.ii, WBC X.16, X.18)."""
    _check_capture(t.pos, cap, t.winner, t.loser, t.killed, t.territory, t.outcome)
    leader = t.pos.sheet(cap.faction).leaders[t.pos.sheet(cap.faction).leader_index(cap.leader) or 0].id
    if cap.kill:
        rule = t.note("capture_kill", f"the Harkonnen kill {leader} for {CAPTURE_KILL_SPICE} spice", "capture")
        t.fates.append(LeaderFate(cap.faction, leader, "tanks_face_down", None, rule))
        t.earn(HARKONNEN, CAPTURE_KILL_SPICE)
    else:
        rule = t.note("capture", f"the Harkonnen capture {leader}")
        t.fates.append(LeaderFate(cap.faction, leader, "captured", HARKONNEN, rule))


def leaders_after(pos: Position, fates: list[LeaderFate] | tuple[LeaderFate, ...]) -> dict[str, list[tuple[str, str | None]]]:
    """Each tracked faction's leader states once `fates` are applied."""
    out = {f: list(st.leaders) for f, st in pos.states.items() if st.leaders}
    for fate in fates:
        states = out.get(fate.owner)
        index = pos.sheet(fate.owner).leader_index(fate.leader)
        if states is not None and index is not None:
            states[index] = (fate.status, fate.captor)
    return out


def prison_break_fates(pos: Position, leaders: Mapping[str, list[tuple[str, str | None]]]) -> list[LeaderFate]:
    """Captives going home because every Harkonnen leader of its own is dead (2.05.11, AH
    X.B.2.a.ii), given each faction's leader states."""
    own = leaders.get(HARKONNEN)
    if not own or any(not status.startswith("tanks") for status, _c in own):
        return []
    out = []
    for f, states in leaders.items():
        for ld, (status, captor) in zip(pos.sheet(f).leaders, states, strict=False):
            if status == "captured" and captor == HARKONNEN:
                out.append(LeaderFate(f, ld.id, "active", None, rule_for(pos, "prison_break", "captured")))
    return out


def prison_break(pos: Position, fates: list[LeaderFate], rulings: list[Ruling]) -> list[LeaderFate]:
    freed = prison_break_fates(pos, leaders_after(pos, fates))
    if freed:
        rulings.append(
            Ruling(
                freed[0].rule,
                "every Harkonnen leader of its own is dead: the captives go home ("
                + ", ".join(f.leader for f in freed)
                + ")",
            )
        )
    return freed
