"""Whether a battle plan may be played: its leader (or Cheap Hero), its cards, its dial, the Kwisatz
Haderach and a traitor call (LoLV 1.07.04-1.07.06, AH X.B-D, WBC X)."""

from __future__ import annotations

from fractions import Fraction

from dune.engine.battle.cards import (
    CARDS,
    EXPANSION_CARDS,
    KH_AWAKENS,
    KWISATZ_HADERACH,
    card_name,
    cards_played,
)
from dune.engine.battle.forces import may_grant_strength, strength_of
from dune.engine.battle.leaders import available_leaders, fought_elsewhere, leader_status
from dune.engine.battle.refusals import refuse
from dune.engine.battle.side import Side
from dune.engine.editions import advanced
from dune.engine.factions import (
    ATREIDES,
)
from dune.engine.names import faction_name, leader_status_words, place_name
from dune.engine.numbers import decimal_str
from dune.engine.position import Position


def _not_active(name: str, state: str, captor: str, faction: str) -> str:
    """Why `faction`'s own leader `name`, in `state` (held by `captor`), cannot lead its battle."""
    if state == "captured":
        return f"{name} is held captive by {faction_name(captor)}, not an active leader of {faction_name(faction)}"
    if state == "held":
        return f"{name} is a ghola of {faction_name(captor)}, not an active leader of {faction_name(faction)}"
    if state.startswith("tanks"):
        return f"{name} is in the Tleilaxu Tanks, not an active leader of {faction_name(faction)}"
    return f"{name} is {leader_status_words(state)}, not an active leader of {faction_name(faction)}"


def check_leader(pos: Position, side: Side, territory: str) -> None:
    plan, prefix = side.plan, side.prefix
    if plan.leader is not None and plan.cheap_hero:
        refuse(
            pos, "battle_leader", "a battle plan holds one leader disc or a Cheap Hero, not both", plan.leader, f"{prefix}.cheap_hero"
        )
    if side.leader_owner is not None and side.leader_index is not None:
        ld = pos.sheet(side.leader_owner).leaders[side.leader_index]
        status = leader_status(pos, side.leader_owner, side.leader_index)
        if status is not None:
            state, captor = status
            if side.leader_owner == side.faction:
                if state != "active":
                    refuse(pos, "battle_leader", _not_active(ld.name, state, captor or "", side.faction), plan.leader, f"{prefix}.leader")
            elif state not in ("captured", "held") or captor != side.faction:
                refuse(
                    pos,
                    "captured",
                    f"{faction_name(side.faction)} holds no captive or ghola {ld.name} of {faction_name(side.leader_owner)}",
                    plan.leader,
                    f"{prefix}.leader",
                )
        key = (side.leader_owner, ld.id)
        if key in fought_elsewhere(pos, territory):
            refuse(
                pos,
                "battle_dedicated",
                f"{ld.name} already fought in another territory this turn",
                plan.leader,
                f"{prefix}.leader",
            )
    if plan.leader is None and not plan.cheap_hero:
        available = available_leaders(pos, side.faction, territory)
        if available:
            refuse(
                pos,
                "battle_leader",
                f"{faction_name(side.faction)} has a leader to play ({', '.join(available)}) and must play one",
                None,
                f"{prefix}.leader",
            )
        if plan.weapon or plan.defense:
            refuse(
                pos,
                "battle_no_leader",
                "without a leader or a Cheap Hero no treachery card may be played",
                plan.weapon or plan.defense,
                f"{prefix}.weapon" if plan.weapon else f"{prefix}.defense",
            )


def check_cards(pos: Position, side: Side) -> None:
    plan, prefix = side.plan, side.prefix
    if plan.weapon is not None and CARDS[plan.weapon][0] == "defense":
        weapon = card_name(plan.weapon)
        refuse(pos, "battle_cards", f"{weapon} is a defense, not a weapon", plan.weapon, f"{prefix}.weapon")
    if plan.defense is not None and CARDS[plan.defense][0] == "weapon":
        defense = card_name(plan.defense)
        refuse(pos, "battle_cards", f"{defense} is a weapon, not a defense", plan.defense, f"{prefix}.defense")
    for slot in ("weapon", "defense"):
        card = getattr(plan, slot)
        if card in EXPANSION_CARDS and EXPANSION_CARDS[card] not in pos.ruleset.cite:
            refuse(pos, "no_expansion", f"there is no {card.replace('_', ' ')} card in this game's deck", card, f"{prefix}.{slot}")
    played = cards_played(plan)
    held = pos.states[side.faction].cards
    if held is not None and len(played) > held:
        refuse(
            pos,
            "battle_cards",
            f"{faction_name(side.faction)} holds {held} treachery cards and cannot play {len(played)}",
            len(played),
            f"{prefix}.weapon",
        )
    for discarded in plan.discard:
        card = card_name(discarded)
        if discarded not in played:
            refuse(pos, "battle_winner", f"{card} was not played in this plan", discarded, f"{prefix}.discard")
    for kept in plan.keep:
        card = card_name(kept)
        if kept not in played:
            refuse(pos, "battle_winner", f"{card} was not played in this plan", kept, f"{prefix}.keep")
        if kept in plan.discard:
            refuse(pos, "battle_winner", f"{card} is either kept or discarded, not both", kept, f"{prefix}.keep")
    if plan.stone_burner_kill and plan.weapon != "stone_burner":
        refuse(pos, "stone_burner", "only the Stone Burner's player may kill both leaders with it", True, f"{prefix}.stone_burner_kill", "battle_cards")


def check_dial(pos: Position, side: Side) -> None:
    plan, prefix = side.plan, side.prefix
    dial = Fraction(plan.dial).limit_denominator(2)
    normal, special = side.forces
    dialing = pos.ruleset.spice_dialing and advanced(pos)
    if plan.spice and not dialing:
        refuse(pos, "battle_dial", "this game has no spice dialing: no spice is paid in a battle plan", plan.spice, f"{prefix}.spice")
    if dial.denominator != 1 and not dialing:
        refuse(pos, "battle_dial", "a battle wheel dials whole numbers here (halves only with spice dialing)", plan.dial, f"{prefix}.dial")
    if plan.spice > normal + special:
        refuse(
            pos, "spice_dialing", f"{plan.spice} spice supports more forces than the {normal + special} in the battle", plan.spice, f"{prefix}.spice"
        )
    spice = pos.states[side.faction].spice
    if spice is not None and plan.spice > spice:
        refuse(pos, "spice_dialing", f"{faction_name(side.faction)} has {spice} spice, not {plan.spice}", plan.spice, f"{prefix}.spice")
    if plan.full_strength and not may_grant_strength(pos, side.faction):
        refuse(
            pos,
            "fremen_ally_full_strength",
            f"only the Fremen's ally may be granted full strength without spice, and {faction_name(side.faction)} is not one here",
            True,
            f"{prefix}.full_strength",
            "fremen_full_strength",
        )
    most = strength_of(pos, side.faction, side.opponent, normal, special, plan.spice, plan.full_strength)
    if dial > most:
        refuse(
            pos,
            "battle_dial",
            f"{faction_name(side.faction)} can dial at most {decimal_str(most)} with the forces in the battle",
            plan.dial,
            f"{prefix}.dial",
        )


def check_kh(pos: Position, side: Side, territory: str) -> None:
    plan, prefix = side.plan, side.prefix
    if not plan.kwisatz_haderach:
        return
    f = f"{prefix}.kwisatz_haderach"
    if side.faction != ATREIDES:
        refuse(pos, "kh", "only the Atreides have the Kwisatz Haderach", True, f)
    if not advanced(pos):
        refuse(pos, "2.01.00", "the Kwisatz Haderach is an Advanced ability: the Basic game plays the Atreides sheet to 2.01.09", True, f)
    if plan.leader is None and not plan.cheap_hero:
        refuse(pos, "kh", "the Kwisatz Haderach goes with a leader or a Cheap Hero, never alone", True, f)
    if side.leader_owner not in (None, ATREIDES):
        refuse(pos, "kh", "the Kwisatz Haderach goes only with an Atreides leader", True, f)
    if pos.kh_dead:
        refuse(pos, "kh_killed", "the Kwisatz Haderach is in the tanks", True, f, "kh")
    if pos.kh_losses < KH_AWAKENS:
        refuse(
            pos,
            "kh_active",
            f"the Atreides have lost {pos.kh_losses} forces in battles; the Kwisatz Haderach awakens at {KH_AWAKENS}",
            pos.kh_losses,
            f,
        )
    per_leader = pos.ruleset.key == "ah1979"  # AH X.B.2.a.i: "any one ... leader ... per turn"
    for turn, owner, ld, t in pos.fought:
        if turn != pos.turn or owner != ATREIDES or not ld.startswith(KWISATZ_HADERACH):
            continue
        if per_leader:
            with_ = ld.partition("/")[2]
            if with_ != (plan.leader or "cheap_hero"):
                refuse(pos, "kh_once", "the Kwisatz Haderach goes with one leader a turn", True, f)
        elif t != territory:
            refuse(pos, "kh_once", f"the Kwisatz Haderach fought in {place_name(t)} this turn: one territory a turn", True, f)


def check_traitor(pos: Position, caller: Side, called: Side) -> None:
    if not caller.plan.traitor:
        return
    f = f"{caller.prefix}.traitor"
    if called.plan.leader is None:
        refuse(pos, "traitor_call", "a traitor is called on the opponent's leader disc, and there is none", True, f)
    if called.plan.kwisatz_haderach:
        refuse(pos, "traitor_kh", "a leader with the Kwisatz Haderach cannot turn traitor", True, f)
