"""The pages' typed read of a snapshot (`dune.engine.codec.schema.SnapshotView`) reads only declared keys,
and reads a dumped position as it holds it."""

from __future__ import annotations

from dataclasses import fields

from dune.engine.codec.schema import (
    FORCE_FIELDS,
    LOSS_FIELDS,
    POSITION_FIELDS,
    SHEET_FIELDS,
    Removed,
    Sheet,
    SnapshotView,
    Stack,
    prediction_hidden,
    without_prediction,
)
from dune.engine.position import FactionState, Position, Setup


def _declared(cls: type, declaration: tuple, extra: set[str] = frozenset()) -> set[str]:  # type: ignore[assignment]
    return {f.name for f in fields(cls)} - set(extra) - {field.key for field in declaration}


def test_every_attribute_is_a_declared_key() -> None:
    """No key of its own: each attribute is the name of a field of the snapshot's declaration."""
    assert _declared(SnapshotView, POSITION_FIELDS) == set()
    assert _declared(Sheet, SHEET_FIELDS, {"has"}) == set()
    assert _declared(Stack, FORCE_FIELDS) == set()
    assert _declared(Removed, LOSS_FIELDS) == set()


#: The position's parts no key of its own holds: the seats' states are the sheets, the supplies
#: four keys, the spice and Ambassadors lost rows of `losses`; the log is no part of a snapshot.
FILLED_OTHERWISE = {"setup", "states", "playing", "supplies", "spice_lost", "pieces_lost", "log", "voided",
                    "losses"}


def test_the_declaration_fills_every_part_of_a_position() -> None:
    """A part added to the position and forgotten by the declaration would be lost between a
    dump and a load: every part is some key's attribute, and every attribute exists."""
    named = {d.attr for d in POSITION_FIELDS if d.attr}
    position_parts = {f.name for f in fields(Position)}
    setup_parts = {f"setup.{f.name}" for f in fields(Setup)}
    assert named <= position_parts | setup_parts
    assert position_parts - named - FILLED_OTHERWISE == set()
    assert setup_parts - named == {"setup.markers"}  # the sheets' `marker`
    sheet_parts = {d.attr for d in SHEET_FIELDS if d.attr}
    assert sheet_parts <= {f.name for f in fields(FactionState)}
    # Read with the rules instead: forces in reserve and in the tanks, leaders, the hand, PP.
    assert {f.name for f in fields(FactionState)} - sheet_parts == {"reserves", "tanks", "leaders", "cards", "pp"}


def test_a_snapshot_reads_as_it_holds() -> None:
    snapshot = {
        "turn": 3, "phase": "battle", "storm": 7, "worms": 2, "nexus": True, "ended": False,
        "factions": {"atreides": {"marker": 4, "spice": 10, "cards": None, "reserves": 5, "reserves_special": 2,
                                  "dropped": False}},
        "alliances": [["atreides", "fremen"]],
        "forces": [{"faction": "fremen", "territory": "sietch_tabr", "sector": None, "normal": 3, "special": 1}],
        "coexisting": ["arrakeen"], "attempts": [[3, ["atreides", "fremen"]]],
        "spice_on_board": {"the_great_flat": 10},
        "losses": [{"faction": None, "territory": "the_great_flat", "sector": 14, "spice": 6, "rule": "1.01.05"}],
        "hms": ["the_great_flat", 14], "terror": ["carthag"], "bg_prediction": {"faction": "fremen", "turn": 5},
    }
    view = SnapshotView.of(snapshot)
    assert (view.turn, view.phase, view.storm, view.worms, view.nexus, view.ended) == (3, "battle", 7, 2, True, False)
    sheet = view.sheet("atreides")
    assert sheet.marker == 4 and sheet.all_forces("reserves") == 5 and sheet.all_forces("tanks") is None
    # A sheet's null is its answer (not tracked); a key it leaves out falls back to the engine's.
    assert sheet.counted("cards", 6) is None and sheet.counted("leaders", 5) == 5 and sheet.counted("spice", 0) == 10
    assert view.sheet("harkonnen") == Sheet()
    assert view.allies_of("fremen") == ("atreides", "fremen") and view.allies_of("emperor") == ()
    assert view.forces == (Stack("fremen", "sietch_tabr", None, 3, 1, 0),) and view.forces[0].total == 4
    assert view.attempts == ((3, ("atreides", "fremen")),) and view.coexisting == {"arrakeen"}
    assert view.losses[0].spice == 6 and view.losses[0].faction is None
    assert view.hms == ("the_great_flat", 14) and view.no_field is None and view.terror == ("carthag",)
    assert view.predicted_faction == "fremen"
    assert SnapshotView.of(view) is view and SnapshotView.of(None) == SnapshotView.of({})


def test_a_hidden_prediction_and_none() -> None:
    snapshot = {"turn": 1, "bg_prediction": {"faction": "fremen", "turn": 5}}
    assert prediction_hidden(snapshot) == {"turn": 1, "bg_prediction": "hidden"}
    assert SnapshotView.of(prediction_hidden(snapshot)).predicted_faction is None
    assert prediction_hidden({"turn": 1}) == {"turn": 1}
    assert without_prediction(snapshot) == {"turn": 1, "bg_prediction": None}
