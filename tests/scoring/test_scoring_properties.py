"""Properties of every registered system and every preset format's points (contract tests),
and of the standings order.

The presets' points come from their documents (`dune/formats/presets/`); a variant document
(adjudicated victories worth 0.25, WBC 2017) is held to the same contract."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dune.engine.ids import LOSING_KINDS, ResultKind
from dune.formats import FORMATS, format_from_document, preset_document
from dune.formats.document import apply_changes
from dune.points import LoLVSystem, PointsSystem, ReportRow, TableResult
from dune.points.lolv import CATEGORIES
from dune.points.registry import SYSTEMS

R = ResultKind
SOLO = {
    R.SOLO_STRONGHOLD,
    R.BG_PREDICTION,
    R.FREMEN_SPECIAL_SOLO,
    R.GUILD_DEFAULT_SOLO,
    R.FREMEN_DEFAULT_SOLO,
    R.END_GAME_SOLO,
    R.ADJUDICATED,
}
THREE = {R.THREE_ALLIANCE}
_VARIANT = format_from_document(apply_changes(preset_document("wbc"), {"points.results.adjudicated": "0.25"}))
#: Every registered system, every preset's points (from its document) and a variant's.
_SYSTEMS = {
    **{key: SYSTEMS[key] for key in SYSTEMS},
    **{f"preset-{key}": (lambda f=f: f.points) for key, f in FORMATS.items()},
    "variant-wbc-adjudicated-0.25": lambda: _VARIANT.points,
}
KEYS = sorted(_SYSTEMS)


def system_of(key: str) -> PointsSystem:
    return _SYSTEMS[key]()  # type: ignore[no-any-return]


def winners_needed(kind: ResultKind) -> int:
    return 1 if kind in SOLO else 3 if kind in THREE else 2


stat = st.integers(min_value=0, max_value=6)


@st.composite
def tournaments(draw: st.DrawFn, system: PointsSystem) -> list[TableResult]:
    """Up to 3 rounds of random tables of 3-6 players drawn from a pool, with consistent results."""
    pool = list(range(draw(st.integers(min_value=3, max_value=14))))
    win_kinds = sorted(k for k in system.kinds if k not in LOSING_KINDS)
    results: list[TableResult] = []
    for round_number in range(1, draw(st.integers(min_value=1, max_value=3)) + 1):
        seated = draw(st.permutations(pool))
        start = 0
        while len(seated) - start >= 3:
            size = draw(st.integers(min_value=3, max_value=min(6, len(seated) - start)))
            players = seated[start : start + size]
            start += size
            kind = draw(st.sampled_from(win_kinds))
            k = winners_needed(kind)
            rows = tuple(
                ReportRow(
                    player=p,
                    result=kind if i < k else R.LOSS,
                    win_attempts=draw(stat),
                    strongholds=draw(stat),
                    forces=draw(stat),
                    tokens=Fraction(draw(stat), 2),
                    spice=draw(stat),
                    cards=draw(stat),
                    leaders=draw(stat),
                    die=draw(stat),
                )
                for i, p in enumerate(players)
            )
            results.append(
                TableResult(
                    rows=rows,
                    turns=draw(st.integers(min_value=1, max_value=10)),
                    round_number=round_number,
                    table=(round_number, start),
                )
            )
    return results


def key_of(row):  # type: ignore[no-untyped-def]
    return (not row.disqualified, row.points, row.tiebreak)


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_standings_total_order_independent_of_filing_order(key: str, data: st.DataObject) -> None:
    """Standings are a total order of the players, the same whatever order the reports were filed in."""
    system = system_of(key)
    results = data.draw(tournaments(system))
    standings = system.standings(results)
    shuffled = [
        TableResult(
            rows=tuple(data.draw(st.permutations(r.rows))),
            turns=r.turns,
            table=r.table,
            round_number=r.round_number,
        )
        for r in data.draw(st.permutations(results))
    ]
    assert system.standings(shuffled) == standings
    players = [r.player for r in standings]
    assert len(players) == len(set(players)) == len({row.player for r in results for row in r.rows})
    for i, (a, b) in enumerate(zip(standings, standings[1:], strict=False)):
        assert key_of(a) >= key_of(b)
        if key_of(a) == key_of(b):
            assert a.rank == b.rank and a.tied and b.tied and a.player < b.player
        else:
            assert b.rank == i + 2
    assert standings == () or standings[0].rank == 1


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_adding_a_loss_never_changes_anyones_points(key: str, data: st.DataObject) -> None:
    """A loss is worth nothing: filing a lost game for a player changes no one's points."""
    system = system_of(key)
    results = data.draw(tournaments(system))
    assume(results)
    before = {r.player: r.points for r in system.standings(results)}
    loser = data.draw(st.sampled_from(sorted(before)))
    last = max(r.round_number for r in results)
    extra = TableResult(
        rows=(
            ReportRow(player="newcomer", result=R.SOLO_STRONGHOLD),
            ReportRow(player=loser, result=R.LOSS, spice=data.draw(stat)),
        ),
        turns=5,
        round_number=last + 1,
        table="extra",
    )
    after = {r.player: r.points for r in system.standings([*results, extra])}
    assert {p: after[p] for p in before} == before


lolv_wins = st.lists(
    st.sampled_from([k for _, _, _, kinds in CATEGORIES for k in kinds]), min_size=1, max_size=3
)


@settings(max_examples=300, deadline=None)
@given(a=lolv_wins, b=lolv_wins)
def test_4_01_09_heavier_win_set_never_ranks_below_lighter_with_equal_points(
    a: list[ResultKind], b: list[ResultKind]
) -> None:
    """4.01.09: with equal points, the player whose wins sit higher on the allocation list proceeds.

    The two win sets are levelled by adding half-point adjudicated wins to the poorer one.
    """
    system = LoLVSystem()
    pa, pb = sum(map(system.points, a)), sum(map(system.points, b))
    short = b if pa > pb else a
    short += [R.ADJUDICATED] * int(abs(pa - pb) * 2)
    assert sum(map(system.points, a)) == sum(map(system.points, b))
    cat = {k: i for i, (_, _, _, kinds) in enumerate(CATEGORIES) for k in kinds}
    counts_a = tuple(sum(cat[k] == i for k in a) for i in range(len(CATEGORIES)))
    counts_b = tuple(sum(cat[k] == i for k in b) for i in range(len(CATEGORIES)))
    assume(counts_a != counts_b)
    results = []
    for player, wins in (("A", a), ("B", b)):
        for n, kind in enumerate(wins, start=1):
            rows = [ReportRow(player=player, result=kind)]
            rows += [
                ReportRow(player=f"{player}ally{n}.{i}", result=kind) for i in range(winners_needed(kind) - 1)
            ]
            results.append(TableResult(rows=tuple(rows), turns=5, round_number=n))
    ranks = {r.player: r.rank for r in system.standings(results)}
    heavier, lighter = ("A", "B") if counts_a > counts_b else ("B", "A")
    assert ranks[heavier] < ranks[lighter]


# --- contract tests over every registered system ---


def _table(*rows: ReportRow) -> TableResult:
    return TableResult(rows=rows, turns=6)


@pytest.mark.parametrize("key", KEYS)
def test_contract_points_are_exact_and_kinds_complete(key: str) -> None:
    system = system_of(key)
    for kind in ResultKind:
        if kind in system.kinds:
            assert isinstance(system.points(kind), Fraction) and system.points(kind) >= 0
        else:
            with pytest.raises(ValueError):
                system.points(kind)
    assert all(system.points(k) == 0 for k in LOSING_KINDS)
    assert all(system.points(k) > 0 for k in system.kinds - LOSING_KINDS)


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_contract_table_totals_invariant(key: str, data: st.DataObject) -> None:
    """A table's total is the sum of its rows' points, whatever the seat order or player ids."""
    system = system_of(key)
    for result in data.draw(tournaments(system)):
        scores = system.scores(result)
        total = sum(scores.values(), Fraction(0))
        assert total == sum((system.points(r.result) for r in result.rows), Fraction(0))
        reordered = _table(*data.draw(st.permutations(result.rows)))
        assert sum(system.scores(reordered).values(), Fraction(0)) == total


@pytest.mark.parametrize("key", KEYS)
def test_contract_swapping_two_identical_seats_swaps_scores(key: str) -> None:
    system = system_of(key)
    stats = {"strongholds": 2, "spice": 5}
    rows = [
        ReportRow(player="a", result=R.ALLIED_STRONGHOLD, **stats),
        ReportRow(player="b", result=R.ALLIED_STRONGHOLD, **stats),
        ReportRow(player="c", result=R.LOSS),
    ]
    swapped = [
        ReportRow(player="b", result=R.ALLIED_STRONGHOLD, **stats),
        ReportRow(player="a", result=R.ALLIED_STRONGHOLD, **stats),
        ReportRow(player="c", result=R.LOSS),
    ]
    one, two = system.scores(_table(*rows)), system.scores(_table(*swapped))
    assert one["a"] == two["b"] and one["b"] == two["a"] and one == two
    # And across a whole tournament, renaming two identical players swaps their standings rows.
    first = system.standings([_table(*rows)])
    renamed = system.standings(
        [
            _table(
                ReportRow(player="a", result=R.ALLIED_STRONGHOLD, **stats),
                ReportRow(player="b", result=R.ALLIED_STRONGHOLD, **stats),
                ReportRow(player="c", result=R.LOSS),
            )
        ]
    )
    assert [(r.rank, r.points, r.tiebreak) for r in first] == [
        (r.rank, r.points, r.tiebreak) for r in renamed
    ]


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_contract_repeated_calls_are_independent(key: str, data: st.DataObject) -> None:
    """No call leaves state behind: A, then B, then A again gives A's answer."""
    system = system_of(key)
    a, b = data.draw(tournaments(system)), data.draw(tournaments(system))
    first = system.standings(a)
    system.standings(b)
    assert system.standings(a) == first
    assert system.scores(a[0]) == system.scores(a[0]) if a else True
    rng_seed = data.draw(st.integers(min_value=0, max_value=1000))
    fin = system.finalists(first, rng=random.Random(rng_seed))
    assert fin == system.finalists(first, rng=random.Random(rng_seed))
    assert len(fin.finalists) == min(system.finalist_seats, len(first))
    assert not set(fin.finalists) & set(fin.alternates)
    assert set(fin.finalists) | set(fin.alternates) == {r.player for r in first if not r.disqualified}
