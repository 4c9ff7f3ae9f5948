"""Stored ratings against openskill by hand: a small series of two events, every mu and sigma
to 1e-9, in the order reports were first filed; a reopened report recomputes from its game
on; the task is idempotent and all-or-nothing."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from ratings import services
from ratings.models import PersonRating, RatingHistory, RatingRun
from ratings.tasks import recompute_ratings
from scoring import services as scoring
from tests.factories import make_tournament
from tests.ratings.helpers import play, register, report
from tournament import people

pytestmark = pytest.mark.django_db

WIN = "solo_stronghold"
ALLY = "allied_stronghold"


@pytest.fixture
def series(head_judge: Any) -> dict[str, Any]:
    """WBC Dune 2025 and 2026: eleven people, four filed games (one a dropout, one an allied win)."""
    wbc = people.create_series(name="WBC Dune", format="wbc")
    y25 = make_tournament(name="WBC Dune 2025", head_judge=head_judge)
    y26 = make_tournament(name="WBC Dune 2026", head_judge=head_judge)
    for t in (y25, y26):
        t.series = wbc
        t.save()
    names = "abcdefghij"
    p25 = register(y25, [(n.upper() * 3, f"{n}@example.org") for n in names])
    p26 = register(y26, [(n.upper() * 3, f"{n.upper()}@EXAMPLE.org") for n in "acegik"])
    a, b, c, d, e, f, g, h, i, j = p25
    games = [
        # (players in seat order, winners by seat index)
        ([a, b, c, d, e], {0: WIN}),
        ([f, g, h, i, j], {1: ALLY, 2: ALLY}),
    ]
    filed = play(y25, 1, games, user=head_judge)
    a2, c2, e2, g2, i2, k2 = p26
    later = [([a2, c2, e2, g2, i2, k2], {3: WIN, 4: "dropout"}), ([c2, e2, g2, k2, a2], {})]  # III drops out
    filed += play(y26, 1, later[:1], user=head_judge)  # a dropout is rank 2, like any loss
    filed += play(y26, 2, [(later[1][0], {1: WIN})], user=head_judge)
    person = {p.pk: p.person_id for p in (*p25, *p26)}
    hand_games = [
        ([person[p.pk] for p in games[0][0]], {0}),
        ([person[p.pk] for p in games[1][0]], {1, 2}),
        ([person[p.pk] for p in later[0][0]], {3}),
        ([person[p.pk] for p in later[1][0]], {1}),
    ]
    return {
        "series": wbc,
        "reports": filed,
        "hand": hand_games,
        "tournaments": (y25, y26),
        "players": p25 + p26,
    }


def by_hand(
    games: list[tuple[list[int], set[int]]],
) -> tuple[dict[int, tuple[float, float, int]], list[dict[int, tuple[float, float]]]]:
    """openskill itself, game by game: winners rank 1, everyone else rank 2."""
    model = PlackettLuce()
    current: dict[int, Any] = {}
    counts: dict[int, int] = {}
    after_each = []
    for seats, winners in games:
        teams = [[current.get(p, model.rating())] for p in seats]
        rated = model.rate(teams, ranks=[1 if i in winners else 2 for i in range(len(seats))])
        step = {}
        for p, team in zip(seats, rated, strict=True):
            current[p] = team[0]
            counts[p] = counts.get(p, 0) + 1
            step[p] = (team[0].mu, team[0].sigma)
        after_each.append(step)
    return {p: (r.mu, r.sigma, counts[p]) for p, r in current.items()}, after_each


def stored() -> dict[int, tuple[float, float, int]]:
    return {r.person_id: (r.mu, r.sigma, r.games) for r in PersonRating.objects.all()}


def assert_matches(expected: dict[int, tuple[float, float, int]]) -> None:
    got = stored()
    assert set(got) == set(expected)
    for person, (mu, sigma, games) in expected.items():
        assert abs(got[person][0] - mu) < 1e-9, person
        assert abs(got[person][1] - sigma) < 1e-9, person
        assert got[person][2] == games
        row = PersonRating.objects.get(person_id=person)
        assert abs(row.ordinal - (mu - 3 * sigma)) < 1e-9


def test_series_ratings_equal_openskill_by_hand(series: dict[str, Any]) -> None:
    services.recompute()
    expected, after_each = by_hand(series["hand"])
    assert_matches(expected)
    # The history keeps each person's rating after each game, in filing order.
    for filed, step in zip(series["reports"], after_each, strict=True):
        rows = {h.person_id: (h.mu, h.sigma) for h in RatingHistory.objects.filter(report=filed)}
        assert set(rows) == set(step)
        for person, (mu, sigma) in step.items():
            assert abs(rows[person][0] - mu) < 1e-9 and abs(rows[person][1] - sigma) < 1e-9
    assert RatingRun.objects.get().games == 4


def test_incremental_recompute_after_each_filing_equals_a_full_one(series: dict[str, Any]) -> None:
    for filed in series["reports"]:
        recompute_ratings.apply(kwargs={"report_id": filed.pk}).get()
    incremental = stored()
    services.recompute()
    assert stored() == incremental
    assert_matches(by_hand(series["hand"])[0])


def test_reopened_and_refiled_report_keeps_its_place_and_recomputes_from_it(
    series: dict[str, Any], head_judge: Any
) -> None:
    services.recompute()
    first = series["reports"][0]
    scoring.reopen_report(first, user=head_judge, reason="the winner was the Harkonnen")
    recompute_ratings.apply(kwargs={"report_id": first.pk}).get()
    # While reopened the game does not count.
    assert_matches(by_hand(series["hand"][1:])[0])
    players = list(first.table.seats.order_by("seat").values_list("player", flat=True))
    seated = [p for p in series["players"] if p.pk in players]
    seated.sort(key=lambda p: players.index(p.pk))
    scoring.file_report(first.table, report(seated, {2: WIN}), user=head_judge)
    recompute_ratings.apply(kwargs={"report_id": first.pk}).get()
    hand = list(series["hand"])
    hand[0] = (hand[0][0], {2})  # same place in the order (first filed first), new winner
    assert_matches(by_hand(hand)[0])


def test_task_is_idempotent(series: dict[str, Any]) -> None:
    last = series["reports"][-1]
    first_run = recompute_ratings.apply(kwargs={"report_id": series["reports"][0].pk}).get()
    snapshot = (
        stored(),
        sorted(RatingHistory.objects.values_list("person_id", "report_id", "mu", "sigma", "games")),
    )
    again = recompute_ratings.apply(kwargs={"report_id": series["reports"][0].pk}).get()
    late = recompute_ratings.apply(kwargs={"report_id": last.pk}).get()
    assert first_run["replayed"] == again["replayed"] == 4 and late["replayed"] == 1
    assert (
        stored(),
        sorted(RatingHistory.objects.values_list("person_id", "report_id", "mu", "sigma", "games")),
    ) == snapshot
    assert RatingHistory.objects.count() == 5 + 5 + 6 + 5


def test_a_failed_recompute_leaves_the_previous_list(series: dict[str, Any], monkeypatch: Any) -> None:
    """All or nothing: an error after the old rows were deleted rolls everything back."""
    services.recompute()
    before = (stored(), RatingHistory.objects.count(), RatingRun.objects.get().recomputed_at)

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "_write_list", broken)
    with pytest.raises(RuntimeError):
        services.recompute()
    assert (stored(), RatingHistory.objects.count(), RatingRun.objects.get().recomputed_at) == before


def test_relinking_a_player_recomputes_their_games_under_the_new_person(
    series: dict[str, Any], head_judge: Any
) -> None:
    """K played one game in 2026 only; linked to J (2025), J's rating carries into that game."""
    services.recompute()
    players = {p.name: p for p in series["players"]}
    j, k = players["JJJ"], players["KKK"]
    people.link_player(k, j.person_id, user=head_judge, reason="same person, new address")
    recompute_ratings.apply(kwargs={"player_id": k.pk}).get()
    hand = [([j.person_id if p == k.person_id else p for p in seats], won) for seats, won in series["hand"]]
    assert_matches(by_hand(hand)[0])
    assert stored()[j.person_id][2] == 3


def test_series_api_lists_ratings_best_first(series: dict[str, Any], api_client: Any) -> None:
    services.recompute()
    body = api_client.get(f"/api/series/{series['series'].pk}/").json()
    assert [t["name"] for t in body["tournaments"]] == ["WBC Dune 2025", "WBC Dune 2026"]
    assert [t["players"] for t in body["tournaments"]] == [10, 6]
    ordinals = [r["ordinal"] for r in body["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True) and len(ordinals) == 11
    assert {"person", "ordinal", "mu", "sigma", "games", "name"} <= set(body["ratings"][0])
    by_faction = {f["faction"]: f for f in body["factions"]}
    assert sum(f["games"] for f in body["factions"]) == 5 + 5 + 6 + 5
    assert by_faction["atreides"]["wins"] >= 1
    assert body["ratings_recomputed_at"]


def test_person_api_shows_rating_and_history(series: dict[str, Any], api_client: Any) -> None:
    services.recompute()
    a = series["players"][0]
    body = api_client.get(f"/api/people/{a.person_id}/").json()
    expected = by_hand(series["hand"])[0][a.person_id]
    assert abs(body["rating"]["mu"] - expected[0]) < 1e-9 and body["rating"]["games"] == 3
    assert [t["games"] for t in body["tournaments"]] == [1, 2]
    assert [h["games"] for h in body["history"]] == [1, 2, 3]


def test_person_page_reads_the_rating_in_words(series: dict[str, Any], client: Any) -> None:
    services.recompute()
    a = series["players"][0]
    page = client.get(f"/people/{a.person_id}/").content.decode()
    assert "after 3 games" in page and "Estimated skill" in page and "give or take" in page
    assert "μ" not in page.split("data-rating-words", 1)[0].rsplit("<h2", 1)[-1]


def test_person_and_series_reads_do_not_grow_with_games(series: dict[str, Any], api_client: Any) -> None:
    """A person of one game and a person of three games in two events cost the same queries
    (standings come from the cache), and so do the series page and its API."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    services.recompute()
    players = {p.name: p for p in series["players"]}
    few, many = players["BBB"].person_id, players["AAA"].person_id
    counts = []
    for person in (few, many, few, many):
        with CaptureQueriesContext(connection) as ctx:
            assert api_client.get(f"/api/people/{person}/").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[2] == counts[3], counts
    pages = []
    for person in (few, many, few, many):
        with CaptureQueriesContext(connection) as ctx:
            assert api_client.get(f"/people/{person}/").status_code == 200
        pages.append(len(ctx.captured_queries))
    assert pages[2] == pages[3], pages
    with CaptureQueriesContext(connection) as ctx:
        assert api_client.get(f"/series/{series['series'].pk}/").status_code == 200
    assert len(ctx.captured_queries) <= 8


def test_catch_up_recomputes_what_a_lost_task_left_behind(series: dict[str, Any], head_judge: Any) -> None:
    """Reports filed while no task could be sent are rated by the periodic catch-up; a second
    catch-up finds nothing late."""
    from ratings.tasks import catch_up

    assert catch_up.apply().get()["replayed"] == 4  # never computed: everything
    assert_matches(by_hand(series["hand"])[0])
    assert catch_up.apply().get()["replayed"] == 0
    first = series["reports"][0]
    scoring.reopen_report(first, user=head_judge, reason="lost task")
    assert catch_up.apply().get()["replayed"] == 3
    assert_matches(by_hand(series["hand"][1:])[0])
