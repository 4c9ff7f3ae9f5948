"""The engine's table of result kinds, the names messages use, and a report checked against
the engine's decision of a tracked game."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.ids import ResultKind
from dune.engine.names import faction_name, factions_text, join_names, place_name
from dune.engine.position import Outcome
from dune.engine.results import RESULTS, Way, kind_for, kind_name
from dune.engine.tracked_report_check import check_reported

R = ResultKind


def test_every_kind_has_one_row_with_a_rule_and_a_name() -> None:
    assert set(RESULTS) == set(ResultKind)
    for kind, row in RESULTS.items():
        assert row.kind is kind and row.rule and row.name and row.endings


@pytest.mark.parametrize(
    ("way", "side", "kind"),
    [
        (Way.STRONGHOLD, ("atreides",), R.SOLO_STRONGHOLD),
        (Way.STRONGHOLD, ("atreides", "fremen"), R.ALLIED_STRONGHOLD),
        (Way.STRONGHOLD, ("atreides", "fremen", "guild"), R.THREE_ALLIANCE),
        (Way.PREDICTION, ("bene_gesserit",), R.BG_PREDICTION),
        (Way.GUILD_DEFAULT, ("guild", "emperor"), R.GUILD_DEFAULT_ALLIED),
        (Way.FREMEN_SPECIAL, ("fremen",), R.FREMEN_SPECIAL_SOLO),
        (Way.END_GAME, ("atreides", "emperor"), R.END_GAME_ALLIED),
        (Way.ADJUDICATED, ("atreides", "emperor"), R.ADJUDICATED),
    ],
)
def test_kind_for_a_side(way: Way, side: tuple[str, ...], kind: ResultKind) -> None:
    """AH IV, XII.E.1; LoLV 1.09.02: the kind depends on how the side won and its size."""
    assert kind_for(way, side) is kind
    assert RESULTS[kind].way is way


def test_families_and_needs() -> None:
    """AH IV.A-C.1; LoLV 1.09.05, 2.04.09, 2.06.08: who each victory needs and excludes."""
    assert RESULTS[R.BG_PREDICTION].winner == "bene_gesserit" and RESULTS[R.BG_PREDICTION].prediction
    assert RESULTS[R.FREMEN_DEFAULT_SOLO].absent == {"guild"}
    assert RESULTS[R.END_GAME_SOLO].absent == {"guild", "fremen"}
    assert all(RESULTS[k].end_of_play for k in (R.GUILD_DEFAULT_SOLO, R.END_GAME_ALLIED))
    assert RESULTS[R.ALLIED_STRONGHOLD].stronghold and RESULTS[R.ALLIED_STRONGHOLD].allied
    assert not RESULTS[R.LOSS].won and RESULTS[R.ADJUDICATED].size is None
    assert RESULTS[R.ADJUDICATED].endings == {"time_limit", "turn_limit"}


def test_names_for_people() -> None:
    assert join_names([]) == "nobody"
    assert join_names(["Atreides"]) == "Atreides"
    assert factions_text(["atreides", "fremen"]) == "Atreides and Fremen"
    assert factions_text(["atreides", "bene_gesserit", "choam"]) == "Atreides, Bene Gesserit and CHOAM"
    assert join_names(["a", "b"], last="or") == "a or b"
    assert faction_name("bene_gesserit") == "Bene Gesserit"
    assert place_name("shield_wall@8") == "Shield Wall (sector 8)"
    assert place_name("arrakeen") == "Arrakeen"
    assert kind_name("allied_stronghold") == "an allied stronghold victory"


DECIDED = Outcome(
    winners=("atreides", "fremen"),
    kind="allied_stronghold",
    rule="WBC House Rules",
    ended_by="victory",
    sides=((("atreides", "fremen"), "allied_stronghold"),),
)
AGREES = {
    "atreides": "allied_stronghold",
    "fremen": "allied_stronghold",
    "harkonnen": "loss",
    "guild": "dropout",
}


def test_report_agreeing_with_the_engine_passes() -> None:
    check_reported(DECIDED, AGREES, ended_by="victory")


def test_report_naming_another_winner_is_refused_with_the_deciding_rule() -> None:
    """A tracked game's report cannot crown a faction the engine did not."""
    with pytest.raises(IllegalAction) as info:
        check_reported(DECIDED, {**AGREES, "harkonnen": "allied_stronghold"}, ended_by="victory")
    err = info.value
    assert err.rule == "WBC House Rules" and err.input == "harkonnen"
    assert err.message == (
        "the recorded game says Atreides and Fremen won with an allied stronghold victory; Harkonnen did not win"
    )


def test_report_with_another_kind_or_ending_is_refused() -> None:
    with pytest.raises(IllegalAction) as info:
        check_reported(DECIDED, {**AGREES, "fremen": "loss"}, ended_by="victory")
    assert (
        info.value.input == "fremen"
        and "Fremen won with an allied stronghold victory, not a loss" in info.value.message
    )
    with pytest.raises(IllegalAction) as info:
        check_reported(DECIDED, AGREES, ended_by="concession")
    assert info.value.message == "the recorded game ended by a victory, not by a concession"
