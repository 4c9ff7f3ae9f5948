"""Ratings of people from their games: openskill's Plackett-Luce model, pure Python.

Each game is a free-for-all of five or six, where an alliance may win together. Every player
is a team of one; the winners (solo, or every member of the winning alliance) share rank 1
and everyone else, dropouts included, shares rank 2. Games are replayed in the order their
reports were first filed. The model keeps openskill's default parameters, so anyone can
check a figure with openskill itself.

No Django here: the adapter in `ratings.games` loads the games, `ratings.services` stores
what :func:`replay` answers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: Rank of a winner and of everybody else in a game (lower is better, as openskill reads ranks).
WINNER_RANK = 1.0
OTHER_RANK = 2.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's skill estimate: mean `mu`, uncertainty `sigma`, after `games` games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure lists sort by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Seat:
    who: Hashable
    won: bool


@dataclass(frozen=True, slots=True)
class Game:
    """One filed game: `key` orders games (first filing time, report id), `seats` its players."""

    key: Hashable
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """What one game did to one player's rating."""

    game: Hashable
    who: Hashable
    won: bool
    after: Rating


class RatingInputError(ValueError):
    """A game the model cannot rate as given (the same person twice at one table)."""


def model() -> PlackettLuce:
    """The model with openskill's default parameters."""
    return PlackettLuce()


def initial() -> Rating:
    fresh = model().rating()
    return Rating(mu=fresh.mu, sigma=fresh.sigma, games=0)


def replay(
    games: Iterable[Game], start: Mapping[Hashable, Rating] | None = None
) -> tuple[dict[Hashable, Rating], list[Step]]:
    """Rate `games` in the order given, from the `start` ratings (everybody else starts fresh).

    Answers every player's rating after the last game and one `Step` per seat per game.
    A game with fewer than two players compares nobody and is skipped.

    Raises:
        RatingInputError: one player holds two seats of a game.
    """
    pl = model()
    ratings: dict[Hashable, Rating] = dict(start or {})
    steps: list[Step] = []
    fresh = pl.rating()
    for game in games:
        if len(game.seats) < 2:
            continue
        players = [seat.who for seat in game.seats]
        if len(set(players)) != len(players):
            twice = sorted({repr(p) for p in players if players.count(p) > 1})
            raise RatingInputError(f"game {game.key!r} lists {', '.join(twice)} twice")
        teams = []
        for who in players:
            current = ratings.get(who)
            if current is None:
                teams.append([pl.rating(mu=fresh.mu, sigma=fresh.sigma)])
            else:
                teams.append([pl.rating(mu=current.mu, sigma=current.sigma)])
        ranks: list[float] = [WINNER_RANK if seat.won else OTHER_RANK for seat in game.seats]
        rated = pl.rate(teams, ranks=ranks)
        for seat, team in zip(game.seats, rated, strict=True):
            before = ratings.get(seat.who)
            after = Rating(mu=team[0].mu, sigma=team[0].sigma, games=(before.games if before else 0) + 1)
            ratings[seat.who] = after
            steps.append(Step(game=game.key, who=seat.who, won=seat.won, after=after))
    return ratings, steps
