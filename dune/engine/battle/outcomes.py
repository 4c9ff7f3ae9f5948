"""Who wins a battle and what each side loses, in the order the rules settle it: two traitors, a
traitor call, a lasgun/shield explosion, the Stone Burner, then the totals (LoLV 1.07.06, AH X.C-D)."""

from __future__ import annotations

from fractions import Fraction

from dune.engine.battle.cards import card_name, cards_played, kills, weapon_of
from dune.engine.battle.discards import winner_discards
from dune.engine.battle.forces_lost import all_lost, dialed_forces, winner_losses
from dune.engine.battle.refusals import rule_for
from dune.engine.battle.side import Side
from dune.engine.battle.tally import Tally
from dune.engine.editions import distinguished
from dune.engine.factions import FACTION_SHEETS
from dune.engine.names import faction_name, place_name
from dune.engine.numbers import decimal_str
from dune.engine.position import Position


def _leader_value(pos: Position, side: Side, other: Side) -> int:
    """The leader disc's value (Zoal takes his opponent's disc, 2.08.14)."""
    if side.plan.leader is None:
        return 0
    if side.strength is not None:
        return side.strength
    if other.plan.leader is None or other.strength is None:
        return 0
    return other.strength


def two_traitors(t: Tally) -> None:
    """1.07.06.06.02, AH X.D.3, WBC X.24."""
    t.outcome = "two_traitors"
    rule = t.note("two_traitors", "both leaders are traitors: both sides lose their forces, cards and leaders; nobody wins or earns spice")
    for side in (t.agg, t.dfd):
        t.losses += all_lost(side, t.territory, rule)
        t.discarded[side.faction] = tuple(cards_played(side.plan))
        t.kill(side, rule)
        t.pay(side)


def traitor_call(t: Tally, caller: Side, called: Side, explosive: bool) -> None:
    """1.07.06.06.00-01, AH X.D.1-2; before any explosion (WBC X.25, AH XXI.A.1.a)."""
    t.outcome = "traitor"
    t.winner, t.loser = caller.faction, called.faction
    rule = t.note(
        "traitor",
        f"{faction_name(caller.faction)} calls {called.plan.leader} a traitor: it wins and loses nothing, and earns the traitor's value",
    )
    if explosive:
        t.note("traitor_explosion", "the traitor call comes first: the lasgun and shield do not explode")
    t.losses += all_lost(called, t.territory, rule)
    t.discarded[called.faction] = tuple(cards_played(called.plan))
    t.discarded[caller.faction] = winner_discards(t, caller, traitor=True)
    t.kill(called, rule)
    t.earn(caller.faction, _leader_value(t.pos, called, caller))
    t.pay(called)
    if caller.plan.spice:
        t.note("traitor_spice", "the winner keeps the spice it dialed", "traitor")
    key = caller.leader_key()
    if key is not None and t.restores:
        t.back_in_pool.add(key)
        if distinguished(t.pos):
            t.note("traitor_restores", f"{key[1]} goes back to the leader pool of {faction_name(caller.faction)} for this phase", "traitor")


def explosion(t: Tally) -> None:
    """3.01.14, AH questions A.3, WBC X.23; the Kwisatz Haderach dies too (2.01.13)."""
    t.outcome = "explosion"
    rule = t.note(
        "explosion",
        f"a lasgun meets a shield: every force and all spice in {place_name(t.territory)} are lost, both leaders die, nobody wins",
    )
    for (f, terr, s), st in sorted(t.pos.forces.items(), key=lambda kv: (kv[0][0], -1 if kv[0][2] is None else kv[0][2])):
        if terr == t.territory and any(st):
            t.losses.append((f, terr, s, st[0], st[1], st[2], rule))
    t.board_lost = t.pos.spice_on_board.get(t.territory, 0)
    for side in (t.agg, t.dfd):
        t.discarded[side.faction] = tuple(cards_played(side.plan))
        t.kill(side, rule)
        t.pay(side)
        if side.plan.kwisatz_haderach:
            t.kh_dead = True
            t.note("kh_killed", "the Kwisatz Haderach dies in the explosion", "kh")


def _kills(weapon: str | None, side: Side, *, mirrored: bool) -> str:
    """The ruling of a weapon killing `side`'s leader or Cheap Hero (a Mirror Weapon's copy
    `mirrored`)."""
    who, leader = faction_name(side.faction), side.plan.leader
    if leader and side.leader_owner in FACTION_SHEETS and side.leader_index is not None:
        leader = FACTION_SHEETS[side.leader_owner].leaders[side.leader_index].name
    weapon = card_name(weapon) if weapon else weapon
    if mirrored:
        if leader:
            return f"{weapon} (the Mirror Weapon copies it) kills {leader} of {who}"
        return f"{weapon} (the Mirror Weapon copies it) kills the Cheap Hero of {who}"
    if leader:
        return f"{weapon} kills {leader} of {who}"
    return f"{weapon} kills the Cheap Hero of {who}"


def fight(t: Tally) -> None:
    """1.07.06-1.07.06.05, AH X.C: weapons, totals, the aggressor winning a tie, the losses."""
    pos, agg, dfd = t.pos, t.agg, t.dfd
    for side, other in ((agg, dfd), (dfd, agg)):
        total = Fraction(side.plan.dial).limit_denominator(2)
        has_leader = side.plan.leader is not None or side.plan.cheap_hero
        weapon = weapon_of(other, side)
        if has_leader and kills(pos, weapon, side.plan.defense):
            t.note("battle_weapons", _kills(weapon, side, mirrored=other.plan.weapon == "mirror_weapon"))
            t.kill(side, rule_for(pos, "battle_killed"))
        else:
            total += _leader_value(pos, side, other)
            if side.plan.kwisatz_haderach:
                total += 2
                t.note("kh", "the Kwisatz Haderach adds 2")
        t.totals[side.faction] = total
    ta, td = t.totals[agg.faction], t.totals[dfd.faction]
    assert ta is not None and td is not None
    win, lose = (agg, dfd) if ta >= td else (dfd, agg)
    t.winner, t.loser = win.faction, lose.faction
    t.note(
        "battle_tie" if ta == td else "battle",
        f"{faction_name(win.faction)} wins {decimal_str(max(ta, td))} to {decimal_str(min(ta, td))} (the aggressor wins a tie)"
        if ta == td
        else f"{faction_name(win.faction)} wins {decimal_str(max(ta, td))} to {decimal_str(min(ta, td))}",
    )
    _settle(t, win, lose)


def stone_burner(t: Tally) -> None:
    """LoLV 3.02.10: the side with more forces left undialed wins (the aggressor a tie,
    1.07.06.00); dialed forces are lost normally; its player may kill both leaders whatever
    their defense, else the weapons kill as usual (1.07.06.01)."""
    pos, agg, dfd = t.pos, t.agg, t.dfd
    burn = any(s.plan.stone_burner_kill for s in (agg, dfd))
    for side, other in ((agg, dfd), (dfd, agg)):
        has_leader = side.plan.leader is not None or side.plan.cheap_hero
        weapon = weapon_of(other, side)
        if has_leader and burn:
            t.note(
                "stone_burner",
                f"the Stone Burner kills {side.plan.leader} of {faction_name(side.faction)}"
                if side.plan.leader
                else f"the Stone Burner kills the Cheap Hero of {faction_name(side.faction)}",
                "battle_weapons",
            )
            t.kill(side, rule_for(pos, "stone_burner", "battle_killed"))
        elif has_leader and kills(pos, weapon, side.plan.defense):
            t.note("battle_weapons", _kills(weapon, side, mirrored=False))
            t.kill(side, rule_for(pos, "battle_killed"))
        normal, special = side.forces
        n, sp = dialed_forces(pos, side)
        t.totals[side.faction] = Fraction(normal + special - n - sp)
    ta, td = t.totals[agg.faction], t.totals[dfd.faction]
    assert ta is not None and td is not None
    win, lose = (agg, dfd) if ta >= td else (dfd, agg)
    t.winner, t.loser = win.faction, lose.faction
    more, fewer = decimal_str(max(ta, td)), decimal_str(min(ta, td))
    t.note(
        "stone_burner",
        f"Stone Burner: {faction_name(win.faction)} wins with {more} forces left undialed to {fewer}"
        " (the aggressor wins a tie)"
        if ta == td
        else f"Stone Burner: {faction_name(win.faction)} wins with {more} forces left undialed to {fewer}",
        "battle",
    )
    _settle(t, win, lose)


def _settle(t: Tally, win: Side, lose: Side) -> None:
    """The spice for the leaders killed, the losses, the discards and the spice paid
    (1.07.06.02-05, AH X.C.4-6)."""
    pos, agg, dfd = t.pos, t.agg, t.dfd
    value = sum(_leader_value(pos, s, o) for s, o in ((agg, dfd), (dfd, agg)) if s.leader_key() in t.killed)
    if value:
        t.earn(win.faction, value)
        t.note("battle_killed", f"{faction_name(win.faction)} earns {value} spice for the leaders killed")
    t.losses += all_lost(lose, t.territory, rule_for(pos, "battle_loser"))
    t.losses += winner_losses(pos, win, t.territory, rule_for(pos, "battle_winner"))
    t.discarded[lose.faction] = tuple(cards_played(lose.plan))
    t.discarded[win.faction] = winner_discards(t, win)
    t.pay(agg)
    t.pay(dfd)
