"""Game setup (LoLV 0.xx, AH III): factions, player markers, starting forces and spice."""

from __future__ import annotations

from typing import Any

from dune.engine.board import PLAYER_DOTS, POLAR_SINK, TERRITORIES
from dune.engine.checks import factions_in, need_counts, need_piece
from dune.engine.editions import DISTINGUISHED, advanced, limited
from dune.engine.errors import IllegalAction, InvalidPosition, UnknownIdentifier
from dune.engine.events import BgPredictionMade, ForcesAt, GameSetup, Prediction
from dune.engine.factions import BENE_GESSERIT, FACTION_SHEETS
from dune.engine.impossible import check_round_alliances
from dune.engine.names import faction_name, join_names, place_name
from dune.engine.phases import SETUP
from dune.engine.position import FactionState, ForceKey, Position, Setup, Stack, evolve
from dune.engine.rulesets import get_ruleset, ruleset_with


def starting_state(faction: str, *, quick: bool) -> FactionState:
    sheet = FACTION_SHEETS[faction]
    fixed_n = sum(n for _t, _s, n, _x in sheet.fixed_placements)
    fixed_x = sum(x for _t, _s, _n, x in sheet.fixed_placements)
    return FactionState(
        spice=sheet.starting_spice,
        cards=sheet.starting_cards,
        reserves=None if quick else (sheet.normal_forces - fixed_n, sheet.special_forces - fixed_x),
        tanks=None if quick else (0, 0),
        leaders=tuple(("active", None) for _ in sheet.leaders),
    )


def check_prediction(pos: Position, factions: tuple[str, ...], pred: Prediction, turn_limit: int) -> None:
    rule = pos.ruleset.cite["prediction"]
    if BENE_GESSERIT not in factions:
        raise IllegalAction(rule=rule, msg="only the Bene Gesserit makes a prediction", input=pred)
    if pred.faction == BENE_GESSERIT or pred.faction not in factions:
        raise IllegalAction(
            rule=rule,
            msg=f"the prediction must name another faction in the game, not {faction_name(pred.faction)}",
            input=pred,
        )
    if not 1 <= pred.turn <= turn_limit:
        raise IllegalAction(rule=rule, msg=f"the predicted turn must be 1..{turn_limit}", input=pred)


def chosen_on_board(pos: Position, faction: str) -> int:
    """Forces a faction has placed where it chose (on the board beyond its fixed placements)."""
    sheet = pos.sheet(faction)
    fixed = sum(n + x for _t, _s, n, x in sheet.fixed_placements)
    return sum(sum(st) for _t, _s, st in pos.stacks_of(faction)) - fixed


def _bg_start(pos: Position, p: ForcesAt, cite: str) -> tuple[int, int]:
    """(fighters, advisors) of a starting placement: the BG's follows its sheet."""
    normal, advisors = p.normal, p.advisors
    if p.faction == BENE_GESSERIT and pos.ruleset.bg_starts_as_advisor and not advanced(pos) and limited(pos):
        # LoLV 2.02.02: in the Basic game the BG starts with a fighter in the Polar Sink (the
        # advisor anywhere is the Advanced 2.02.08).
        if p.territory != POLAR_SINK or p.advisors:
            raise IllegalAction(
                rule=pos.ruleset.cite.get("bg_basic_start", cite),
                msg=f"in the Basic game the Bene Gesserit starts with a fighter in the Polar Sink, not in {place_name(p.territory)}",
                input=p,
            )
    elif p.faction == BENE_GESSERIT and pos.ruleset.bg_starts_as_advisor:
        # LoLV 2.02.08: an advisor, flipped to a fighter where the BG is alone.
        tokens = p.normal + p.advisors
        alone = not factions_in(pos, p.territory) - {p.faction}
        normal, advisors = (tokens, 0) if alone else (0, tokens)
    return normal, advisors


def place_at_setup(pos: Position, p: ForcesAt) -> Position:
    """A starting placement by a faction that chooses where (LoLV 0.13, 2.04.02, 2.02.08, 2.12.02)."""
    cite = pos.ruleset.cite["setup"]
    setup = pos.setup
    assert setup is not None
    if p.faction not in setup.factions:
        raise UnknownIdentifier(
            rule=cite, msg=f"{faction_name(p.faction)} does not play in this game", input=p.faction
        )
    need_piece(pos, p.territory, p.sector)
    need_counts(pos, p.normal, p.special, p.advisors, p.faction)
    sheet = pos.sheet(p.faction)
    count = p.normal + p.special + p.advisors
    if not sheet.choose_count:
        raise IllegalAction(
            rule=cite, msg=f"{faction_name(p.faction)} starts with fixed placements only", input=p
        )
    allowed = sheet.choose_territories
    if isinstance(allowed, tuple) and p.territory not in allowed:
        raise IllegalAction(
            rule=cite,
            msg=f"{faction_name(p.faction)} starts only in {join_names((place_name(t) for t in allowed), last='or')}, not {place_name(p.territory)}",
            input=p,
        )
    if allowed == "any_unoccupied" and factions_in(pos, p.territory) - {p.faction}:
        raise IllegalAction(
            rule=cite, msg=f"{faction_name(p.faction)} must start in an unoccupied territory", input=p
        )
    if chosen_on_board(pos, p.faction) + count > sheet.choose_count:
        raise IllegalAction(
            rule=cite,
            msg=f"{faction_name(p.faction)} places only {sheet.choose_count} forces at start",
            input=p,
        )
    normal, advisors = _bg_start(pos, p, cite)
    st = pos.states[p.faction]
    forces = dict(pos.forces)
    key: ForceKey = (p.faction, p.territory, p.sector)
    old = forces.get(key, (0, 0, 0))
    forces[key] = (old[0] + normal, old[1] + p.special, old[2] + advisors)
    states = dict(pos.states)
    if st.reserves is not None:
        rn, rs = st.reserves
        if rn < p.normal + p.advisors or rs < p.special:
            raise InvalidPosition(
                rule=cite, msg=f"{faction_name(p.faction)} has not that many forces", input=p
            )
        states[p.faction] = _with_reserves(st, (rn - p.normal - p.advisors, rs - p.special))
    if pos.quick and not TERRITORIES[p.territory].is_stronghold:
        return pos.evolve(states=states)
    return pos.evolve(forces=forces, states=states)


def _with_reserves(st: FactionState, reserves: tuple[int, int]) -> FactionState:
    return evolve(st, reserves=reserves)


def apply_game_setup(pos: Position, ev: GameSetup) -> dict[str, Any]:
    """The game's first event: ruleset, factions, markers, options and edition.

    Long because it validates every field of the setup in turn, each with its rule number, before
    building the first position.
    """
    if pos.setup is not None:
        raise IllegalAction(rule="setup", msg="the game is already set up", phase=pos.phase)
    rs = get_ruleset(ev.ruleset)
    cite = rs.cite["setup"]
    if not 2 <= len(ev.factions) <= 6:
        raise InvalidPosition(rule=cite, msg="a game has 2 to 6 factions", input=ev.factions)
    for f in ev.factions:
        if f not in rs.factions:
            raise InvalidPosition(rule=cite, msg=f"{faction_name(f)} is not a faction of {rs.name}", input=f)
    markers = dict(ev.markers)
    dots = rs.cite["markers"]
    if set(markers) != set(ev.factions):
        raise InvalidPosition(
            rule=dots, msg="every faction needs exactly one player marker", input=ev.markers
        )
    for f, s in markers.items():
        if s not in PLAYER_DOTS:
            raise InvalidPosition(
                rule=dots, msg=f"player markers stand on dots {list(PLAYER_DOTS)}, not {s}", input=f
            )
    if len(set(markers.values())) != len(markers):
        raise InvalidPosition(rule=dots, msg="two player markers on one dot", input=ev.markers)
    turns: int = ev.turns if ev.turns is not None else rs.turn_limit
    if not 1 <= turns <= rs.max_turns:
        raise InvalidPosition(
            rule=rs.cite["turn_limit"], msg=f"a game lasts 1..{rs.max_turns} turns", input=turns
        )
    rs = ruleset_with(rs, ev.options)  # raises UnknownIdentifier for an unknown option
    if ev.three_alliances and rs.alliance_limit(len(ev.factions), True, frozenset(ev.options)) != 3:
        raise IllegalAction(
            rule=rs.cite["alliance_limit"],
            msg="three-faction alliances need a 6-player WBC table",
            input=ev.three_alliances,
        )
    setup = Setup(
        ruleset=rs,
        factions=ev.factions,
        markers=markers,
        turn_limit=turns,
        options=frozenset(ev.options),
        three_alliances=ev.three_alliances,
        seed=ev.seed,
        automatic_losses=ev.automatic_losses,
        edition=ev.edition,
    )
    if setup.edition >= DISTINGUISHED:
        check_round_alliances(setup)  # WBC Final Round Format
    forces: dict[ForceKey, Stack] = {}
    for f in ev.factions:
        for t, sec, n, x in FACTION_SHEETS[f].fixed_placements:
            if ev.quick and not TERRITORIES[t].is_stronghold:
                continue
            forces[(f, t, sec)] = (n, x, 0)
    states = {f: starting_state(f, quick=ev.quick) for f in ev.factions}
    pos = Position(
        setup=setup, turn=1, phase=SETUP, forces=forces, states=states, playing=ev.factions, quick=ev.quick
    )
    if ev.storm is not None:
        pos = pos.evolve(storm=ev.storm)
    if ev.bg_prediction is not None:
        check_prediction(pos, ev.factions, ev.bg_prediction, turns)
        pos = pos.evolve(prediction=ev.bg_prediction)
    for p in ev.placements:
        pos = place_at_setup(pos, p)
    return {
        "setup": pos.setup,
        "turn": pos.turn,
        "phase": pos.phase,
        "forces": pos.forces,
        "states": pos.states,
        "playing": ev.factions,
        "quick": pos.quick,
        "storm": pos.storm,
        "prediction": pos.prediction,
    }


def apply_bg_prediction_made(pos: Position, ev: BgPredictionMade) -> dict[str, Any]:
    setup = pos.setup
    assert setup is not None
    if pos.phase != SETUP:
        raise IllegalAction(
            rule=pos.ruleset.cite["prediction_time"], msg="the prediction is made at setup", phase=pos.phase
        )
    if pos.prediction is not None:
        raise IllegalAction(
            rule=pos.ruleset.cite["prediction"], msg="the prediction is already made", phase=pos.phase
        )
    pred = Prediction(faction=ev.faction, turn=ev.turn)
    check_prediction(pos, setup.factions, pred, setup.turn_limit)
    return {"prediction": pred}
