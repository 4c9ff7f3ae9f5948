"""WBC 2018: qualifying score, best-game ties, finalists and alternates, dropouts, finals
placings and best-faction awards."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dune.points import (
    StandingsError,
    WBCSystem,
    WinnersContradictResultError,
    best_faction_awards,
    final_placings,
    normalised_pp,
)
from dune.points.numbers import fmt
from tests.scoring.scoring_helpers import game, row, table

WBC = WBCSystem()


def test_wbc_qualifying_score_is_the_sum_over_heats() -> None:
    """WBC Advancement to Finals: the qualifying score totals the QPs of every heat played."""
    standings = WBC.standings(
        [
            game({"a": "allied_stronghold", "b": "allied_stronghold"}, ("c",), round_number=1),
            game({"a": "adjudicated"}, ("b",), round_number=2),
            game({"a": "guild_default_allied", "c": "guild_default_allied"}, ("b",), round_number=3),
        ]
    )
    assert {r.player: r.points for r in standings} == {"a": 2, "b": 1, "c": Fraction(1, 2)}


def test_wbc_two_simultaneous_solo_victories_both_full_credit() -> None:
    """WBC QP: two unallied players winning solo at once each get the full solo credit."""
    result = table(row("a", "solo_stronghold"), row("b", "solo_stronghold"), row("c", "loss"))
    assert WBC.scores(result) == {"a": 2, "b": 2, "c": 0}


def test_wbc_tie_broken_by_best_single_game_qp() -> None:
    """WBC Advancement to Finals: ties go to the best single game, first by its QP."""
    standings = WBC.standings(
        [
            game(
                {"two_halves": "adjudicated"},
                ("x",),
                round_number=1,
                stats={"two_halves": {"strongholds": 5}},
            ),
            game({"two_halves": "adjudicated"}, ("y",), round_number=2),
            game({"one": "allied_stronghold", "z": "allied_stronghold"}, ("w",), round_number=1),
        ]
    )
    order = [r.player for r in standings]
    assert standings[order.index("two_halves")].points == standings[order.index("one")].points == 1
    assert order.index("one") < order.index("two_halves")


@pytest.mark.parametrize("criterion", ["strongholds", "tokens", "spice", "cards", "leaders", "die"])
def test_wbc_tie_broken_by_adjudication_criteria_in_order(criterion: str) -> None:
    """WBC Advancement to Finals: equal best-game QP goes to the adjudication criteria in order
    (strongholds, tokens, spice, cards, leaders, die roll)."""
    order = ["strongholds", "tokens", "spice", "cards", "leaders", "die"]
    base = {"strongholds": 2, "tokens": Fraction(15, 2), "spice": 9, "cards": 3, "leaders": 4, "die": 3}
    better = dict(base, **{criterion: base[criterion] + 1})
    for later in order[order.index(criterion) + 1 :]:
        better[later] = 0
    standings = WBC.standings(
        [
            game({"lo": "solo_stronghold"}, ("x",), stats={"lo": base}),
            game({"hi": "solo_stronghold"}, ("y",), stats={"hi": better}),
        ]
    )
    assert [r.player for r in standings[:2]] == ["hi", "lo"]


def test_wbc_missing_tiebreak_values_count_as_zero() -> None:
    """WBC Advancement to Finals: unrecorded tiebreak values are taken as 0."""
    standings = WBC.standings(
        [
            game({"recorded": "solo_stronghold"}, ("x",), stats={"recorded": {"spice": 1}}),
            game({"blank": "solo_stronghold"}, ("y",)),
        ]
    )
    assert [r.player for r in standings[:2]] == ["recorded", "blank"]
    assert standings[1].tiebreak == (2, 0, 0, 0, 0, 0, 0)


def _field(n: int) -> list:
    """n winners with descending spice, one table each, plus losers."""
    return [
        game({f"p{i}": "solo_stronghold"}, (f"l{i}",), stats={f"p{i}": {"spice": 100 - i}}) for i in range(n)
    ]


def test_wbc_top_six_are_finalists_rest_alternates_in_order() -> None:
    """WBC Advancement to Finals: the six highest qualifying scores advance; alternates are the
    non-qualifiers in qualifying order (ties by each one's best game)."""
    standings = WBC.standings(_field(8))
    finals = WBC.finalists(standings)
    assert finals.finalists == tuple(f"p{i}" for i in range(6))
    assert finals.alternates[:2] == ("p6", "p7")
    assert len(finals.alternates) == 10 and finals.drawn_by_lot == ()


def test_wbc_dropout_is_disqualified_from_final() -> None:
    """WBC Dropouts: a player who drops out is barred from later games and the final."""
    results = _field(6) + [
        table(row("quitter", "solo_stronghold", spice=200), row("q", "loss"), round_number=1, table_id="t"),
        table(row("quitter", "dropout"), row("w", "solo_stronghold"), round_number=2, table_id="u"),
    ]
    standings = WBC.standings(results)
    quitter = next(r for r in standings if r.player == "quitter")
    assert quitter.disqualified and quitter.points == 2
    assert standings[-1].player == "quitter"
    assert "Dropouts" in quitter.explanation
    finals = WBC.finalists(standings)
    assert "quitter" not in finals.finalists + finals.alternates


def test_wbc_dropout_cannot_be_seated_later() -> None:
    """WBC Dropouts: the dropout is disqualified from all further games."""
    with pytest.raises(StandingsError, match="dropped out in round 1"):
        WBC.standings(
            [
                table(row("d", "dropout"), row("w", "solo_stronghold"), round_number=1),
                table(row("d", "solo_stronghold"), row("v", "loss"), round_number=2),
            ]
        )


# --- finals placings (WBC Final Round Format) ---


def _final(*rows, **kw):
    return table(*rows, is_final=True, **kw)


def test_wbc_final_solo_winner_first_rest_by_strongholds() -> None:
    """Final Round Format: remaining places go by strongholds, then the adjudication criteria."""
    placings = final_placings(
        _final(
            row("w", "solo_stronghold", strongholds=3),
            row("a", "loss", strongholds=1, tokens=20),
            row("b", "loss", strongholds=2),
            row("c", "loss", strongholds=1, tokens=5),
        )
    )
    assert [(p.place, p.player) for p in placings] == [(1, "w"), (2, "b"), (3, "a"), (4, "c")]


def test_wbc_final_fremen_default_fremen_first() -> None:
    """Final Round Format: in a Fremen default the Fremen player is 1st, the ally 2nd."""
    placings = final_placings(
        _final(
            row("ally", "fremen_default_allied", faction="harkonnen", strongholds=3),
            row("fr", "fremen_default_allied", faction="fremen"),
            row("x", "loss", faction="atreides"),
        )
    )
    assert [p.player for p in placings] == ["fr", "ally", "x"]


def test_wbc_final_guild_default_guild_first() -> None:
    """Final Round Format: in a Guild default the Guild player is 1st."""
    placings = final_placings(
        _final(
            row("ally", "guild_default_allied", faction="emperor", strongholds=2),
            row("gu", "guild_default_allied", faction="guild"),
            row("x", "loss", faction="atreides"),
        )
    )
    assert [p.player for p in placings][:2] == ["gu", "ally"]


def test_wbc_final_alliance_split_by_criteria() -> None:
    """Final Round Format: otherwise the ally ahead on the adjudication criteria is 1st."""
    placings = final_placings(
        _final(
            row("a", "allied_stronghold", strongholds=2, tokens=4),
            row("b", "allied_stronghold", strongholds=2, tokens=9),
            row("x", "loss", strongholds=1),
        )
    )
    assert [(p.place, p.player) for p in placings] == [(1, "b"), (2, "a"), (3, "x")]


def test_wbc_final_bg_prediction_places() -> None:
    """Final Round Format exception: BG 1st, predicted player 2nd, that player's ally 3rd."""
    placings = final_placings(
        _final(
            row("bg", "bg_prediction", faction="bene_gesserit"),
            row("pred", "loss", strongholds=0),
            row("pal", "loss", strongholds=0),
            row("big", "loss", strongholds=2),
            predicted="pred",
            alliances=(frozenset({"pred", "pal"}),),
        )
    )
    assert [p.player for p in placings] == ["bg", "pred", "pal", "big"]


def test_wbc_final_bg_prediction_needs_the_predicted_player() -> None:
    with pytest.raises(WinnersContradictResultError, match="predicted"):
        final_placings(_final(row("bg", "bg_prediction"), row("x", "loss")))


def test_wbc_final_two_simultaneous_solo_wins_by_criteria() -> None:
    """Final Round Format: two simultaneous solo victories are ordered by the criteria."""
    placings = final_placings(
        _final(
            row("a", "solo_stronghold", strongholds=3, spice=2),
            row("b", "solo_stronghold", strongholds=3, spice=8),
            row("x", "loss"),
        )
    )
    assert [p.player for p in placings] == ["b", "a", "x"]


def test_wbc_final_refuses_three_faction_alliance() -> None:
    """Final Round Format: three-faction alliances may not be formed in the final."""
    with pytest.raises(WinnersContradictResultError, match="three-faction"):
        final_placings(
            _final(row("a", "three_alliance"), row("b", "three_alliance"), row("c", "three_alliance"))
        )


def test_wbc_final_dropout_last_and_exact_ties_share_place() -> None:
    placings = final_placings(
        _final(
            row("w", "solo_stronghold"),
            row("d", "dropout"),
            row("a", "loss", spice=1),
            row("b", "loss", spice=1),
        )
    )
    assert [(p.place, p.tied, p.player) for p in placings] == [
        (1, False, "w"),
        (2, True, "a"),
        (2, True, "b"),
        (4, False, "d"),
    ]


# --- best-faction awards (WBC Best Faction Awards) ---


def test_wbc_best_faction_example_9_5_pp_7_turns_5_players() -> None:
    """Best Faction Awards example: 9.5 PP over 7 turns at a 5-player table is 9.5/7 x 5/6 = 1.131."""
    score = normalised_pp(Fraction(19, 2), turns=7, players=5)
    assert score == Fraction(19, 2) / 7 * Fraction(5, 6)
    assert fmt(score) == "1.131"
    assert normalised_pp(Fraction(19, 2), turns=7, players=6) == Fraction(19, 14)


def test_wbc_best_faction_award_best_game_per_faction_over_heats() -> None:
    """Best Faction Awards: the highest normalised PP of a single heat game per faction wins."""
    five = ("atreides", "bene_gesserit", "emperor", "fremen", "guild")
    heat1 = table(
        *(
            row(f"h1{f}", "loss" if f != "guild" else "guild_default_solo", faction=f, pp=Fraction(19, 2))
            for f in five
        ),
        turns=7,
        round_number=1,
    )
    heat2 = table(
        *(
            row(f"h2{f}", "loss" if f != "guild" else "guild_default_solo", faction=f, pp=Fraction(9))
            for f in (*five, "harkonnen")
        ),
        turns=7,
        round_number=2,
    )
    awards = {a.faction: a for a in best_faction_awards([heat1, heat2])}
    # 9.5/7*5/6 = 1.131 loses to 9/7 = 1.286 at six players.
    assert awards["atreides"].player == "h2atreides"
    assert awards["harkonnen"].score == Fraction(9, 7)
    assert len(awards) == 6


def test_wbc_best_faction_award_excludes_dropouts() -> None:
    """WBC Dropouts: a dropout loses Best Faction Award consideration, even for another heat."""
    heat1 = table(
        row("star", "solo_stronghold", faction="fremen", pp=30),
        row("o", "loss", faction="emperor"),
        round_number=1,
    )
    heat2 = table(
        row("star", "dropout", faction="atreides"),
        row("m", "solo_stronghold", faction="fremen", pp=1),
        round_number=2,
    )
    awards = best_faction_awards([heat1, heat2])
    assert [(a.faction, a.player) for a in awards] == [("emperor", "o"), ("fremen", "m")]


def test_wbc_best_faction_award_true_tie_lists_both() -> None:
    heat = table(
        row("a", "loss", faction="fremen", pp=7),
        row("b", "solo_stronghold", faction="guild", pp=7),
        round_number=1,
    )
    heat2 = table(
        row("c", "loss", faction="fremen", pp=7),
        row("d", "solo_stronghold", faction="guild", pp=1),
        round_number=2,
    )
    fremen = [a for a in best_faction_awards([heat, heat2]) if a.faction == "fremen"]
    assert [(a.player, a.tied) for a in fremen] == [("a", True), ("c", True)]
