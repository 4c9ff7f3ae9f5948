"""The pure ratings model: Plackett-Luce with openskill's defaults, one team per player,
winners sharing rank 1 and everyone else rank 2."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from dune.ratings.compute import Game, Rating, RatingInputError, Seat, initial, replay


def game(key: int, *seats: tuple[str, bool]) -> Game:
    return Game(key=key, seats=tuple(Seat(who=w, won=won) for w, won in seats))


def test_one_game_matches_openskill_with_defaults() -> None:
    """An allied win of two at a table of five: the allies share rank 1, the others rank 2."""
    ratings, steps = replay([game(1, ("a", True), ("b", True), ("c", False), ("d", False), ("e", False))])
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(5)], ranks=[1, 1, 2, 2, 2])
    for who, team in zip("abcde", expected, strict=True):
        assert ratings[who].mu == pytest.approx(team[0].mu, abs=1e-12)
        assert ratings[who].sigma == pytest.approx(team[0].sigma, abs=1e-12)
        assert ratings[who].games == 1
    assert ratings["a"].mu > 25 > ratings["c"].mu
    assert ratings["a"].ordinal == pytest.approx(ratings["a"].mu - 3 * ratings["a"].sigma)
    assert [s.who for s in steps] == list("abcde")


def test_games_carry_ratings_forward_in_the_order_given() -> None:
    games = [
        game(1, ("a", True), ("b", False), ("c", False)),
        game(2, ("a", False), ("b", True), ("d", False)),
    ]
    forward, _ = replay(games)
    backward, _ = replay(list(reversed(games)))
    assert forward["a"] != backward["a"]
    assert forward["a"].games == 2 and forward["d"].games == 1


def test_replaying_in_two_parts_equals_one_pass() -> None:
    games = [game(k, ("a", k % 2 == 0), ("b", k % 3 == 0), ("c", False), ("d", k == 5)) for k in range(8)]
    whole, _ = replay(games)
    half, _ = replay(games[:3])
    rest, _ = replay(games[3:], half)
    assert rest == whole


def test_a_game_with_one_player_compares_nobody() -> None:
    ratings, steps = replay([game(1, ("a", True))])
    assert ratings == {} and steps == []


def test_one_person_twice_at_a_table_is_refused() -> None:
    with pytest.raises(RatingInputError, match="'a'"):
        replay([game(7, ("a", True), ("a", False), ("b", False))])


def test_fresh_rating_is_openskills_default() -> None:
    fresh = PlackettLuce().rating()
    assert initial() == Rating(mu=fresh.mu, sigma=fresh.sigma, games=0)


@given(st.lists(st.booleans(), min_size=5, max_size=6))
def test_winners_never_lose_rating_and_losers_never_gain(won: list[bool]) -> None:
    """From equal ratings a rank-1 seat cannot drop and a rank-2 seat cannot rise."""
    seats = [(f"p{i}", w) for i, w in enumerate(won)]
    ratings, _ = replay([game(1, *seats)])
    for who, w in seats:
        if all(won) or not any(won):
            assert ratings[who].mu == pytest.approx(25.0)
        elif w:
            assert ratings[who].mu > 25.0
        else:
            assert ratings[who].mu < 25.0
