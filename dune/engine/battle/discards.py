"""The cards each side keeps or discards after a battle (LoLV 1.07.06.04, 1.07.06.06.00, 3.01.04;
AH X.C.6), and the keep-or-discard choices a plan states."""

from __future__ import annotations

from dune.engine.battle.cards import CARDS, EXPANSION_CARDS, ONE_TIME_CARDS, cards_played
from dune.engine.battle.leaders import leader_status
from dune.engine.battle.refusals import refuse
from dune.engine.battle.side import Side
from dune.engine.battle.tally import Tally
from dune.engine.editions import distinguished
from dune.engine.names import faction_name


def winner_discards(t: Tally, side: Side, traitor: bool = False) -> tuple[str, ...]:
    """The cards a winner discards: those it chose to (`discard`), a one-time card unless kept
    after a traitor call where the rules allow it (LoLV 1.07.06.06.00), and a worthless card
    unless kept (AH X.C.6, LoLV 1.07.06.05; before the ninth edition a traitor's winner kept its
    worthless cards and every other winner discarded them)."""
    plan = side.plan
    one_time_kept = traitor and t.restores and distinguished(t.pos)
    out: list[str] = []
    for card in cards_played(plan):
        if card in ONE_TIME_CARDS:
            gone = not (one_time_kept and card in plan.keep)
        elif card in plan.discard:
            gone = True
        elif CARDS[card][0] == "worthless":
            gone = card not in plan.keep and (not traitor or distinguished(t.pos))
        else:
            gone = False
        if gone:
            out.append(card)
    return tuple(out)


def check_choices(t: Tally) -> None:
    """The winner's choices the event records, against what the rules leave to it: cards kept
    (AH X.C.6, LoLV 1.07.06.05, 1.07.06.06.00) and a captive kept after a traitor call
    (1.07.06.06.00)."""
    for side in (t.agg, t.dfd):
        plan, prefix = side.plan, side.prefix
        if plan.keep and side.faction != t.winner:
            key = {"explosion": "explosion", "two_traitors": "two_traitors"}.get(t.outcome, "battle_loser")
            refuse(t.pos, key, f"{faction_name(side.faction)} did not win this battle and keeps none of the cards it played", plan.keep[0], f"{prefix}.keep")
        caller = t.outcome == "traitor" and plan.traitor
        for card in plan.keep:
            if card in ONE_TIME_CARDS and not (caller and t.restores and distinguished(t.pos)):
                rule = EXPANSION_CARDS.get(card, "one_time_cards")
                refuse(t.pos, rule, f"{card.replace('_', ' ')} is discarded after use", card, f"{prefix}.keep", "battle_winner")
        if plan.keep_captive:
            held = side.leader_key()
            captive = (
                held is not None
                and held[0] != side.faction
                and side.leader_index is not None
                and (leader_status(t.pos, held[0], side.leader_index) or ("", None))[0] == "captured"
            )
            if not (caller and t.restores and captive):
                refuse(
                    t.pos,
                    "traitor_restores",
                    "a captive stays captive only when it was played by the side that won by calling a traitor, where the rules consider it not used",
                    True,
                    f"{prefix}.keep_captive",
                    "captive_once",
                )
