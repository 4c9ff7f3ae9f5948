"""The shared ranking helpers on their own: competition ranks with ties, the precedence tuple."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dune.points import Precedence, Tiebreaker, competition_ranks


def test_competition_ranks_share_rank_and_skip_places() -> None:
    assert competition_ranks([9, 7, 7, 5, 5, 5, 1]) == (
        (1, False),
        (2, True),
        (2, True),
        (4, True),
        (4, True),
        (4, True),
        (7, False),
    )
    assert competition_ranks([]) == ()
    assert competition_ranks([(Fraction(1, 2), 3)]) == ((1, False),)


def test_competition_ranks_does_not_mutate() -> None:
    keys = [3, 3, 1]
    competition_ranks(keys)
    assert keys == [3, 3, 1]


def test_precedence_refuses_a_metric_twice() -> None:
    """Style 10: adding a metric twice raises."""
    metric = Tiebreaker("best_game", ("points",), lambda record: (0,))
    with pytest.raises(ValueError, match="'best_game' appears twice"):
        Precedence([metric, metric])


def test_precedence_checks_each_metric_width() -> None:
    bad = Precedence([Tiebreaker("pair", ("a", "b"), lambda record: (1,))])
    assert bad.labels == ("a", "b") and bad.keys == ("pair",)
    with pytest.raises(ValueError, match="expected 2 values"):
        bad.values(None)  # type: ignore[arg-type]


def test_wbc_advancement_to_finals_alternates_tied_at_their_cut_stay_together() -> None:
    """WBC Advancement to Finals: a format naming N alternates keeps every player tied with the
    N-th (one rank, one tiebreak) among them; none is split off as not qualified."""
    from dataclasses import replace

    from dune.formats import get_format
    from dune.points import StandingRow

    system = replace(get_format("wbc").points, alternates=2)
    ranks = [1, 2, 3, 4, 5, 6, 7, 8, 8, 10]
    rows = [
        StandingRow(rank=r, tied=ranks.count(r) > 1, player=i, points=Fraction(10 - i), tiebreak=(),
                    disqualified=False, explanation="", games=1, results=())
        for i, r in enumerate(ranks)
    ]
    chosen = system.finalists(rows)
    assert chosen.finalists == (0, 1, 2, 3, 4, 5)
    assert chosen.alternates == (6, 7, 8)
    assert get_format("wbc").points.finalists(rows).alternates == (6, 7, 8, 9)  # "all"
