"""Movement: how far a group may go, by which path, and how many moves a faction makes.

Distances are counted in territories entered (LoLV 1.06.04.03-05, AH IX.C.2.a/c): moving
between sectors of one territory costs nothing, entering another territory costs one. A
path never enters a sector piece in storm (LoLV 1.01.04, 1.06.04.06-07; AH IX.C.2.c;
WBC VI.9-10), and never crosses a stronghold held by two other factions (LoLV 1.06.04.09,
AH IX.C.2.f) nor, under WBC IX.2, a territory where an ally stands.

The piece graph comes from the board's sector-piece adjacency. Shortest distances are a
0-1 breadth-first search, cached per (storm sector, shelter, source piece), so a
replay pays for one search per distinct storm and source; positions with blocked
strongholds or allies on the way search afresh (small graph, rare).

The rules that differ between rulesets (ornithopter timing, Fremen and Ixian range, whether
a group may gather from several sectors, allies blocking the way, movement cards) are data
of `MovementRules`, held by each `Ruleset`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from dune.engine.board import BOARD, HIDDEN_MOBILE_STRONGHOLD, SECTOR_COUNT, SHIELD_WALL, TERRITORIES

#: A sector piece: (territory, sector); sector None for the Polar Sink and the HMS.
Piece = tuple[str, "int | None"]

#: Beyond any range: the target cannot be reached.
UNREACHABLE = 99

#: The treachery cards that change a movement, by the id a record names them with, as the cards
#: print them (names of the game: locale/GLOSSARY.md).
MOVE_CARD_NAMES: Mapping[str, str] = {"hajr": "Hajr", "ornithopter": "Ornithopter", "kulon": "Kulon"}
#: The kinds of move other than a force movement, as a refusal names them.
MOVE_KIND_WORDS: Mapping[str, str] = {
    "worm": "a worm ride",
    "cross_ship": "a cross-ship",
    "ambassador": "an Ambassador move",
}


def move_card_name(card: str) -> str:
    """A movement card as it prints (`hajr` -> "Hajr"); an id no card has, quoted as given."""
    return MOVE_CARD_NAMES.get(card) or repr(card)


@dataclass(frozen=True, slots=True)
class MoveCard:
    """A treachery card that changes a movement."""

    #: It grants a further movement action this phase (Hajr: LoLV 3.01.09, WBC card aid 2;
    #: Ornithopter as a second move: LoLV 3.02.06.02).
    extra_action: bool
    #: Played with the faction's first movement: the range is at least this (Ornithopter:
    #: up to 3 territories, LoLV 3.02.06.01); 0: no such option.
    first_range: int
    #: Territories added to this movement (Kulon: LoLV 2.09.07.04).
    bonus: int
    #: Factions that may use it (None: anyone holding the card).
    factions: frozenset[str] | None
    rule: str


@dataclass(frozen=True, slots=True)
class MovementRules:
    """One ruleset's movement rules."""

    base_range: int
    ornithopter_range: int
    ornithopter_cities: frozenset[str]
    #: AH IX.C.2.a.i / WBC IX.10: access is decided at the start of the movement round;
    #: LoLV 1.06.04.04: at the start of the faction's own force move.
    ornithopters_at_phase_start: bool
    #: Faction -> range without ornithopters (Fremen 2: LoLV 2.04.06, AH IX.C.2.a.iii).
    faction_range: Mapping[str, int]
    #: Faction -> range of a group holding its special forces (Ixian Cyborgs, and Suboids
    #: moving with them: LoLV 2.07.12, 2.07.16).
    special_range: Mapping[str, int]
    #: LoLV 1.06.04: one group may gather from several sectors of its territory unless the
    #: storm separates them; AH questions B.1: groups in different sectors move separately.
    group_across_sectors: bool
    #: WBC IX.2: no entering (even passing through) a territory where an ally stands.
    ally_blocks_path: bool
    #: Whether a group of BG advisors alone may fly (WBC XV.19: yes; LoLV 2.02.12: no).
    advisors_fly: bool
    #: LoLV 2.02.14 / 2.02.20: moving BG tokens take the type of the BG tokens already in the
    #: destination, and advisors entering an unoccupied territory become fighters.
    bg_types_adapt: bool
    #: Which `ForcesMoved.via` kinds the ruleset knows.
    vias: frozenset[str]
    cards: Mapping[str, MoveCard]


@dataclass(frozen=True, slots=True)
class Movement:
    """A faction's movement (or cross-shipment) so far in this phase."""

    from_territory: str
    from_sector: int | None
    to_territory: str
    to_sector: int | None
    #: Range of the current action (territories).
    reach: int
    #: Actions begun this phase, and actions allowed (1 + extra-action cards played).
    actions: int
    allowed: int


# --- the piece graph ---------------------------------------------------------------------


def _build_graph() -> dict[Piece, tuple[Piece, ...]]:
    def piece(name: str) -> Piece:
        t, _, s = name.partition("@")
        return (t, int(s) if s else None)

    graph: dict[Piece, list[Piece]] = {}
    for t in TERRITORIES.values():
        for s in t.sectors or (None,):
            graph[(t.id, s)] = []
    for a, b in BOARD.piece_adjacency:
        graph[piece(a)].append(piece(b))
    return {p: tuple(sorted(n, key=lambda x: (x[0], -1 if x[1] is None else x[1]))) for p, n in graph.items()}


GRAPH: dict[Piece, tuple[Piece, ...]] = _build_graph()

#: Arrakeen, Carthag and the Imperial Basin (behind the Shield Wall).
SHIELDED: frozenset[str] = frozenset(t.id for t in TERRITORIES.values() if t.shielded)

_CACHE: dict[tuple[int | None, bool, Piece], dict[Piece, int]] = {}
_BLOCKED_CACHE: dict[tuple[int | None, bool, Piece, frozenset[Piece]], dict[Piece, int]] = {}
_BLOCKED_CACHE_SIZE = 4096


# The piece graph by number, for the search (the cold replay's hottest loop): each piece's
# neighbours with whether entering them enters another territory, and the pieces in storm for
# each storm sector, with and without the first edition's shelter behind the Shield Wall.
_PIECES: tuple[Piece, ...] = tuple(GRAPH)
_NUMBER: dict[Piece, int] = {p: i for i, p in enumerate(_PIECES)}
_NEXT: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((_NUMBER[q], int(q[0] != p[0])) for q in GRAPH[p]) for p in _PIECES
)
_STORMED: dict[tuple[int | None, bool], frozenset[int]] = {
    (storm, spared): frozenset(
        i for i, (t, s) in enumerate(_PIECES) if storm is not None and s == storm and not (spared and t in SHIELDED)
    )
    for storm in (None, *range(SECTOR_COUNT))
    for spared in (False, True)
}


def _search(source: Piece, storm: int | None, sheltered: bool, blocked: frozenset[Piece]) -> dict[Piece, int]:
    """0-1 BFS: territories entered to reach each piece from `source` (storm pieces and
    blocked pieces are never entered). `sheltered`: the Shield Wall's territories are never
    in storm (the first edition's reading, `editions.sheltered`). The answer lists the pieces
    in the order the search first reaches them."""
    start = _NUMBER[source]
    closed = _STORMED[(storm, sheltered)]
    if blocked:
        closed = closed | {_NUMBER[p] for p in blocked if p in _NUMBER}
    dist = [UNREACHABLE] * len(_PIECES)
    dist[start] = 0
    reached = [start]
    queue: deque[int] = deque(reached)
    nexts = _NEXT
    while queue:
        here = queue.popleft()
        d = dist[here]
        for there, step in nexts[here]:
            if there in closed:
                continue
            nd = d + step
            old = dist[there]
            if nd < old:
                if old == UNREACHABLE:
                    reached.append(there)
                dist[there] = nd
                if step:
                    queue.append(there)
                else:
                    queue.appendleft(there)
    pieces = _PIECES
    return {pieces[i]: dist[i] for i in reached}


def distances(
    source: Piece,
    storm: int | None,
    sheltered: bool,
    blocked: frozenset[Piece] = frozenset(),
) -> Mapping[Piece, int]:
    """Territories entered to reach every reachable piece from `source`. The source itself
    must not be in storm (callers check). Cached: unblocked searches for good (at most
    19 storms x 2 x 87 sources), blocked ones in a small table emptied when full."""
    if blocked:
        bkey = (storm, sheltered, source, blocked)
        hit = _BLOCKED_CACHE.get(bkey)
        if hit is None:
            if len(_BLOCKED_CACHE) >= _BLOCKED_CACHE_SIZE:
                _BLOCKED_CACHE.clear()
            hit = _BLOCKED_CACHE[bkey] = _search(source, storm, sheltered, blocked)
        return hit
    key = (storm, sheltered, source)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = _search(source, storm, sheltered, blocked)
    return found


def clear_caches() -> None:
    """Forget every cached search (benchmarks measure a cold start with it)."""
    _CACHE.clear()
    _BLOCKED_CACHE.clear()


def distance(
    source: Piece,
    target: Piece,
    storm: int | None,
    sheltered: bool,
    blocked: frozenset[Piece] = frozenset(),
) -> int:
    return distances(source, storm, sheltered, blocked).get(target, UNREACHABLE)


def untracked(territory: str) -> bool:
    """The Hidden Mobile Stronghold points at a sector the engine does not track, so no
    distance to or from it can be decided (LoLV 2.07.17)."""
    return territory == HIDDEN_MOBILE_STRONGHOLD


def pieces_of(territory: str) -> tuple[Piece, ...]:
    t = TERRITORIES[territory]
    return tuple((territory, s) for s in t.sectors) if t.sectors else ((territory, None),)


#: Strongholds with an occupancy limit (the Shield Wall has none: LoLV 4.02.03, WBC).
LIMITED_STRONGHOLDS: frozenset[str] = frozenset(
    t.id for t in TERRITORIES.values() if t.is_stronghold and t.id != SHIELD_WALL
)
