"""Validation of whole game reports: shape, one winning side, allies, BG prediction, kinds in
the format, endings. Every refusal names the row (player), the field and the rule."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dune.engine.ids import ResultKind
from dune.points import (
    ReportError,
    ReportShapeError,
    ResultKindError,
    UnknownSystemError,
    WinnersContradictResultError,
)
from tests.scoring.scoring_helpers import validated

SEATS = {1: "atreides", 2: "bene_gesserit", 3: "emperor", 4: "fremen", 5: "harkonnen", 6: "guild"}
NO_GUILD = {1: "atreides", 2: "bene_gesserit", 3: "emperor", 4: "fremen", 5: "harkonnen"}
NO_GUILD_NO_FREMEN = {1: "atreides", 2: "bene_gesserit", 3: "emperor", 5: "harkonnen"}


def report(
    results: dict[int, str],
    *,
    seats: dict[int, str] = SEATS,
    ended_by: str = "victory",
    extra: dict[int, dict[str, Any]] | None = None,
    **top: Any,
) -> dict[str, Any]:
    extra = extra or {}
    rows = [{"player": p, "result": results.get(p, "loss"), **extra.get(p, {})} for p in seats]
    return {"turns": 7, "ended_by": ended_by, "results": rows, **top}


def test_valid_report_becomes_table_result_with_missing_numbers_zero() -> None:
    """WBC Advancement to Finals: unrecorded statistics count as 0; JSON decimals stay exact."""
    got = validated(
        "wbc",
        report({1: "solo_stronghold"}, extra={1: {"tokens": 9.5, "pp": 0.1, "spice": 4}}),
        SEATS,
        table=12,
        round_number=2,
    )
    first = got.row(1)
    assert first.result is ResultKind.SOLO_STRONGHOLD and first.faction == "atreides"
    assert first.tokens == Fraction(19, 2) and first.pp == Fraction(1, 10) and first.spice == 4
    assert got.row(2).criteria() == (0, 0, 0, 0, 0, 0)
    assert (got.table, got.round_number, got.turns, got.players_at_start) == (12, 2, 7, 6)


def test_decimal_strings_are_read_exactly() -> None:
    got = validated(
        "wbc", report({1: "solo_stronghold"}, extra={1: {"pp": "9.5", "tokens": Decimal("1.5")}}), SEATS
    )
    assert got.row(1).pp == Fraction(19, 2) and got.row(1).tokens == Fraction(3, 2)


def _refused(exc: type[ReportError], fmt: str, rep: object, seats: dict[int, str] = SEATS) -> ReportError:
    with pytest.raises(exc) as err:
        validated(fmt, rep, seats)
    return err.value


# --- bad input named in the issue ---


def test_bad_input_two_winners_for_a_solo_win_lolv_4_01_12() -> None:
    """LoLV 4.01.12: when two could win, only the first in storm order does; two solo winners are refused."""
    err = _refused(WinnersContradictResultError, "lolv", report({1: "solo_stronghold", 3: "solo_stronghold"}))
    assert err.rule == "4.01.12" and err.player == 3 and err.field == "result"
    assert "row 3, field 'result'" in str(err) and "4.01.12" in str(err)


def test_wbc_qp_two_simultaneous_solo_victories_allowed() -> None:
    """WBC QP: two simultaneous solo victories are possible after the Shield Wall opens."""
    got = validated("wbc", report({1: "solo_stronghold", 3: "solo_stronghold"}), SEATS)
    assert [r.player for r in got.rows if r.won] == [1, 3]


def test_bad_input_three_solo_winners_refused_even_in_wbc() -> None:
    err = _refused(
        WinnersContradictResultError,
        "wbc",
        report({1: "solo_stronghold", 3: "solo_stronghold", 5: "solo_stronghold"}),
    )
    assert err.player == 3


def test_bad_input_two_guild_default_winners() -> None:
    """AH IV.C: the Guild default is won by the Guild alone."""
    err = _refused(
        WinnersContradictResultError,
        "wbc",
        report({6: "guild_default_solo", 1: "guild_default_solo"}),
    )
    assert "AH IV.C" in err.rule


def test_bad_input_kind_the_format_lacks() -> None:
    """1.10.01.03 / AH IV.C.1: a kind the ruleset cannot produce is refused with the ruleset's
    rule; one it can but the points table has no line for, with the points table's rule."""
    err = _refused(
        WinnersContradictResultError,
        "lolv",
        report({1: "three_alliance", 3: "three_alliance", 5: "three_alliance"}),
    )
    assert err.rule == "1.10.01.03" and err.player == 1 and err.field == "result"
    err = _refused(
        ResultKindError,
        "wbc",
        report({1: "end_game_solo"}, seats=NO_GUILD_NO_FREMEN, ended_by="turn_limit"),
        NO_GUILD_NO_FREMEN,
    )
    assert "AH IV.C.1" in err.rule


def test_bad_input_unknown_kind() -> None:
    err = _refused(ResultKindError, "lolv", report({1: "win"}))
    assert err.player == 1 and err.value == "win"


def test_bad_input_bg_prediction_won_by_non_bg() -> None:
    """AH IV.A; LoLV 2.02.03: only the Bene Gesserit wins by prediction."""
    err = _refused(WinnersContradictResultError, "lolv", report({3: "bg_prediction"}))
    assert err.player == 3 and "2.02.03" in err.rule


def test_bad_input_bg_prediction_with_second_winner() -> None:
    """AH IV.A: the prediction means the BG alone has won."""
    err = _refused(WinnersContradictResultError, "wbc", report({2: "bg_prediction", 1: "solo_stronghold"}))
    assert err.field == "result"


def test_bg_prediction_allowed_when_bg_is_allied_with_loser() -> None:
    """AH IV.A: the BG wins alone even when the predicted winner is the BG's ally."""
    got = validated("wbc", report({2: "bg_prediction"}, alliances=[[2, 5]], predicted=5), SEATS)
    assert got.ally_of(2) == (5,) and got.predicted == 5


def test_bad_input_predicted_player_is_bg() -> None:
    """AH III.E.1.a (WBC III.2): the BG predicts another player."""
    err = _refused(WinnersContradictResultError, "wbc", report({2: "bg_prediction"}, predicted=2))
    assert err.field == "predicted" and err.rule == "WBC III.2" and err.player == 2 and err.value == 2


def test_bad_input_allied_win_with_one_or_three_rows() -> None:
    """Alliance glossary / WBC QP: a 2-faction alliance win has two winners; three is 'three_alliance'."""
    err = _refused(WinnersContradictResultError, "lolv", report({1: "allied_stronghold"}))
    assert "exactly two" in str(err)
    err = _refused(
        WinnersContradictResultError,
        "wbc",
        report({1: "allied_stronghold", 3: "allied_stronghold", 5: "allied_stronghold"}),
    )
    assert "three_alliance" in str(err)


def test_bad_input_allies_must_share_result() -> None:
    """Issue 6, allies share a result: winners sharing an allied kind must be one recorded alliance."""
    err = _refused(
        WinnersContradictResultError,
        "wbc",
        report({1: "allied_stronghold", 3: "allied_stronghold"}, alliances=[[1, 5]]),
    )
    assert err.field == "alliances" and err.player == 1


def test_allied_dropout_does_not_share_the_result() -> None:
    """WBC Dropouts: a dropout's pieces leave the game, so an ally who dropped out shares nothing."""
    ok = validated(
        "wbc",
        report({1: "allied_stronghold", 3: "allied_stronghold", 5: "dropout"}, alliances=[[1, 3], [4, 5]]),
        SEATS,
    )
    assert ok.row(5).result is ResultKind.DROPOUT and ok.ally_of(4) == (5,)


def test_wbc_solo_victory_while_allied_refused() -> None:
    """WBC House Rules: solo victories while allied are not possible."""
    err = _refused(WinnersContradictResultError, "wbc", report({1: "solo_stronghold"}, alliances=[[1, 5]]))
    assert err.player == 1 and err.rule == "WBC IV.2" and "while allied" in str(err)


def test_wbc_three_alliance_needs_six_seats_and_three_rows() -> None:
    """WBC House Rules: 3-faction alliances only at 6-player tables, with three members."""
    ok = validated(
        "wbc", report({1: "three_alliance", 3: "three_alliance", 5: "three_alliance"}), SEATS
    )
    assert sum(r.won for r in ok.rows) == 3
    err = _refused(
        WinnersContradictResultError,
        "wbc",
        report({1: "three_alliance", 3: "three_alliance", 5: "three_alliance"}, seats=NO_GUILD),
        NO_GUILD,
    )
    assert "6-player" in str(err) and err.rule == "WBC house rules (alliances)"
    err = _refused(WinnersContradictResultError, "wbc", report({1: "three_alliance", 3: "three_alliance"}))
    assert "exactly three" in str(err)


def test_wbc_final_round_format_no_three_faction_alliance_at_the_final() -> None:
    """WBC Final Round Format: the final uses the heats' rules except that three-faction
    alliances may not form; a six-player heat may have one."""
    rep = report({1: "three_alliance", 3: "three_alliance", 5: "three_alliance"})
    assert validated("wbc", rep, SEATS).turns == 7
    with pytest.raises(WinnersContradictResultError) as err:
        validated("wbc", rep, SEATS, is_final=True)
    assert err.value.rule == "WBC Final Round Format" and "final" in str(err.value)
    allied = report({1: "allied_stronghold", 3: "allied_stronghold"}, alliances=[[1, 3, 5]])
    with pytest.raises(WinnersContradictResultError) as err:
        validated("wbc", allied, SEATS, is_final=True)
    assert err.value.field == "alliances" and err.value.rule == "WBC Final Round Format"


def test_fremen_default_needs_fremen_winner_and_guild_absent() -> None:
    """AH IV.C.1; LoLV 1.09.05: with the Guild absent the Fremen win at the end of play."""
    ok = validated(
        "lolv", report({4: "fremen_default_solo"}, seats=NO_GUILD, ended_by="turn_limit"), NO_GUILD
    )
    assert ok.row(4).won
    err = _refused(
        WinnersContradictResultError, "lolv", report({4: "fremen_default_solo"}, ended_by="turn_limit")
    )
    assert "Guild is not in the game" in str(err)
    err = _refused(
        WinnersContradictResultError,
        "lolv",
        report({1: "fremen_default_solo"}, seats=NO_GUILD, ended_by="turn_limit"),
        NO_GUILD,
    )
    assert err.player == 1


def test_lolv_2_04_09_00_fremen_special_needs_guild_in_game() -> None:
    """LoLV 2.04.09.00: the Fremen special victory applies when the Guild is in the game."""
    assert (
        validated("lolv", report({4: "fremen_special_solo"}, ended_by="turn_limit"), SEATS).row(4).won
    )
    err = _refused(
        WinnersContradictResultError,
        "lolv",
        report({4: "fremen_special_solo"}, seats=NO_GUILD, ended_by="turn_limit"),
        NO_GUILD,
    )
    assert err.rule == "2.04.09.00"


def test_guild_default_allied_needs_guild_among_winners() -> None:
    """AH IV.C; LoLV 2.06.11: the Guild's ally wins with the Guild."""
    ok = validated(
        "lolv", report({6: "guild_default_allied", 1: "guild_default_allied"}, ended_by="turn_limit"), SEATS
    )
    assert sum(r.won for r in ok.rows) == 2
    err = _refused(
        WinnersContradictResultError,
        "lolv",
        report({3: "guild_default_allied", 1: "guild_default_allied"}, ended_by="turn_limit"),
    )
    assert "Guild among the winners" in str(err)


def test_lolv_1_09_05_end_game_ties_all_win_without_guild_or_fremen() -> None:
    """LoLV 1.09.05: with neither Guild nor Fremen, the most strongholds win; all who qualify win."""
    ok = validated(
        "lolv",
        report({1: "end_game_solo", 3: "end_game_solo"}, seats=NO_GUILD_NO_FREMEN, ended_by="turn_limit"),
        NO_GUILD_NO_FREMEN,
    )
    assert sum(r.won for r in ok.rows) == 2
    err = _refused(WinnersContradictResultError, "lolv", report({1: "end_game_solo"}, ended_by="turn_limit"))
    assert "neither the Fremen nor the Guild is in the game" in str(err)


def test_adjudicated_game_scores_as_adjudicated_and_needs_a_limit() -> None:
    """WBC Adjudication; LoLV 4.01.08: an unfinished game is adjudicated when time or turns run out."""
    ok = validated(
        "lolv", report({1: "adjudicated", 5: "adjudicated"}, ended_by="time_limit", alliances=[[1, 5]]), SEATS
    )
    assert [r.player for r in ok.rows if r.won] == [1, 5]
    err = _refused(WinnersContradictResultError, "wbc", report({1: "adjudicated"}, ended_by="victory"))
    assert "cannot end a game by a victory" in str(err) and "the time limit or the turn limit" in str(err)
    err = _refused(
        WinnersContradictResultError,
        "wbc",
        report({1: "adjudicated"}, ended_by="time_limit", alliances=[[1, 5]]),
    )
    assert err.player == 5


def test_stronghold_win_cannot_end_by_time_limit() -> None:
    err = _refused(
        WinnersContradictResultError, "lolv", report({1: "solo_stronghold"}, ended_by="time_limit")
    )
    assert err.player == 1


def test_concession_is_recorded_as_the_conceded_stronghold_win() -> None:
    """WBC Concessions: a conceded game is recorded as the stronghold victory it concedes."""
    ok = validated(
        "wbc", report({1: "allied_stronghold", 5: "allied_stronghold"}, ended_by="concession"), SEATS
    )
    assert ok.ended_by == "concession"
    err = _refused(
        WinnersContradictResultError, "wbc", report({6: "guild_default_solo"}, ended_by="concession")
    )
    assert err.player == 6


def test_no_winner_refused() -> None:
    err = _refused(WinnersContradictResultError, "lolv", report({}))
    assert err.field == "results" and err.player is None


def test_shape_one_row_per_seated_player() -> None:
    """Issue 6: one row per seated player; no row for a stranger, none twice, none missing."""
    rep = report({1: "solo_stronghold"})
    err = _refused(ReportShapeError, "wbc", {**rep, "results": rep["results"][:-1]})
    assert err.player == 6 and "no row" in str(err)
    err = _refused(
        ReportShapeError, "wbc", {**rep, "results": [*rep["results"], {"player": 1, "result": "loss"}]}
    )
    assert err.player == 1 and "two rows" in str(err)
    err = _refused(
        ReportShapeError, "wbc", {**rep, "results": [*rep["results"], {"player": 99, "result": "loss"}]}
    )
    assert err.player == 99


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"spice": -1}, "spice"),
        ({"cards": 1.5}, "cards"),
        ({"forces": True}, "forces"),
        ({"tokens": "lots"}, "tokens"),
        ({"pp": -0.5}, "pp"),
        ({"stronghold": 3}, "stronghold"),
        ({"faction": "emperor"}, "faction"),
    ],
)
def test_shape_bad_row_field_names_row_and_field(change: dict[str, Any], field: str) -> None:
    err = _refused(ReportShapeError, "wbc", report({1: "solo_stronghold"}, extra={1: change}))
    assert err.player == 1 and err.field == field


@pytest.mark.parametrize(
    ("top", "field"),
    [
        ({"turns": 0}, "turns"),
        ({"turns": 16}, "turns"),
        ({"turns": "7"}, "turns"),
        ({"ended_by": "boredom"}, "ended_by"),
        ({"results": []}, "results"),
        ({"results": "x"}, "results"),
        ({"winner": 1}, "winner"),
        ({"alliances": [[1]]}, "alliances"),
        ({"alliances": [[1, 3, 3]]}, "alliances"),
    ],
)
def test_shape_bad_top_level_field(top: dict[str, Any], field: str) -> None:
    err = _refused(ReportShapeError, "wbc", {**report({1: "solo_stronghold"}), **top})
    assert err.field == field


def test_wbc_house_rules_a_player_in_two_alliances_is_refused() -> None:
    """WBC house rules (alliances; AH XII.C.4): no faction belongs to two alliances at once."""
    err = _refused(
        WinnersContradictResultError, "wbc", report({1: "solo_stronghold"}, alliances=[[1, 3], [3, 5]])
    )
    assert err.field == "alliances" and err.player == 3 and err.rule == "WBC house rules (alliances)"


def test_not_a_mapping_and_unknown_format() -> None:
    assert _refused(ReportShapeError, "wbc", ["no"]).field == "report"
    with pytest.raises(UnknownSystemError):
        validated("diplomacy", report({1: "solo_stronghold"}), SEATS)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 10)
    | st.floats(allow_nan=True)
    | st.text(max_size=5)
    | st.sampled_from([r.value for r in ResultKind]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
row_values = st.fixed_dictionaries(
    {"player": st.sampled_from([1, 2, 3, "x", None, [1]]), "result": json_values},
    optional={k: json_values for k in ("tokens", "pp", "spice", "strongholds", "faction", "die", "bogus")},
)


@settings(max_examples=300, deadline=None)
@given(
    fmt=st.sampled_from(["lolv", "wbc"]),
    report=st.one_of(
        json_values,
        st.fixed_dictionaries(
            {
                "turns": st.one_of(st.integers(0, 16), json_values),
                "ended_by": st.sampled_from(["victory", "turn_limit", "time_limit", "concession", "x"]),
                "results": st.lists(row_values, max_size=7),
            },
            optional={"alliances": json_values, "predicted": json_values},
        ),
    ),
)
def test_any_input_is_accepted_or_refused_with_a_report_error(fmt: str, report: Any) -> None:
    """Whatever arrives, validation answers a TableResult or raises a ReportError; nothing else."""
    seats = {1: "atreides", 2: "bene_gesserit", 3: "fremen"}
    try:
        validated(fmt, report, seats)
    except ReportError as err:
        assert err.rule and isinstance(err.field, str)
