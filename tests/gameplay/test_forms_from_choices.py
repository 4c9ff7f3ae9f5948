"""The table page offers a form only when the engine accepts its kind of record now: every form
on the judge's page, in every phase of the golden games (a WBC final tracked in full, a LoLV
game tracked quick) and of a LoLV turn with the Ecaz, Moritani, Richese and Ixians, records an
event type the engine's choices list (`dune.engine.choices.allowed_event_types`). A WBC bribe
outside the collection round (WBC XIII.1), a Terror token outside the Mentat Pause (LoLV
2.12.05), an Ambassador outside shipment and movement (2.11.05), an HMS move in a phase where
it cannot move (2.07.18, 1.14.07) and a spice blow outside the spice blow phase are never on
the page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dune.engine.choices import allowed_event_types
from dune.engine.events import event_from_dict
from dune.engine.game_log import apply
from gameplay import engine_adapter as rules
from gameplay import services
from gameplay.models import Game
from tests.board.golden import LOLV, WBC, golden_events
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.table_page import url, web

pytestmark = pytest.mark.django_db

#: Forms every judge's page keeps: voiding a record is always possible (its own checks).
ALWAYS = {"void"}


def offered(html: str) -> set[str]:
    return set(re.findall(r'<form[^>]*data-event-type="(\w+)"', html))


def walk_phases(judge: Any, events: list[dict[str, Any]], kind: str = "final") -> list[tuple[str, set[str], set[str]]]:
    """The table page at the start of every phase (and after every storm, worm and ending):
    (where, the forms offered, the event types the engine allows)."""
    setup = events[0]
    tournament = make_tournament(format="lolv" if setup["ruleset"].startswith("lolv") else "wbc")
    table = seat_table(make_round(tournament, kind=kind), make_players(tournament, len(setup["factions"])),
                       factions=setup["factions"], judge=judge)
    services.start_game(table, setup, user=judge)
    game = Game.objects.get(table=table)
    position = services.position_of(game)
    client = web(judge)
    seen = []
    for seq, body in enumerate(events[1:], start=2):
        position = apply(position, event_from_dict(body))
        if body["type"] not in ("phase_advanced", "turn_advanced", "storm_placed", "storm_moved", "worm",
                                "victory_claimed", "concession", "last_turn_ended") and seq != len(events):
            continue
        Game.objects.filter(pk=game.pk).update(seq=seq, position=rules.dump(position),
                                               evaluation=rules.evaluation(position))
        html = client.get(url(table)).content.decode()
        where = f"record #{seq}: turn {position.turn}, {position.phase} after {body['type']}"
        seen.append((where, offered(html), set(allowed_event_types(position)) | ALWAYS))
    return seen


@pytest.mark.parametrize("path", [WBC, LOLV], ids=["wbc-full", "lolv-quick"])
def test_every_form_of_every_phase_of_the_golden_games_is_one_the_engine_accepts(
    path: Any, make_user: Any
) -> None:
    seen = walk_phases(make_user("judge1"), golden_events(path))
    assert len(seen) > 40
    refused = [(where, sorted(forms - allowed)) for where, forms, allowed in seen if forms - allowed]
    assert refused == []
    # The phases' own forms do come and go with the phase (the check above is not empty).
    assert any("spice_blow" in forms for _w, forms, _a in seen) == (path == WBC)
    assert any("spice_blow" not in forms for _w, forms, _a in seen)


#: A LoLV final's table with the four expansion factions, turn 1 and 2 through every phase.
EXPANSIONS = ["atreides", "ecaz", "moritani", "richese", "ixians", "fremen"]


def expansion_log(judge: Any) -> list[dict[str, Any]]:
    tournament = make_tournament(format="lolv")
    seated = seat_table(make_round(tournament, kind="final"), make_players(tournament, 6), factions=EXPANSIONS,
                        judge=judge)
    setup = {**services.setup_event_for(seated),
             "placements": [{"faction": "moritani", "territory": "red_chasm", "sector": 6, "normal": 6},
                            {"faction": "fremen", "territory": "sietch_tabr", "sector": 13, "normal": 10}]}
    phases = list(rules.phases())
    log: list[dict[str, Any]] = [setup, {"type": "phase_advanced", "phase": "storm"},
                                 {"type": "storm_placed", "sector": 10}]
    for turn in (1, 2):
        if turn == 2:
            log += [{"type": "turn_advanced"}, {"type": "storm_moved", "sectors": 3}]
        log += [{"type": "phase_advanced", "phase": p} for p in phases[1:]]
    return log


def test_the_expansion_pieces_are_offered_only_in_their_phases(make_user: Any) -> None:
    judge = make_user("judge1")
    seen = walk_phases(judge, expansion_log(judge))
    refused = [(where, sorted(forms - allowed)) for where, forms, allowed in seen if forms - allowed]
    assert refused == []
    by_phase: dict[str, set[str]] = {}
    for where, forms, _allowed in seen:
        by_phase.setdefault(where.split(", ")[1].split(" after")[0], set()).update(forms)
    assert "ambassador_placed" in by_phase["shipment_movement"]
    assert "terror_placed" in by_phase["mentat_pause"]
    assert not {"ambassador_placed", "terror_placed"} & by_phase["storm"]
    assert "spice_blow" not in by_phase["storm"]
