"""Report refusals name players and factions by their names, and a tracked game's report is
held to the engine's decision."""

from __future__ import annotations

import pytest

from dune.engine.position import Outcome
from dune.points import (
    ReportError,
    ReportShapeError,
    WinnersContradictResultError,
)
from tests.scoring.scoring_helpers import validated

from .test_scoring_report import SEATS, report

NAMES = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di", 5: "Ed", 6: "Flo"}


def test_two_winning_sides_named_by_player_names() -> None:
    """LoLV 4.01.12: one winning side; the message names both players, never their ids."""
    with pytest.raises(WinnersContradictResultError) as info:
        validated("lolv", report({1: "solo_stronghold", 3: "bg_prediction"}), SEATS, names=NAMES)
    err = info.value
    assert err.player == 3 and err.field == "result" and err.value == "bg_prediction"
    assert str(err).startswith("row Cy, field 'result': ") and err.player_name == "Cy"
    assert (
        "Cy wins with a Bene Gesserit prediction victory while Ann wins with a solo stronghold victory"
        in str(err)
    )


def test_unseated_and_missing_players_named() -> None:
    rep = report({1: "solo_stronghold"})
    rep["results"] = [r for r in rep["results"] if r["player"] != 6]
    with pytest.raises(ReportShapeError) as info:
        validated("wbc", rep, SEATS, names=NAMES)
    assert "Flo has no row; one row per seated player" in str(info.value)
    assert info.value.rule == "WBC Advancement to Finals (game record)"


def test_faction_mismatch_names_the_faction() -> None:
    rep = report({1: "solo_stronghold"}, extra={2: {"faction": "emperor"}})
    with pytest.raises(ReportShapeError) as info:
        validated("lolv", rep, SEATS, names=NAMES)
    assert "row Bo, field 'faction': Bo plays Bene Gesserit at this table, not emperor" in str(info.value)
    assert info.value.rule.startswith("4.01.07")


def test_solo_winner_while_allied_names_the_ally() -> None:
    with pytest.raises(WinnersContradictResultError) as info:
        validated("wbc", report({1: "solo_stronghold"}, alliances=[[1, 5]]), SEATS, names=NAMES)
    assert "Ann cannot win a solo stronghold victory while allied with Ed" in str(info.value)
    assert "['" not in str(info.value)


DECIDED = Outcome(
    winners=("harkonnen",),
    kind="solo_stronghold",
    rule="AH IV",
    ended_by="victory",
    sides=((("harkonnen",), "solo_stronghold"),),
)


def test_tracked_game_report_must_agree_with_the_engine() -> None:
    """AH IV: the engine decided Harkonnen won alone; a report crowning the Atreides is refused."""
    with pytest.raises(WinnersContradictResultError) as info:
        validated("wbc", report({1: "solo_stronghold"}), SEATS, names=NAMES, decided=DECIDED)
    err = info.value
    assert err.rule == "AH IV" and err.player == 1 and err.field == "result"
    assert "the recorded game says Harkonnen won with a solo stronghold victory; Atreides did not win" in str(
        err
    )
    got = validated("wbc", report({5: "solo_stronghold"}), SEATS, names=NAMES, decided=DECIDED)
    assert [r.player for r in got.rows if r.won] == [5]


def test_tracked_game_report_with_another_ending_is_refused() -> None:
    with pytest.raises(WinnersContradictResultError) as info:
        validated("wbc", report({5: "solo_stronghold"}, ended_by="concession"), SEATS, decided=DECIDED)
    assert info.value.field == "ended_by" and info.value.player is None


def test_kind_the_ruleset_lacks_named_in_words() -> None:
    """1.10.01.03: an LoLV alliance joins two players, so there is no three-faction alliance victory."""
    rep = report({1: "three_alliance", 3: "three_alliance", 5: "three_alliance"})
    with pytest.raises(WinnersContradictResultError) as info:
        validated("lolv", rep, SEATS, names=NAMES)
    assert str(info.value).startswith(
        "row Ann, field 'result': no three-faction alliance victory here: an alliance has at most 2 factions"
    )
    assert info.value.rule == "1.10.01.03"


@pytest.mark.parametrize(
    "extra",
    [
        {"alliances": [[1, 99]]},
        {"alliances": [[1, 5], [5, 3]]},
        {"predicted": 2},
        {"results": [{"player": 1, "result": "solo_stronghold", "spice": [1]}]},
        {"results": [{"player": 1, "result": "win"}]},
    ],
)
def test_shape_refusals_show_no_python_reprs(extra: dict[str, object]) -> None:
    """Bad input is named in words: no lists or dicts printed as Python shows them."""
    with pytest.raises(ReportError) as info:
        validated("wbc", report({1: "solo_stronghold"}) | extra, SEATS, names=NAMES)
    text = str(info.value)
    assert "[" not in text and "{" not in text, text
