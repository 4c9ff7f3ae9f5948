"""A battle resolved from the two battle plans: the plans checked (and repaired where the rules say
how), the outcome settled, and the `Resolution` answered without changing anything."""

from __future__ import annotations

from typing import Any

from dune.engine.battle.captives import captives_home, prison_break, take_leader
from dune.engine.battle.cards import KH_AWAKENS, KWISATZ_HADERACH, weapon_of
from dune.engine.battle.discards import check_choices
from dune.engine.battle.order import check_battle
from dune.engine.battle.outcomes import explosion, fight, stone_burner, traitor_call, two_traitors
from dune.engine.battle.plan_checks import check_cards, check_dial, check_kh, check_leader, check_traitor
from dune.engine.battle.powers import check_prescience, check_voice
from dune.engine.battle.refusals import refuse
from dune.engine.battle.repairs import repaired
from dune.engine.battle.resolution import Resolution, Ruling
from dune.engine.battle.side import Side, plan_side
from dune.engine.battle.tally import Tally
from dune.engine.editions import distinguished
from dune.engine.events import Battle
from dune.engine.factions import (
    ATREIDES,
)
from dune.engine.names import faction_name
from dune.engine.position import Position


def _check_plans(pos: Position, event: Battle, notes: list[Ruling] | None = None) -> tuple[Side, Side]:
    check_battle(pos, event)
    territory = event.territory
    notes = [] if notes is None else notes
    a_plan = repaired(pos, event.aggressor, event.defender.faction, territory, notes)
    d_plan = repaired(pos, event.defender, event.aggressor.faction, territory, notes)
    agg = plan_side(pos, a_plan, "aggressor", event.defender.faction, territory)
    dfd = plan_side(pos, d_plan, "defender", event.aggressor.faction, territory)
    for side in (agg, dfd):
        check_leader(pos, side, territory)
        check_cards(pos, side)
        check_dial(pos, side)
        check_kh(pos, side, territory)
    if agg.leader_key() is not None and agg.leader_key() == dfd.leader_key():
        refuse(pos, "battle_leader", "one leader disc cannot be on both wheels", event.defender.leader, "defender.leader")
    check_traitor(pos, agg, dfd)
    check_traitor(pos, dfd, agg)
    return agg, dfd


def resolve_battle(position: Position, event: Battle) -> Resolution:
    """The battle's outcome by the table's ruleset, or the RuleViolation refusing it."""
    pos = position
    repairs: list[Ruling] = []
    agg, dfd = _check_plans(pos, event, repairs)
    check_voice(pos, event, agg, dfd)
    check_prescience(pos, event, agg, dfd)
    restores = pos.ruleset.battle.traitor_restores or not distinguished(pos)
    t = Tally(pos, event.territory, agg, dfd, kh_dead=pos.kh_dead, restores=restores, rulings=repairs)
    t.totals = {agg.faction: None, dfd.faction: None}
    cards = [c for s, o in ((agg, dfd), (dfd, agg)) for c in (weapon_of(s, o), s.plan.defense)]
    explosive = "lasgun" in cards and "shield" in cards
    calls = [s for s in (agg, dfd) if s.plan.traitor]
    if len(calls) == 2:
        two_traitors(t)
    elif calls:
        traitor_call(t, calls[0], dfd if calls[0] is agg else agg, explosive)
    elif explosive:
        explosion(t)
    elif "stone_burner" in cards:
        stone_burner(t)
    else:
        fight(t)
    check_choices(t)
    captives_home(t)
    if event.capture is not None:
        take_leader(t, event.capture)
    t.fates += prison_break(pos, t.fates, t.rulings)
    return _finish(t)


def _finish(t: Tally) -> Resolution:
    pos = t.pos
    for side in (t.agg, t.dfd):
        if t.discarded.get(side.faction):
            rule_key = "battle_loser" if side.faction == t.loser else "battle_winner"
            t.note(rule_key, f"{faction_name(side.faction)} discards {', '.join(t.discarded[side.faction])}")
    kh_losses = pos.kh_losses + sum(n + sp for f, _t, _s, n, sp, _a, _r in t.losses if f == ATREIDES)
    if pos.kh_losses < KH_AWAKENS <= kh_losses and ATREIDES in pos.playing:
        t.note("kh_active", f"the Atreides have lost {kh_losses} forces in battles: the Kwisatz Haderach awakens")
    fought = {row for row in pos.fought if row[0] == pos.turn}
    for side in (t.agg, t.dfd):
        key = side.leader_key()
        if key is not None and key not in t.back_in_pool:
            fought.add((pos.turn, key[0], key[1], t.territory))
        if side.plan.kwisatz_haderach and not (t.outcome == "traitor" and side.plan.traitor and t.restores):
            fought.add((pos.turn, ATREIDES, f"{KWISATZ_HADERACH}/{side.plan.leader or 'cheap_hero'}", t.territory))
    return Resolution(
        territory=t.territory,
        aggressor=t.agg.faction,
        defender=t.dfd.faction,
        outcome=t.outcome,
        winner=t.winner,
        loser=t.loser,
        totals=t.totals,
        losses=tuple(t.losses),
        leaders=tuple(t.fates),
        discarded=t.discarded,
        spice={f: v for f, v in t.spice.items() if v},
        board_spice_lost=t.board_lost,
        kh_losses=kh_losses,
        kh_dead=t.kh_dead,
        fought=frozenset(fought),
        rulings=tuple(t.rulings),
    )


def resolution_json(position: Position, event: Battle) -> dict[str, Any]:
    """`resolve_battle(...).to_dict()`: what the battle would come to, before it is recorded.
    Raises the RuleViolation that `apply` would."""
    return resolve_battle(position, event).to_dict()
