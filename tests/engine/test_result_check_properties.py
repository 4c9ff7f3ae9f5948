"""A WBC game tracked by the engine and the same game reported on paper get the same answer.

Hypothesis builds WBC tables (five or six of the classic factions, heats and the final,
alliances of two, and of three where the WBC house rules allow them) and ends each game every
way a game ends: a stronghold victory (solo, allied, three-faction, two simultaneous solo
wins), the Bene Gesserit prediction, the end of the last turn (Fremen special, Guild or
Fremen default), a concession and a time-up adjudication. The engine decides the tracked
game; its outcome is written down as a paper report and validated twice, once as a paper
report and once against the engine's decision: both must accept it, with the same result.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dune.engine import apply, load_position
from dune.engine.board import SHIELD_WALL, TERRITORIES
from dune.engine.ids import ResultKind
from dune.engine.position import Outcome
from dune.engine.results import RESULTS
from dune.engine.rulesets import get_ruleset
from dune.formats import get_format
from dune.points import validate_report
from tests.engine.helpers import CLASSIC, at, snap

WBC = get_ruleset("wbc2018")
STRONGHOLDS = ("carthag", "arrakeen", "tueks_sietch", "sietch_tabr", "habbanya_sietch")
ENDINGS = ("victory", "simultaneous", "prediction", "last_turn", "concession", "adjudication")


@st.composite
def tables(draw: Any) -> dict[str, Any]:
    """A WBC table: factions in seat order, the round kind and the alliances at the end."""
    size = draw(st.sampled_from((5, 6)))
    factions = tuple(draw(st.permutations(CLASSIC))[:size])
    round_kind = draw(st.sampled_from(("heat", "final")))
    largest = WBC.most_allies(size, round_kind) or 2
    rest = list(draw(st.permutations(factions)))
    alliances: list[tuple[str, ...]] = []
    while len(rest) >= 2 and draw(st.booleans()):
        n = draw(st.integers(2, min(largest, len(rest))))
        alliances.append(tuple(rest[:n]))
        rest = rest[n:]
    return {"factions": factions, "round": round_kind, "alliances": alliances}


def sides(table: dict[str, Any]) -> list[tuple[str, ...]]:
    allied = {f for a in table["alliances"] for f in a}
    return list(table["alliances"]) + [(f,) for f in table["factions"] if f not in allied]


def tracked_outcome(table: dict[str, Any], ending: str, pick: int) -> Outcome | None:
    """The engine's decision of the game ended by `ending` (None when this table cannot end
    that way, e.g. a prediction without the Bene Gesserit)."""
    factions, round_kind = table["factions"], table["round"]
    limit = WBC.turn_limit_for(round_kind)
    base: dict[str, Any] = {
        "factions": factions,
        "alliances": [list(a) for a in table["alliances"]],
        "three_alliances": any(len(a) == 3 for a in table["alliances"]),
        "turn_limit": limit,
    }
    all_sides = sides(table)
    side = all_sides[pick % len(all_sides)]
    event: dict[str, Any]
    if ending in ("victory", "prediction"):
        need = WBC.threshold(len(side), frozenset())
        forces = [at(side[i % len(side)], s) for i, s in enumerate(STRONGHOLDS[:need])]
        extra: dict[str, Any] = {}
        if ending == "prediction":
            if "bene_gesserit" in side or "bene_gesserit" not in factions:
                return None
            extra["bg_prediction"] = {"faction": side[0], "turn": 3}
        position = load_position(snap(forces=forces, **base, **extra))
        winners = ["bene_gesserit"] if ending == "prediction" else list(side)
        event = {"type": "victory_claimed", "winners": winners}
    elif ending == "simultaneous":
        solos = [s for s in all_sides if len(s) == 1]
        if len(solos) < 2:
            return None
        first, second = solos[0][0], solos[1][0]
        shield = TERRITORIES[SHIELD_WALL].sectors[0]
        forces = [at(first, s) for s in STRONGHOLDS[:3]] + [at(second, s) for s in STRONGHOLDS[3:]]
        forces.append(at(second, SHIELD_WALL, sector=shield))
        position = load_position(snap(forces=forces, worms=4, **base))
        event = {"type": "victory_claimed", "winners": [first, second]}
    elif ending == "last_turn":
        denier = next((f for f in ("harkonnen", "atreides", "emperor") if f in factions), None)
        forces = [at(denier, "tueks_sietch")] if denier is not None and pick % 2 else []
        position = load_position(snap(forces=forces, turn=limit, **base))
        event = {"type": "last_turn_ended"}
    elif ending == "concession":
        position = load_position(snap(**base))
        event = {"type": "concession", "to_factions": list(side)}
    else:
        position = load_position(snap(time_up="wbc_heat", phase="battle", **base))
        event = {
            "type": "adjudication_confirmed",
            "winners": list(side),
            "override_reason": "die roll at the table",
        }
    ended = apply(position, event)
    assert ended.outcome is not None
    return ended.outcome


def report_of(table: dict[str, Any], outcome: Outcome, dropout: int) -> tuple[dict[str, Any], dict[int, str]]:
    """The paper report a judge writes of the engine's decision (one loser may have dropped out)."""
    seats = {i + 1: f for i, f in enumerate(table["factions"])}
    player = {f: p for p, f in seats.items()}
    kinds = {f: kind for side, kind in outcome.sides for f in side}
    losers = [f for f in table["factions"] if f not in kinds]
    dropped = losers[dropout % len(losers)] if losers and dropout % 3 == 0 else None
    rows = [
        {"player": p, "result": kinds.get(f) or ("dropout" if f == dropped else "loss")}
        for p, f in seats.items()
    ]
    data: dict[str, Any] = {"turns": 3, "ended_by": outcome.ended_by, "results": rows}
    if outcome.ended_by == "turn_limit":
        data["turns"] = WBC.turn_limit_for(table["round"])
    if table["alliances"]:
        data["alliances"] = [[player[f] for f in a] for a in table["alliances"]]
    return data, seats


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), ending=st.sampled_from(ENDINGS), pick=st.integers(0, 11), dropout=st.integers(0, 5))
def test_wbc_paper_report_and_tracked_game_agree(
    table: dict[str, Any], ending: str, pick: int, dropout: int
) -> None:
    """Every result the engine decides for a WBC game is a valid WBC paper report, and the
    report checked against the engine's decision is the same result: one adjudicator."""
    outcome = tracked_outcome(table, ending, pick)
    if outcome is None:
        return
    data, seats = report_of(table, outcome, dropout)
    final = table["round"] == "final"
    paper = validate_report("wbc", data, seats, ruleset=WBC, is_final=final)
    tracked = validate_report("wbc", data, seats, ruleset=WBC, is_final=final, decided=outcome)
    assert paper == tracked
    system = get_format("wbc").points
    for row in paper.rows:
        assert system.points(row.result) == system.table[row.result].points


def test_every_wbc_result_kind_is_reached_by_a_tracked_game() -> None:
    """The endings above reach every WBC result kind the points table scores (so the property
    covers them all); the end-game kinds need Guild and Fremen both absent, which no WBC
    table of five or six classic factions has."""
    seen: set[ResultKind] = set()
    tables_ = [
        {"factions": CLASSIC, "round": "heat", "alliances": []},
        {"factions": CLASSIC, "round": "heat", "alliances": [("guild", "atreides")]},
        {"factions": CLASSIC, "round": "heat", "alliances": [("fremen", "emperor")]},
        {"factions": CLASSIC, "round": "heat", "alliances": [("guild", "atreides", "emperor")]},
        {"factions": CLASSIC[:5], "round": "final", "alliances": [("fremen", "harkonnen")]},
        {"factions": CLASSIC[:5], "round": "final", "alliances": []},
    ]
    for table in tables_:
        for ending in ENDINGS:
            for pick in range(7):
                outcome = tracked_outcome(table, ending, pick)
                if outcome is None:
                    continue
                data, seats = report_of(table, outcome, 1)
                validate_report(
                    "wbc", data, seats, ruleset=WBC, is_final=table["round"] == "final", decided=outcome
                )
                seen |= {ResultKind(k) for _s, k in outcome.sides}
    scored = {k for k in get_format("wbc").points.table if RESULTS[k].won}
    assert scored <= seen, sorted(scored - seen)
