"""`evaluate(position)`: every position-level decision a judge asks for, as JSON.

It answers as if each moment had come now: storm order, stronghold control and victory
as at the Mentat Pause, the battles and win attempts as at the start of the battle phase,
the end-of-game winners (only on the last turn, when nobody won at the Mentat Pause),
statistics, this turn's WBC performance points and the adjudication ranking. Fractions are
decimal strings; unknown facts are null.
"""

from __future__ import annotations

from typing import Any

from gameplay.engine.adjudication import adjudicate
from gameplay.engine.battles import battles
from gameplay.engine.control import control, occupancy
from gameplay.engine.errors import InvalidPosition
from gameplay.engine.numbers import decimal_str
from gameplay.engine.position import Position
from gameplay.engine.pp import tenths_str, turn_pp_tenths
from gameplay.engine.stats import faction_stats, stats_json
from gameplay.engine.storm import storm_order
from gameplay.engine.victory import end_of_game, mentat_victory, ordered_sides, win_attempts


def evaluate(position: Position) -> dict[str, Any]:
    """The engine's answer for a position. Raises InvalidPosition before `game_setup`."""
    if position.setup is None:
        raise InvalidPosition(rule="setup", msg="the game has not been set up", phase=position.phase)
    order = storm_order(position)
    ranked = order if order is not None else list(position.factions)
    occ = occupancy(position)
    ctrl = control(position, occ)
    sides = ordered_sides(position, ranked)
    victory = mentat_victory(position, occ, ctrl, ranked, sides=sides)
    eog = None
    if position.last_turn and victory is None:
        eog = end_of_game(position, occ, ranked).to_dict()
    stats = faction_stats(position, occ, ctrl)
    pp = turn_pp_tenths(position, occ, ctrl)
    ranking = adjudicate(position, stats, ranked, sides=sides)
    return {
        "storm_order": order,
        "first_player": order[0] if order else None,
        "control": ctrl,
        "battles": battles(position, occ, ranked),
        "win_attempts": win_attempts(position, occ, ranked, sides=sides),
        "victory": None if victory is None else victory.to_dict(),
        "end_of_game": eog,
        "stats": stats_json(stats),
        "pp": {} if pp is None else {f: tenths_str(v) for f, v in pp.items()},
        "adjudication": [] if ranking is None else [list(s) for s in ranking.sides],
        "adjudication_unknown": [] if ranking is None else list(ranking.unknown),
        "adjudication_tied": False if ranking is None else ranking.tied,
        "pp_total": {f: decimal_str(position.states[f].pp) for f in position.factions},
        "outcome": None if position.outcome is None else position.outcome.to_dict(),
        "turn": position.turn,
        "phase": position.phase,
        "quick": position.quick,
    }
