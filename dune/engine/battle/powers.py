"""The powers used on a battle plan before it is revealed: the Bene Gesserit's Voice and the
Atreides' prescience (LoLV 2.02.06, 2.01.08; AH X.B.4-5), and whether the plan obeys them."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dune.engine.battle.cards import CARDS
from dune.engine.battle.refusals import refuse
from dune.engine.battle.side import Side
from dune.engine.events import Battle, BattlePlan
from dune.engine.factions import (
    ATREIDES,
    BENE_GESSERIT,
    RICHESE,
)
from dune.engine.names import faction_name, join_names
from dune.engine.numbers import decimal_str
from dune.engine.position import Position

#: What each Voice kind matches in a plan: (slot, kind) of `CARDS`, or a card by name.
_VOICED: Mapping[str, tuple[str, str]] = {
    "projectile": ("weapon", "projectile"),
    "poison": ("weapon", "poison"),
    "lasgun": ("weapon", "lasgun"),
    "shield": ("defense", "projectile"),
    "snooper": ("defense", "poison"),
    "worthless": ("worthless", ""),
}


def _voiced(plan: BattlePlan, card: str) -> str | None:
    """The card of `plan` the Voice's `card` names, or None."""
    if card == "cheap_hero":
        return "cheap_hero" if plan.cheap_hero else None
    for played in (plan.weapon, plan.defense):
        if played is None:
            continue
        if played == card or (card in _VOICED and CARDS[played] == _VOICED[card]):
            return played
    return None


def _opponent(pos: Position, agg: Side, dfd: Side, *, owner: str, by: str, named: str, key: str) -> Side:
    """The side a battle power is used against, which the power must name: the Voice or the
    Prescience (`key`) belongs to `owner`, used in its own battle or its ally's, against the
    other side (LoLV 2.01.09, 2.02.07; WBC X.5-6), and `named` is that side's faction (the
    Voice's `to`, the Prescience's `of`). Returns the opponent's side."""
    power, named_field, verb = (
        ("Voice", "to", "commands") if owner == BENE_GESSERIT else ("Prescience", "of", "asks")
    )
    sides = {agg.faction: agg, dfd.faction: dfd}
    if owner not in pos.playing:
        refuse(pos, key, f"{faction_name(owner)} do not play in this game", owner, f"{key}.by")
    if by != owner:
        refuse(pos, key, f"the {power} is used by {faction_name(owner)}", by, f"{key}.by")
    mine = [s for s in sides.values() if s.faction == owner or owner in pos.allies_of(s.faction)]
    if not mine:
        refuse(
            pos,
            f"{key}_ally",
            f"{faction_name(owner)} use it in their own battle or their ally's, not between {join_names(faction_name(x) for x in sides)}",
            by,
            f"{key}.by",
            "ally_powers" if "ally_powers" in pos.ruleset.cite else key,
        )
    target = [s for s in sides.values() if s is not mine[0]][0]
    if named != target.faction:
        opponent = faction_name(target.faction)
        if power == "Voice":
            refuse(pos, key, f"the Voice commands the opponent, {opponent}", named, f"{key}.{named_field}")
        refuse(pos, key, f"the Prescience asks the opponent, {opponent}", named, f"{key}.{named_field}")
    return target


def check_voice(pos: Position, event: Battle, agg: Side, dfd: Side) -> None:
    """The Bene Gesserit Voice the plans obey (AH X.B.4, X.B.6.a; WBC X.3, X.9-11; LoLV
    2.02.06-07): a side Voiced not to play a card has none of it in its plan; one Voiced to play
    it complies as well as it is able to (WBC X.11), so a plan without it is taken as unable."""
    voice = event.voice
    if voice is None:
        return
    target = _opponent(pos, agg, dfd, owner=BENE_GESSERIT, by=voice.by, named=voice.to, key="voice")
    if voice.card not in pos.ruleset.battle.voice_cards:
        refuse(pos, "voice", f"the Voice cannot name {voice.card.replace('_', ' ')} in this game", voice.card, "voice.card")
    if voice.karama:
        return
    played = _voiced(target.plan, voice.card)
    if played is not None and not voice.play:
        slot = "cheap_hero" if played == "cheap_hero" else ("weapon" if played == target.plan.weapon else "defense")
        refuse(
            pos,
            "plan_obeys",
            f"{faction_name(target.faction)} was Voiced not to play {voice.card.replace('_', ' ')} and played {played.replace('_', ' ')}",
            played,
            f"{target.prefix}.{slot}",
            "voice",
        )


def check_prescience(pos: Position, event: Battle, agg: Side, dfd: Side) -> None:
    """The Atreides' Prescience the plans obey (AH X.B.5, X.B.6.a; WBC X.7-8; LoLV 2.01.08-09):
    the element shown is the element played."""
    seen = event.prescience
    if seen is None:
        return
    target = _opponent(pos, agg, dfd, owner=ATREIDES, by=seen.by, named=seen.of, key="prescience")
    if seen.element == "dial" and target.faction == RICHESE and pos.no_field is not None and pos.no_field[0] == event.territory:
        refuse(pos, "blind_prescience", "with a No-Field token present the Richese are not made to show the number dialed", seen.element, "prescience.element", "prescience")
    if seen.karama:
        return
    plan = target.plan
    if seen.element == "leader":
        played: Any = "cheap_hero" if plan.cheap_hero else plan.leader
    elif seen.element == "dial":
        played = Fraction(plan.dial).limit_denominator(2)
    else:
        played = getattr(plan, seen.element)
    answer = Fraction(seen.answer).limit_denominator(2) if seen.element == "dial" and seen.answer is not None else seen.answer
    if played != answer:
        shown = "nothing" if answer is None else str(decimal_str(answer) if isinstance(answer, Fraction) else answer)
        field = {"leader": "cheap_hero" if plan.cheap_hero else "leader"}.get(seen.element, seen.element)
        refuse(
            pos,
            "plan_obeys",
            f"{faction_name(target.faction)} showed the Prescience {shown} as its {seen.element} and must play it",
            played if not isinstance(played, Fraction) else decimal_str(played),
            f"{target.prefix}.{field}",
            "prescience",
        )
