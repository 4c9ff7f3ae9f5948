"""How a game ends: a claimed victory, the last turn, a concession, adjudication; dropouts."""

from __future__ import annotations

from typing import Any

from dune.engine.apply_flow import add_turn_pp
from dune.engine.checks import need_faction, need_phase, refuse
from dune.engine.control import Occupancy, control, occupancy
from dune.engine.editions import distinguished
from dune.engine.events import (
    AdjudicationConfirmed,
    BgPredictionRevealed,
    Concession,
    Dropout,
    GameEnded,
    LastTurnEnded,
    VictoryClaimed,
)
from dune.engine.factions import BENE_GESSERIT, HARKONNEN
from dune.engine.ids import ResultKind
from dune.engine.names import faction_name, factions_text, join_names
from dune.engine.phases import MENTAT_PAUSE
from dune.engine.position import ForceKey, Outcome, Position, Stack, evolve
from dune.engine.result_check import TIME_RULE, TIME_UP_FIRST
from dune.engine.results import Way, kind_for, kind_name
from dune.engine.stats import faction_stats
from dune.engine.storm import storm_order
from dune.engine.time_up_ranking import adjudicate
from dune.engine.victory import Verdict, end_of_game, mentat_victory, victory_stands


def _context(pos: Position) -> tuple[list[str], Occupancy, dict[str, str | None]]:
    order = storm_order(pos) or list(pos.factions)
    occ = occupancy(pos)
    return order, occ, control(pos, occ)


def _outcome(verdict: Verdict, ended_by: str) -> Outcome:
    return Outcome(
        winners=verdict.winners,
        kind=str(verdict.kind),
        rule=verdict.rule,
        ended_by=ended_by,
        sides=tuple((side, str(kind)) for side, kind in verdict.sides),
    )


def apply_victory_claimed(pos: Position, ev: VictoryClaimed) -> dict[str, Any]:
    """A stronghold (or BG prediction) victory at the Mentat Pause, checked against the
    position (LoLV 1.09.02-03, 2.02.03; AH IV)."""
    need_phase(pos, (MENTAT_PAUSE,), "solo", "a stronghold victory is claimed")
    order, occ, ctrl = _context(pos)
    verdict = mentat_victory(pos, occ, ctrl, order)
    if verdict is None:
        held = join_names(
            f"{faction_name(f)} {n}" for f in pos.factions if (n := sum(1 for c in ctrl.values() if c == f))
        )
        refuse(
            pos,
            "solo" if len(ev.winners) == 1 else "allied",
            f"no side controls enough strongholds to win (strongholds controlled: {held})",
            ev.winners,
        )
    if set(ev.winners) != set(verdict.winners):
        refuse(
            pos,
            verdict.rule,
            f"the position's winners are {factions_text(verdict.winners)}, not {factions_text(ev.winners)}",
            ev.winners,
        )
    if ev.kind is not None and ev.kind != verdict.kind:
        refuse(
            pos, verdict.rule, f"the victory is {kind_name(verdict.kind)}, not {kind_name(ev.kind)}", ev.kind
        )
    return {
        "outcome": _outcome(verdict, "victory"),
        "prediction_revealed": pos.prediction_revealed or verdict.kind == ResultKind.BG_PREDICTION,
        "states": add_turn_pp(pos),
    }


def apply_bg_prediction_revealed(pos: Position, ev: BgPredictionRevealed) -> dict[str, Any]:
    """The BG shows the prediction (LoLV 2.02.03, AH IV.A)."""
    if pos.prediction is None:
        refuse(pos, "prediction", "no prediction has been recorded", None)
    if pos.prediction_revealed:
        refuse(pos, "prediction", "the prediction is already revealed", None)
    if distinguished(pos):
        _prediction_came_true(pos)
    return {"prediction_revealed": True}


def _prediction_came_true(pos: Position) -> None:
    """Ninth edition: the BG reveal the prediction only at the Mentat Pause of the predicted
    turn, when the predicted faction has met the requirements for victory (LoLV 2.02.03) or won
    (AH IV.A), alone or with an ally."""
    pred = pos.prediction
    assert pred is not None
    who = faction_name(pred.faction)
    if pos.turn != pred.turn or pos.phase != MENTAT_PAUSE:
        refuse(pos, "prediction", f"the prediction names {who} on turn {pred.turn}: it is revealed at that turn's Mentat Pause", pos.turn)
    order, occ, ctrl = _context(pos)
    verdict = mentat_victory(pos, occ, ctrl, order)
    if verdict is None or verdict.kind != ResultKind.BG_PREDICTION:
        refuse(pos, "prediction", f"{who} has not won on turn {pred.turn}: nothing makes the prediction come true", pred.faction)


def apply_last_turn_ended(pos: Position, ev: LastTurnEnded) -> dict[str, Any]:
    """The last turn ends with no stronghold winner: special and default victories
    (LoLV 1.09.05, 2.04.09, 2.06.08; AH IV.B-C). After time ran out before the turn limit,
    the game is adjudicated instead."""
    setup = pos.setup
    assert setup is not None
    need_phase(pos, (MENTAT_PAUSE,), "end_game", "the last turn ends")
    if pos.turn < setup.turn_limit:
        if pos.time_up is not None:
            refuse(pos, "time", "time ran out before the last turn: record adjudication_confirmed", pos.turn)
        refuse(pos, "turn_limit", f"turn {pos.turn} is not the last of {setup.turn_limit}", pos.turn)
    order, occ, ctrl = _context(pos)
    standing = mentat_victory(pos, occ, ctrl, order)
    if standing is not None:
        refuse(pos, "solo", victory_stands(standing, "ending the last turn"), None)
    verdict = end_of_game(pos, occ, order)
    return {"outcome": _outcome(verdict, "turn_limit"), "states": add_turn_pp(pos)}


def apply_concession(pos: Position, ev: Concession) -> dict[str, Any]:
    """Unanimous concession to an unallied player or a whole alliance, never to one member
    of an alliance (WBC Concessions)."""
    if not ev.unanimous:
        refuse(pos, "concession", "a concession needs every player's agreement", ev.unanimous)
    for f in ev.to_factions:
        need_faction(pos, f)
    if not ev.to_factions or set(pos.side_of(ev.to_factions[0])) != set(ev.to_factions):
        refuse(
            pos,
            "concession",
            "concede to an unallied player or a whole alliance, not part of one",
            ev.to_factions,
        )
    side = tuple(sorted(ev.to_factions))
    verdict = Verdict(sides=((side, kind_for(Way.STRONGHOLD, side)),), rule=pos.ruleset.cite["concession"])
    return {"outcome": _outcome(verdict, "concession")}


def apply_dropout(pos: Position, ev: Dropout) -> dict[str, Any]:
    """The player's tokens and uncaptured leaders leave the game, spice to the bank, cards
    to the discard pile; a dropping Harkonnen returns captured leaders; play goes on
    (WBC Dropouts)."""
    need_faction(pos, ev.faction)
    if len(pos.factions) <= 2:
        refuse(pos, "dropout", "a game needs at least two players; record a concession", ev.faction)
    forces: dict[ForceKey, Stack] = {k: v for k, v in pos.forces.items() if k[0] != ev.faction}
    states = dict(pos.states)
    st = states[ev.faction]
    leaders = tuple(("out", c) if status != "captured" else (status, c) for status, c in st.leaders)
    states[ev.faction] = evolve(
        st, spice=0, cards=0, card_names=None, reserves=(0, 0), tanks=(0, 0), leaders=leaders, dropped=True
    )
    if ev.faction == HARKONNEN:
        for f, other in states.items():
            if f != ev.faction and any(c == HARKONNEN for _s, c in other.leaders):
                states[f] = evolve(
                    other,
                    leaders=tuple(("active", None) if c == HARKONNEN else (s, c) for s, c in other.leaders),
                )
    alliances = tuple(
        sorted(r for r in (tuple(f for f in a if f != ev.faction) for a in pos.alliances) if len(r) > 1)
    )
    changes: dict[str, Any] = {
        "forces": forces,
        "states": states,
        "alliances": alliances,
        "playing": tuple(f for f in pos.playing if f != ev.faction),
    }
    if ev.faction == BENE_GESSERIT:
        changes["coexisting"] = frozenset()
    return changes


def apply_adjudication_confirmed(pos: Position, ev: AdjudicationConfirmed) -> dict[str, Any]:
    """The judge confirms the adjudicated winners after the clock ran out (WBC heat
    duration and adjudication; LoLV 4.01.09.10). A differing choice needs a reason."""
    if pos.time_up is None:
        refuse(pos, TIME_RULE, TIME_UP_FIRST, ev.winners)
    for f in ev.winners:
        need_faction(pos, f)
    order, occ, ctrl = _context(pos)
    standing = mentat_victory(pos, occ, ctrl, order)
    if standing is not None and pos.phase == MENTAT_PAUSE:
        refuse(pos, "solo", victory_stands(standing, "an adjudication"), ev.winners)
    if not ev.winners or set(pos.side_of(ev.winners[0])) != set(ev.winners):
        refuse(
            pos,
            "adjudication",
            "the adjudicated winner is an unallied player or a whole alliance",
            ev.winners,
        )
    if not ev.override_reason:
        ranking = adjudicate(pos, faction_stats(pos, occ, ctrl), order)
        if ranking is None:
            refuse(
                pos,
                "adjudication",
                "this ruleset has no adjudication criteria: give an override reason",
                ev.winners,
            )
        best = ranking.sides[0]
        if ranking.top_tied:
            refuse(
                pos, "adjudication", "the top sides are tied on every criterion: record die rolls", ev.winners
            )
        if set(best) != set(ev.winners):
            refuse(
                pos,
                "adjudication",
                f"the criteria rank {factions_text(best)} first, not {factions_text(ev.winners)}",
                ev.winners,
            )
    side = tuple(sorted(ev.winners))
    verdict = Verdict(sides=((side, kind_for(Way.ADJUDICATED, side)),), rule=pos.ruleset.cite["adjudication"])
    changes: dict[str, Any] = {"outcome": _outcome(verdict, "time_limit")}
    if pos.phase == MENTAT_PAUSE:
        changes["states"] = add_turn_pp(pos)
    return changes


def apply_game_ended(pos: Position, ev: GameEnded) -> dict[str, Any]:
    """Close the record; it needs a result first."""
    if pos.outcome is None:
        refuse(
            pos,
            "end_game",
            "record how the game ended first (victory, last turn, concession, adjudication)",
            None,
        )
    return {"ended": True}
