"""A WBC final's table, tracked in full, where the storm destroys forces in the sand: the
engine sends them to the tanks by itself (WBC VI.8) and the judge's page lists them."""

from __future__ import annotations

from typing import Any

from gameplay import services
from tests.factories import make_players, make_round, make_tournament, seat_table

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")

#: Where the factions that choose place their starting forces (AH III.E).
PLACEMENTS = [
    {"faction": "fremen", "territory": "sietch_tabr", "sector": 13, "normal": 10},
    {"faction": "bene_gesserit", "territory": "polar_sink", "sector": None, "normal": 1},
]

#: Turn 1 with three Harkonnen forces shipped into The Great Flat (sector 14), up to the
#: storm phase of turn 2 (the storm stands in sector 10).
BEFORE_THE_STORM = [
    {"type": "phase_advanced", "phase": "storm"},
    {"type": "storm_placed", "sector": 10},
    {"type": "phase_advanced", "phase": "shipment_movement"},
    {"type": "forces_placed", "faction": "harkonnen", "territory": "the_great_flat", "sector": 14, "normal": 3},
    {"type": "phase_advanced", "phase": "mentat_pause"},
    {"type": "turn_advanced"},
]

#: The storm moves from sector 10 over sector 14.
STORM = {"type": "storm_moved", "sectors": 4}


def final_table(judge: Any, edition: int | None = None) -> Any:
    """A published WBC final table of six classic factions, judged by `judge`, its game set up
    (under an older `edition` of the rulings when given, as a game stored under it)."""
    tournament = make_tournament(format="wbc")
    tournament.table_judges.add(judge)
    table = seat_table(make_round(tournament, kind="final"), make_players(tournament, 6), factions=SIX, judge=judge)
    setup = {**services.setup_event_for(table), "placements": PLACEMENTS}
    if edition is not None:
        setup["edition"] = edition
    services.start_game(table, setup, user=judge)
    return table


def record(table: Any, judge: Any, events: list[dict[str, Any]]) -> int:
    """Append `events` in order; the table's sequence number after them."""
    seq = services.read_game(table).seq
    for event in events:
        seq = services.append_event(table, event, expected_seq=seq, user=judge).seq
    return seq


def storm_took_forces(judge: Any, *, storm: bool = True) -> Any:
    """A final's table at turn 2's storm phase; with `storm`, the storm has moved over the
    three Harkonnen forces in The Great Flat and the engine sent them to the tanks."""
    table = final_table(judge)
    record(table, judge, BEFORE_THE_STORM + ([STORM] if storm else []))
    return table
