"""LoLV order of standings: total points, weighted wins (4.01.09), best game tuple (4.01.10)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dune.points import LoLVSystem, StandingsError, TieAtCutError
from tests.scoring.scoring_helpers import game, row, table

LOLV = LoLVSystem()


def test_4_01_09_more_points_rank_first() -> None:
    """4.01.09: the players with the most points proceed."""
    standings = LOLV.standings(
        [game({"a": "solo_stronghold"}, ("b",)), game({"b": "adjudicated"}, ("c",), round_number=2)]
    )
    assert [(r.player, r.points) for r in standings] == [("a", 3), ("b", Fraction(1, 2)), ("c", 0)]
    assert [r.rank for r in standings] == [1, 2, 3]


def test_4_01_09_example_solo_and_default_beats_two_allied() -> None:
    """4.01.09 example: 4 points from a solo stronghold win and an allied default win enter the
    finals over 4 points from two allied stronghold wins."""
    results = [
        game({"a": "solo_stronghold"}, ("x1",), round_number=1),
        game({"a": "guild_default_allied", "g": "guild_default_allied"}, ("x2",), round_number=2),
        game({"b": "allied_stronghold", "c1": "allied_stronghold"}, ("x3",), round_number=1),
        # b's second allied win has the bigger best-game tuple, which must not matter here.
        game(
            {"b": "allied_stronghold", "c2": "allied_stronghold"},
            ("x4",),
            round_number=2,
            stats={"b": {"win_attempts": 9, "strongholds": 6}},
        ),
    ]
    standings = LOLV.standings(results)
    top = [(r.player, r.points) for r in standings[:2]]
    assert top == [("a", 4), ("b", 4)]
    assert not standings[0].tied


def test_4_01_09_solo_stronghold_outweighs_bg_prediction() -> None:
    """4.01.09: the solo stronghold win is the heaviest, followed by the BG prediction."""
    standings = LOLV.standings(
        [game({"bg": "bg_prediction"}, ("x",)), game({"solo": "solo_stronghold"}, ("y",))]
    )
    assert [r.player for r in standings[:2]] == ["solo", "bg"]


def test_4_01_10_best_game_tuple_example() -> None:
    """4.01.10 example: A's best game scores 2.2.3.8.12.3.3, B's 2.4.2.2.4.2.1; B proceeds over A."""
    a = row("A", "allied_stronghold", win_attempts=2, strongholds=3, forces=8, spice=12, cards=3, leaders=3)
    b = row("B", "allied_stronghold", win_attempts=4, strongholds=2, forces=2, spice=4, cards=2, leaders=1)
    standings = LOLV.standings(
        [
            table(a, row("A2", "allied_stronghold"), row("l1", "loss"), table_id=1),
            table(b, row("B2", "allied_stronghold"), row("l2", "loss"), table_id=2),
        ]
    )
    by_player = {r.player: r for r in standings}
    assert by_player["A"].tiebreak[-7:] == (2, 2, 3, 8, 12, 3, 3)
    assert by_player["B"].tiebreak[-7:] == (2, 4, 2, 2, 4, 2, 1)
    assert by_player["B"].rank < by_player["A"].rank
    explanation = by_player["B"].explanation
    assert "2.4.2.2.4.2.1" not in explanation  # values are named, never a dotted tuple
    assert "best game points (4.01.10) 2, best game win attempts (4.01.10.01) 4" in explanation
    finals = LoLVSystem(finalist_seats=1).finalists([r for r in standings if r.player in ("A", "B")])
    assert finals.finalists == ("B",) and finals.alternates == ("A",)


def test_4_01_10_best_game_is_the_players_greatest_game() -> None:
    """4.01.10: the tuple comes from the best game played this tournament, not the last or a sum."""
    results = [
        game({"p": "solo_stronghold"}, ("x",), stats={"p": {"win_attempts": 1}}),
        game(
            {"p": "allied_stronghold", "q": "allied_stronghold"},
            ("y",),
            round_number=2,
            stats={"p": {"win_attempts": 7}},
        ),
    ]
    p = next(r for r in LOLV.standings(results) if r.player == "p")
    assert p.tiebreak[-7:-5] == (3, 1)


@pytest.mark.parametrize(
    ("rule", "field"),
    [
        ("4.01.10.02", "strongholds"),
        ("4.01.10.03", "forces"),
        ("4.01.10.04", "spice"),
        ("4.01.10.05", "cards"),
        ("4.01.10.06", "leaders"),
    ],
)
def test_4_01_10_each_category_breaks_a_tie_in_turn(rule: str, field: str) -> None:
    """4.01.10.01-.06: equal earlier categories pass the tie on to the next one."""
    base = {"win_attempts": 2, "strongholds": 3, "forces": 5, "spice": 6, "cards": 2, "leaders": 4}
    order = ["strongholds", "forces", "spice", "cards", "leaders"]
    better = dict(base, **{field: base[field] + 1})
    # Anything after the deciding category is worse for the better player, to show it is not read.
    for later in order[order.index(field) + 1 :]:
        better[later] = 0
    standings = LOLV.standings(
        [
            game({"lo": "adjudicated"}, ("x",), stats={"lo": base}),
            game({"hi": "adjudicated"}, ("y",), stats={"hi": better}),
        ]
    )
    assert [r.player for r in standings[:2]] == ["hi", "lo"], rule


def test_4_01_10_true_tie_shares_rank() -> None:
    """4.01.10: players equal on points and every category share their rank (listed by id)."""
    standings = LOLV.standings(
        [game({"b": "solo_stronghold"}, ("y",)), game({"a": "solo_stronghold"}, ("x",))]
    )
    assert [(r.player, r.rank, r.tied) for r in standings] == [
        ("a", 1, True),
        ("b", 1, True),
        ("x", 3, True),
        ("y", 3, True),
    ]


def test_4_01_10_true_tie_across_cut_needs_a_seeded_draw() -> None:
    """4.01.10: ties are broken only until the seats are filled; a tie on everything across the
    cut is refused unless a seeded generator draws lots, and the draw is reported."""
    standings = LOLV.standings(
        [game({"b": "solo_stronghold"}, ("y",)), game({"a": "solo_stronghold"}, ("x",))]
    )
    one_seat = LoLVSystem(finalist_seats=1)
    with pytest.raises(TieAtCutError) as err:
        one_seat.finalists(standings)
    assert err.value.players == ("a", "b") and err.value.rule == "4.01.10"
    first = one_seat.finalists(standings, rng=random.Random(7))
    assert first == one_seat.finalists(standings, rng=random.Random(7))
    assert set(first.finalists) | {first.alternates[0]} == {"a", "b"}
    assert first.alternates[1:] == ("x", "y") and set(first.drawn_by_lot) == {"a", "b"}


def test_4_01_10_tie_below_cut_needs_no_draw() -> None:
    standings = LOLV.standings(
        [game({"b": "solo_stronghold"}, ("y",)), game({"a": "solo_stronghold"}, ("x",))]
    )
    assert LoLVSystem(finalist_seats=2).finalists(standings).alternates == ("x", "y")


def test_4_01_01_one_table_per_round() -> None:
    """4.01.01: a player sits at one table per round; two reports for one round are refused."""
    with pytest.raises(StandingsError, match="two tables in one round"):
        LOLV.standings([game({"a": "solo_stronghold"}, ("x",)), game({"a": "solo_stronghold"}, ("y",))])


def test_lolv_dropout_scores_nothing_but_is_not_disqualified() -> None:
    """LoLV has no dropout penalty: the seat scores 0 and may play on."""
    standings = LOLV.standings(
        [
            table(row("w", "solo_stronghold"), row("d", "dropout"), round_number=1),
            game({"d": "solo_stronghold"}, ("z",), round_number=2),
        ]
    )
    d = next(r for r in standings if r.player == "d")
    assert d.points == 3 and not d.disqualified


def test_finals_results_are_not_qualifying_results() -> None:
    """4.01.09: entry into the finals is decided by the heats; a final among them is refused."""
    with pytest.raises(StandingsError, match="final"):
        LOLV.standings([table(row("a", "solo_stronghold"), row("b", "loss"), is_final=True)])
