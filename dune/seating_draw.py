"""The seeded random draw of a round: table sizes, grouping into tables, faction draw.

Pure Python: no Django, no clock, no module-level randomness. Every random choice comes from
the ``random.Random`` the caller passes in, so one seed always gives one grouping.

Both formats ask for as many 6-player tables as possible with every table at least 5
(LoLV 4.01.01; WBC 2018 format, "In each heat, players will be grouped randomly ..."); a format
document may allow other consecutive sizes (`tables.sizes`: 4-6, just 6, ...), and the draw
seats as many tables of its largest size as possible, every table at least its smallest.
Counts that cannot be split so are never handled silently: :func:`small_table_options`
lists what a head judge may choose instead (4-player tables, or players waiting).

Factions: WBC 2018 house rules draw from the six classic factions (at a table of five one
stays undrawn); LoLV 0.08 deals each player one classic and one expansion alliance card, which
is two independent draws of :func:`draw_factions`, one from each half of the roster.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

#: Largest and smallest regular table when a format names no sizes (LoLV 4.01.01, WBC 2018
#: heats); a format document's `tables.sizes` sets them (`Format.table_sizes`).
FULL_TABLE = 6
SMALLEST_TABLE = 5
DEFAULT_SIZES: tuple[int, ...] = (SMALLEST_TABLE, FULL_TABLE)
#: The smallest table a head judge may allow at their discretion (WBC: "at the GM's discretion")
#: is one player short of the format's smallest. How a small-table option's key names its tables (`fours:2`: two tables of four).
_SMALL_WORDS = {2: "twos", 3: "threes", 4: "fours", 5: "fives"}

#: Pair weights: a keep-apart pair must outweigh any number of repeat meetings, so the search
#: never trades a household split for fewer repeats.
KEEP_APART_WEIGHT = 1_000_000

#: Pair weights by player: ``weights[a][b]`` is the cost of seating a with b (symmetric).
PairWeights = Mapping[int, Mapping[int, int]]


@dataclass(frozen=True)
class SmallTableOption:
    """One way a head judge may seat a count that cannot be split into 5- and 6-player tables.

    ``key`` is stable (``"fours:2"``, ``"wait:3"``) and is what the planner accepts back as
    ``small_tables=``; ``sizes`` are the table sizes it gives; ``waiting`` how many players
    sit out until the next round.
    """

    key: str
    label: str
    sizes: tuple[int, ...]
    waiting: int


def regular_sizes(count: int, sizes: Sequence[int] = DEFAULT_SIZES) -> tuple[int, ...] | None:
    """Answer the optimal table sizes for ``count`` players, largest first, or None.

    ``sizes`` are the format's table sizes (consecutive numbers, `tables.sizes`). The fewest
    tables that can hold everyone is ceil(count / largest); the count splits exactly when
    those tables can each get at least the smallest size. Then as many tables as possible get
    the largest size and the rest share the remaining players evenly (5-6: ``count - 5 *
    tables`` tables of six). Zero and negative counts answer None.
    """
    largest, smallest = max(sizes), min(sizes)
    if count <= 0:
        return None
    tables = -(-count // largest)
    if smallest * tables > count:
        return None
    full = tables if largest == smallest else min(tables, (count - smallest * tables) // (largest - smallest))
    rest, others = count - largest * full, tables - full
    if not others:
        return (largest,) * full
    base, extra = divmod(rest, others)
    return (largest,) * full + (base + 1,) * extra + (base,) * (others - extra)


def small_table_options(count: int, sizes: Sequence[int] = DEFAULT_SIZES) -> tuple[SmallTableOption, ...]:
    """List the head judge's choices for a count that does not split into the format's sizes.

    Answers an empty tuple when the count does split (nothing to choose). Otherwise: every
    number of tables one player short of the smallest size (1, 2 or 3; at 5-6 tables of four)
    whose remainder splits into the format's sizes, then the smallest number of players who
    can wait for the next round so that the rest split (everybody, for too few players).
    """
    if count <= 0 or regular_sizes(count, sizes) is not None:
        return ()
    small = min(sizes) - 1
    options: list[SmallTableOption] = []
    for fours in range(1, 4) if small in _SMALL_WORDS else ():
        rest = count - small * fours
        if rest < 0:
            break
        rest_sizes = () if rest == 0 else regular_sizes(rest, sizes)
        if rest_sizes is None:
            continue
        options.append(
            SmallTableOption(
                key=f"{_SMALL_WORDS[small]}:{fours}",
                label=f"{fours} table{'s' if fours > 1 else ''} of {small} players",
                sizes=rest_sizes + (small,) * fours,
                waiting=0,
            )
        )
    waiting = next((w for w in range(1, count) if regular_sizes(count - w, sizes) is not None), count)
    options.append(
        SmallTableOption(
            key=f"wait:{waiting}",
            label=(f"{waiting} players wait" if waiting > 1 else "1 player waits") + " for the next round",
            sizes=regular_sizes(count - waiting, sizes) or (),
            waiting=waiting,
        )
    )
    return tuple(options)


def table_cost(table: Sequence[int], weights: PairWeights) -> int:
    """Sum the pair weights of everyone seated together at one table."""
    total = 0
    for i, a in enumerate(table):
        row = weights.get(a)
        if row:
            total += sum(row.get(b, 0) for b in table[i + 1 :])
    return total


def group_players(
    players: Sequence[int],
    sizes: Sequence[int],
    weights: PairWeights,
    rng: random.Random,
    *,
    restarts: int = 4,
) -> tuple[list[list[int]], list[list[int]]]:
    """Group ``players`` into tables of ``sizes`` with the least total pair weight found.

    Starts from a plain random draw (``rng.shuffle``), then swaps players between tables while
    a swap lowers the weight (keep-apart pairs, then earlier meetings). A draw that still
    carries weight is retried from fresh shuffles ``restarts`` times and the lightest one kept.
    Answers the tables and the very first plain draw (to report what the search avoided).
    Raises ValueError if ``sizes`` does not add up to the number of players.
    """
    if sum(sizes) != len(players):
        raise ValueError(f"table sizes {tuple(sizes)!r} do not seat {len(players)} players")
    best: list[list[int]] | None = None
    best_cost = 0
    first_draw: list[list[int]] = []
    for attempt in range(restarts + 1):
        order = list(players)
        rng.shuffle(order)
        tables: list[list[int]] = []
        start = 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        if attempt == 0:
            first_draw = [list(t) for t in tables]
        cost = _improve(tables, order, weights, rng)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    return best, first_draw


def _improve(
    tables: list[list[int]],
    order: list[int],
    weights: PairWeights,
    rng: random.Random,
) -> int:
    """Swap players between tables in place while that lowers the total weight; answer it.

    Each sweep visits every player who sits with someone they carry weight with and tries
    swap partners drawn at random; a swap that keeps the weight equal is taken now and then
    so the search can walk off a plateau. Sweeps stop when one changes nothing.
    """
    where = {p: ti for ti, table in enumerate(tables) for p in table}
    count = len(order)
    if count < 2 or len(tables) < 2:
        return sum(table_cost(t, weights) for t in tables)

    def weight_at(p: int, ti: int) -> int:
        row = weights.get(p)
        if not row:
            return 0
        return sum(row.get(q, 0) for q in tables[ti] if q != p)

    tries = min(count, 96)
    sideways_budget = 4 * count
    for _sweep in range(60):
        moved = False
        for p in order:
            tp = where[p]
            wp = weight_at(p, tp)
            if wp == 0:
                continue
            row_p = weights.get(p, {})
            for idx in rng.sample(range(count), tries):
                q = order[idx]
                tq = where[q]
                if tq == tp:
                    continue
                wpq = row_p.get(q, 0)
                delta = weight_at(p, tq) - wpq + weight_at(q, tp) - wpq - wp - weight_at(q, tq)
                sideways = delta == 0 and sideways_budget > 0 and rng.random() < 0.2
                if delta < 0 or sideways:
                    if sideways:
                        sideways_budget -= 1
                    table_p, table_q = tables[tp], tables[tq]
                    table_p[table_p.index(p)] = q
                    table_q[table_q.index(q)] = p
                    where[p], where[q] = tq, tp
                    moved = True
                    break
        if not moved:
            break
    return sum(table_cost(t, weights) for t in tables)


def min_faction_repeats(pool: Sequence[str], played: Sequence[frozenset[str]]) -> int:
    """Answer the fewest players who must get a faction they played, over every draw from ``pool``.

    That is the number of players left without a faction in a largest matching of players to
    factions they have not played (augmenting paths; at most 6 x 6 here).
    """
    owner: dict[str, int] = {}

    def place(i: int, seen: set[str]) -> bool:
        for faction in pool:
            if faction in played[i] or faction in seen:
                continue
            seen.add(faction)
            if faction not in owner or place(owner[faction], seen):
                owner[faction] = i
                return True
        return False

    return sum(1 for i in range(len(played)) if not place(i, set()))


def improve_faction_fit(
    tables: list[list[int]],
    weights: PairWeights,
    repeats_at: Callable[[Sequence[int]], int],
    rng: random.Random,
) -> None:
    """Swap players between tables, in place, so fewer must get a faction they already played.

    ``repeats_at(table)`` answers the unavoidable faction repeats at a table (see
    :func:`min_faction_repeats`). A swap is taken only if it lowers those repeats and adds no
    pair weight, so it never costs a repeat opponent or a keep-apart request.
    """
    count = sum(len(t) for t in tables)
    order = [(ti, p) for ti, t in enumerate(tables) for p in t]
    for ti in range(len(tables)):
        for _attempt in range(len(tables[ti])):
            here = repeats_at(tables[ti])
            if here == 0:
                break
            for idx in rng.sample(range(count), min(count, 96)):
                tj, q = order[idx]
                if tj == ti or q not in tables[tj]:
                    continue
                there = repeats_at(tables[tj])
                before = here + there
                found = False
                for p in list(tables[ti]):
                    mine = [q if x == p else x for x in tables[ti]]
                    theirs = [p if x == q else x for x in tables[tj]]
                    if repeats_at(mine) + repeats_at(theirs) >= before:
                        continue
                    if table_cost(mine, weights) + table_cost(theirs, weights) > table_cost(
                        tables[ti], weights
                    ) + table_cost(tables[tj], weights):
                        continue
                    tables[ti], tables[tj] = mine, theirs
                    order = [(tk, x) for tk, t in enumerate(tables) for x in t]
                    found = True
                    break
                if found:
                    break
            else:
                break


@dataclass(frozen=True)
class FactionDraw:
    """One draw for a table: ``drawn[i]`` goes to the i-th player, ``undrawn`` stay out."""

    drawn: tuple[str, ...]
    undrawn: tuple[str, ...]
    repeats: int


def draw_factions(
    pool: Sequence[str],
    played: Sequence[frozenset[str]],
    rng: random.Random,
) -> FactionDraw:
    """Draw a distinct faction from ``pool`` for each player; ``played[i]`` is what player i played.

    The draw starts as a plain shuffle; then factions are swapped (between players, or with an
    undrawn faction) while that lowers the number of players holding a faction they already
    played. If some remain, every arrangement is checked (at most 720 for six factions) and the
    first best one in the shuffled order is taken, so the answer stays a function of the seed.
    Answers the drawn factions, the undrawn ones in ``pool`` order, and the repeats left.
    Raises ValueError if there are more players than factions or the pool repeats a faction.
    """
    count = len(played)
    if count > len(pool):
        raise ValueError(f"{count} players cannot each draw a distinct faction from {tuple(pool)!r}")
    if len(set(pool)) != len(pool):
        raise ValueError(f"faction pool {tuple(pool)!r} names a faction twice")
    deck = list(pool)
    rng.shuffle(deck)

    def repeats_of(arrangement: Sequence[str]) -> int:
        return sum(1 for i in range(count) if arrangement[i] in played[i])

    improved = True
    while improved:
        improved = False
        for i in range(count):
            if deck[i] not in played[i]:
                continue
            for j in range(len(deck)):
                if j == i:
                    continue
                now = 1 + (j < count and deck[j] in played[j])
                after = (deck[j] in played[i]) + (j < count and deck[i] in played[j])
                if after < now:
                    deck[i], deck[j] = deck[j], deck[i]
                    improved = True
                    break
    left = repeats_of(deck)
    if left:
        for arrangement in itertools.permutations(deck, count):
            tried = repeats_of(arrangement)
            if tried < left:
                chosen = set(arrangement)
                deck = list(arrangement) + [f for f in deck if f not in chosen]
                left = tried
                if left == 0:
                    break
    drawn = tuple(deck[:count])
    undrawn = tuple(f for f in pool if f not in drawn)
    return FactionDraw(drawn=drawn, undrawn=undrawn, repeats=left)
