"""The seating planner: which players share a table, in which seat, with which factions.

Pure Python (no Django, no clock, no module-level randomness): frozen dataclasses in, table
plans out. The Django layer builds a :class:`SeatingRequest` from the database through its one
adapter module, calls :func:`plan_seating`, and saves the :class:`SeatingPlan` it answers.

Rules implemented (numbers as cited in messages and tests):

- table sizes: the format's (`tables.sizes`): as many tables of the largest as possible, every
  table at least the smallest (5-6: LoLV 4.01.01; WBC 2018 format, heats). Other counts raise
  :class:`UnsplittableCount` with the options.
- seating order: drawn at random, seat 1 nearest Tuek's Sietch, each next seat to the right
  (LoLV 0.07; WBC house rules draw seating order at random too). :func:`marker_sector` turns a
  seat into the sector of its player marker.
- factions: WBC draws the six classic factions (one stays out at a 5-player table); LoLV 0.08
  deals one classic and one expansion alliance card per player (the draw is in
  :mod:`dune.seating_draw`; trades, kept cards and the final's picks in
  :mod:`dune.seating_changes`).
- latecomers within the grace period (WBC 2018 format: 15 minutes) and manual swaps are in
  :mod:`dune.seating_changes`.

Every message names the rule and names players and factions as people read them: players by
the display names the request carries (:attr:`SeatingRequest.names`), factions by the engine's
:func:`~dune.engine.names.faction_name`; the ids stay in each refusal's ``offending``.
:class:`SeatingUserError` is what a head judge can fix; :class:`SeatingBug` an impossible state;
a plain ``ValueError`` an unknown option.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from dune.engine.board import PLAYER_DOTS, TERRITORIES, TUEKS_SIETCH
from dune.engine.ids import FACTIONS
from dune.engine.names import faction_name, factions_text, join_names
from dune.formats import Format, get_format
from dune.refusals import Refusal
from dune.seating_draw import (
    FULL_TABLE,
    KEEP_APART_WEIGHT,
    SmallTableOption,
    draw_factions,
    group_players,
    improve_faction_fit,
    min_faction_repeats,
    regular_sizes,
    small_table_options,
)
from dune.words import ENGLISH, Words

__all__ = [
    "DuplicatePlayer",
    "KEEP_APART_KINDS",
    "KeepApart",
    "NoPlayers",
    "PastSeat",
    "PastTable",
    "PlannedSeat",
    "PlannedTable",
    "PlayerInTwoTables",
    "SeatingBug",
    "SeatingIssue",
    "SeatingPlan",
    "SeatingRequest",
    "SeatingUserError",
    "SmallTableOption",
    "UnknownPlayer",
    "UnsplittableCount",
    "check_faction",
    "check_format",
    "check_player_ids",
    "count_repeats",
    "marker_sector",
    "assess",
    "pair_weights",
    "plan_seating",
    "played_factions",
    "player_name",
    "players_text",
    "replace_table",
    "small_table_options",
    "table_sizes",
    "times_count",
    "times_words",
    "validate_tables",
]

RULE_SEAT_ORDER = "LoLV 0.07"
RULE_ONE_TABLE = "one table per player per round"

#: Why two players asked to be kept apart.
KEEP_APART_KINDS: tuple[str, ...] = ("household", "club", "request")
#: The six player markers' dots (dune_board.json board.player_dots) and Tuek's Sietch's sector.
PLAYER_DOT_SECTORS: tuple[int, ...] = PLAYER_DOTS
TUEKS_SIETCH_SECTOR: int = TERRITORIES[TUEKS_SIETCH].sectors[0]


# --------------------------------------------------------------------------- errors


class SeatingUserError(Refusal):
    """A problem the head judge can fix; carries the rule, the offending input (ids) and, when
    one input is at fault, its ``field`` (the planner's parameter name: ``faction``,
    ``consenting``)."""

    def __init__(self, message: str, *, rule: str, offending: object, field: str | None = None) -> None:
        super().__init__(message, rule=rule, field=field, offending=offending, text=f"{rule}: {message}")


class UnsplittableCount(SeatingUserError):
    """The count does not split into the format's table sizes; ``options`` lists the choices."""

    def __init__(
        self, count: int, options: tuple[SmallTableOption, ...], *, rule: str, sizes: Sequence[int] = (5, 6)
    ) -> None:
        self.count = count
        self.options = options
        keys = ", ".join(o.key for o in options)
        words = " or ".join(str(n) for n in sorted(set(sizes))) if len(set(sizes)) < 3 else f"{min(sizes)} to {max(sizes)}"
        super().__init__(
            f"{count!r} players cannot all sit at tables of {words}; choose one of: {keys}",
            rule=rule,
            offending=count,
        )


class NoPlayers(SeatingUserError):
    """Nobody to seat."""


class DuplicatePlayer(SeatingUserError):
    """The same player id was given twice."""


class PlayerInTwoTables(SeatingUserError):
    """A player sits at two tables of one round."""


class UnknownPlayer(SeatingUserError):
    """A player id that is not part of the plan."""


class SeatingBug(RuntimeError):
    """The planner produced an impossible state (someone seated twice or left out)."""


# --------------------------------------------------------------------------- names


def player_name(player: int, names: Mapping[int, str]) -> str:
    """The player as a message names them: their display name from ``names``, or, when it is
    missing, ``player #12`` (the id, marked as one)."""
    return names.get(player) or f"player #{player}"


def players_text(players: Iterable[int], names: Mapping[int, str]) -> str:
    """Players by name, in the order given: ``Ann, Bob and Cy``."""
    return join_names(player_name(p, names) for p in players)


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class PastSeat:
    """A player's seat in an earlier round, with the faction played there (if recorded)."""

    player: int
    faction: str | None = None


@dataclass(frozen=True)
class PastTable:
    """An earlier round's table: who met whom and who played which faction."""

    round: int
    seats: tuple[PastSeat, ...]


@dataclass(frozen=True)
class KeepApart:
    """Players asking not to share a table (same household, same club, or another request)."""

    players: frozenset[int]
    kind: str = "request"


@dataclass(frozen=True)
class SeatingRequest:
    """Everything the planner needs to seat one round.

    ``small_tables`` is the key of a :class:`SmallTableOption` the head judge chose after
    :class:`UnsplittableCount` (``"fours:1"``, ``"wait:3"``); None for a regular split.
    ``names`` maps player ids to display names for the messages (the round's players and any
    other player a later change may name); it never changes the plan, so two requests that
    differ only in names compare equal. A player missing from it is named by id.
    """

    players: tuple[int, ...]
    #: The format's key, or the tournament's own format (built from its document).
    format: str | Format
    seed: int
    history: tuple[PastTable, ...] = ()
    keep_apart: tuple[KeepApart, ...] = ()
    small_tables: str | None = None
    names: Mapping[int, str] = field(default_factory=dict, compare=False, repr=False)

    def name_of(self, player: int) -> str:
        """The player's display name (see :func:`player_name`)."""
        return player_name(player, self.names)


# --------------------------------------------------------------------------- outputs


@dataclass(frozen=True)
class PlannedSeat:
    """A player at a table: seat number (1 nearest Tuek's Sietch) and faction.

    ``dealt`` is what the draw gave: WBC the drawn faction; LoLV the two alliance cards
    (classic, expansion). ``faction`` is the faction played: WBC the drawn one until a trade,
    LoLV None until the player's kept card is recorded.
    """

    player: int
    seat: int
    faction: str | None
    dealt: tuple[str, ...]


@dataclass(frozen=True)
class PlannedTable:
    """One table of a plan, seats in seating order; ``undrawn`` lists factions left out."""

    number: int
    seats: tuple[PlannedSeat, ...]
    undrawn: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(s.player for s in self.seats)


@dataclass(frozen=True)
class SeatingIssue:
    """Something the planner could not avoid, or a check the plan fails, for the head judge."""

    code: str
    players: tuple[int, ...]
    table: int | None
    rule: str
    message: str

    def to_dict(self) -> dict[str, object]:
        """The issue as JSON-ready data (the API's ``issues`` entries)."""
        return {
            "code": self.code,
            "players": list(self.players),
            "table": self.table,
            "rule": self.rule,
            "message": self.message,
        }


@dataclass(frozen=True)
class SeatingPlan:
    """The planner's answer: tables, who waits, what could not be avoided, and why.

    ``flags`` are plan-wide reason flags (``repeat_opponent_avoided``, ``players_waiting``,
    ``manual_swap`` ...); ``repeats_in_draw`` counts repeat pairings in the plain random draw
    before avoidance, ``repeats`` those left in the plan.
    """

    request: SeatingRequest
    tables: tuple[PlannedTable, ...]
    waiting: tuple[int, ...] = ()
    issues: tuple[SeatingIssue, ...] = ()
    flags: tuple[str, ...] = ()
    repeats_in_draw: int = 0
    repeats: int = 0

    @property
    def seed(self) -> int:
        return self.request.seed

    @property
    def format(self) -> str | Format:
        return self.request.format

    def table_of(self, player: int) -> PlannedTable:
        """Answer the player's table. Raises UnknownPlayer if the player is not seated."""
        for table in self.tables:
            if player in table.players:
                return table
        raise UnknownPlayer(
            f"{self.request.name_of(player)} has no seat in this round", rule=RULE_ONE_TABLE, offending=player
        )


# --------------------------------------------------------------------------- validation


def check_format(fmt: str | Format) -> Format:
    """The format ``fmt`` (a tournament's own, or a registered one by key); raises UnknownFormat
    (a ValueError) for any other key."""
    return get_format(fmt)


def check_faction(faction: str) -> None:
    """Raise ValueError unless ``faction`` is a stable faction id."""
    if faction not in FACTIONS:
        raise ValueError(f"unknown faction {faction!r}; expected one of {FACTIONS!r}")


def check_player_ids(players: Iterable[object], *, rule: str, names: Mapping[int, str] | None = None) -> None:
    """Raise ValueError for a non-integer id and DuplicatePlayer (naming the player from
    ``names``) for an id given twice."""
    seen: set[object] = set()
    for p in players:
        if not isinstance(p, int) or isinstance(p, bool):
            raise ValueError(f"player ids are integers, got {p!r}")
        if p in seen:
            raise DuplicatePlayer(f"{player_name(p, names or {})} is listed twice", rule=rule, offending=p)
        seen.add(p)


def validate_tables(tables: Iterable[PlannedTable], names: Mapping[int, str] | None = None) -> None:
    """Check every player sits once and seat numbers run 1..n at each table.

    Raises PlayerInTwoTables if a player has two seats (naming them from ``names``),
    SeatingUserError for seat numbers that are not 1..n or for a faction twice at one table.
    """
    where: dict[int, int] = {}
    for table in tables:
        for s in table.seats:
            if s.player in where:
                raise PlayerInTwoTables(
                    f"{player_name(s.player, names or {})} is seated at table {where[s.player]} "
                    f"and table {table.number}",
                    rule=RULE_ONE_TABLE,
                    offending=s.player,
                )
            where[s.player] = table.number
        if [s.seat for s in table.seats] != list(range(1, len(table.seats) + 1)):
            raise SeatingUserError(
                f"table {table.number} seats are numbered {join_names(str(s.seat) for s in table.seats)}, "
                f"not 1 to {len(table.seats)}",
                rule=RULE_SEAT_ORDER,
                offending=table.number,
            )
        dealt = [f for s in table.seats for f in s.dealt]
        playing = [s.faction for s in table.seats if s.faction is not None]
        if len(dealt) != len(set(dealt)) or len(playing) != len(set(playing)):
            twice = [f for f in dict.fromkeys(dealt + playing) if dealt.count(f) > 1 or playing.count(f) > 1]
            raise SeatingUserError(
                f"table {table.number} has a faction twice: {factions_text(twice)}",
                rule="LoLV 0.08 / WBC 2018 house rules",
                offending=table.number,
            )


def _validate_request(request: SeatingRequest) -> None:
    check_format(request.format)
    if not isinstance(request.seed, int) or isinstance(request.seed, bool):
        raise ValueError(f"seed must be an integer, got {request.seed!r}")
    if not request.players:
        raise NoPlayers(
            "nobody to seat: no player is checked in for this round",
            rule=get_format(request.format).table_sizes_rule,
            offending=request.players,
        )
    check_player_ids(request.players, rule=RULE_ONE_TABLE, names=request.names)
    seen_in_round: dict[tuple[int, int], int] = {}
    for index, past in enumerate(request.history):
        for s in past.seats:
            if s.faction is not None:
                check_faction(s.faction)
            key = (past.round, s.player)
            if key in seen_in_round:
                raise PlayerInTwoTables(
                    f"{request.name_of(s.player)} appears at two tables of earlier round {past.round}",
                    rule=RULE_ONE_TABLE,
                    offending=s.player,
                )
            seen_in_round[key] = index
    for group in request.keep_apart:
        if group.kind not in KEEP_APART_KINDS:
            raise ValueError(f"unknown keep-apart kind {group.kind!r}; expected one of {KEEP_APART_KINDS!r}")


# --------------------------------------------------------------------------- sizes


def table_sizes(
    count: int, *, format: str | Format = "wbc", small_tables: str | None = None
) -> tuple[tuple[int, ...], int]:
    """Answer (table sizes largest first, number of players who wait) for ``count`` players.

    The format's table sizes (`tables.sizes`) decide: as many tables of the largest as possible
    with every table at least the smallest (LoLV 4.01.01, WBC 2018: 5-6, so 45 players give
    five 6s and three 5s). Raises NoPlayers for zero players, UnsplittableCount (with the
    options; at 5-6: 1-4, 7-9, 13, 14 and 19 players) unless ``small_tables`` names one of
    those options, and ValueError for an unknown format or a ``small_tables`` key that is not
    an option for this count.
    """
    rules = check_format(format)
    rule, allowed = rules.table_sizes_rule, rules.table_sizes
    if count <= 0:
        raise NoPlayers(f"cannot seat {count!r} players", rule=rule, offending=count)
    options = small_table_options(count, allowed)
    if small_tables is None:
        sizes = regular_sizes(count, allowed)
        if sizes is None:
            raise UnsplittableCount(count, options, rule=rule, sizes=allowed)
        return sizes, 0
    for option in options:
        if option.key == small_tables:
            return option.sizes, option.waiting
    raise ValueError(
        f"unknown small_tables option {small_tables!r} for {count} players; "
        f"options are {tuple(o.key for o in options)!r}"
    )


# --------------------------------------------------------------------------- the planner


def pair_weights(request: SeatingRequest) -> dict[int, dict[int, int]]:
    """Answer the weight of seating two players together: earlier meetings plus keep-apart requests."""
    weights: dict[int, dict[int, int]] = {}

    def add(a: int, b: int, w: int) -> None:
        row_a, row_b = weights.setdefault(a, {}), weights.setdefault(b, {})
        row_a[b] = row_a.get(b, 0) + w
        row_b[a] = row_b.get(a, 0) + w

    for past in request.history:
        ids = [s.player for s in past.seats]
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                add(a, b, 1)
    for group in request.keep_apart:
        ids = sorted(group.players)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                add(a, b, KEEP_APART_WEIGHT)
    return weights


def played_factions(request: SeatingRequest) -> dict[int, frozenset[str]]:
    """Answer the factions each player played in the request's earlier rounds."""
    played: dict[int, set[str]] = {}
    for past in request.history:
        for s in past.seats:
            if s.faction is not None:
                played.setdefault(s.player, set()).add(s.faction)
    return {p: frozenset(f) for p, f in played.items()}


def _faction_repeats_at(table: Sequence[int], fmt: str | Format, played: Mapping[int, frozenset[str]]) -> int:
    """The fewest faction repeats any draw can give this group (WBC: classic; LoLV: both halves)."""
    history = [played.get(p, frozenset()) for p in table]
    if not any(history):
        return 0
    # WBC: the classic factions; LoLV 0.08: the expansion card is dealt too.
    return sum(min_faction_repeats(pool, history) for pool in get_format(fmt).heat_factions)


def _deal_table(
    number: int, players: list[int], fmt: str | Format, played: Mapping[int, frozenset[str]], rng: random.Random
) -> PlannedTable:
    """Draw the seating order (LoLV 0.07) and the factions (WBC house rules / LoLV 0.08)."""
    rng.shuffle(players)
    history = [played.get(p, frozenset()) for p in players]
    rules = get_format(fmt)
    if not rules.deals_cards:  # WBC house rules: the format's factions are drawn
        (pool,) = rules.heat_factions
        draw = draw_factions(pool, history, rng)
        seats = tuple(
            PlannedSeat(player=p, seat=i + 1, faction=f, dealt=(f,))
            for i, (p, f) in enumerate(zip(players, draw.drawn, strict=True))
        )
        return PlannedTable(number=number, seats=seats, undrawn=draw.undrawn)
    classic_pool, expansion_pool = rules.heat_factions  # LoLV 0.08: one card of each
    classic = draw_factions(classic_pool, history, rng)
    expansion = draw_factions(expansion_pool, history, rng)
    seats = tuple(
        PlannedSeat(player=p, seat=i + 1, faction=None, dealt=(c, e))
        for i, (p, c, e) in enumerate(zip(players, classic.drawn, expansion.drawn, strict=True))
    )
    return PlannedTable(number=number, seats=seats, undrawn=classic.undrawn + expansion.undrawn)


def plan_seating(request: SeatingRequest) -> SeatingPlan:
    """Seat one round: group the players, draw seating order and factions, report issues.

    Reproducible: every random choice comes from ``random.Random(request.seed)``. Over the
    random draw the planner minimises keep-apart violations, then pairs who met in earlier
    rounds, then (per table) factions a player already played.

    Raises NoPlayers (empty list), DuplicatePlayer (an id twice), PlayerInTwoTables (an earlier
    round seats a player twice), UnsplittableCount (count needs the head judge's choice),
    ValueError (unknown format, faction, keep-apart kind or small_tables option, non-integer
    ids or seed), SeatingBug (the plan seats someone twice or leaves someone out).
    """
    _validate_request(request)
    sizes, waiting_count = table_sizes(
        len(request.players), format=request.format, small_tables=request.small_tables
    )
    rng = random.Random(request.seed)
    players = list(request.players)
    waiting: tuple[int, ...] = ()
    if waiting_count:
        rng.shuffle(players)
        waiting = tuple(sorted(players[:waiting_count]))
        players = players[waiting_count:]
    weights = pair_weights(request)
    groups, first_draw = group_players(players, sizes, weights, rng) if sizes else ([], [])
    played = played_factions(request)
    if played:
        improve_faction_fit(
            groups, weights, lambda table: _faction_repeats_at(table, request.format, played), rng
        )
    tables = tuple(
        _deal_table(number, group, request.format, played, rng)
        for number, group in enumerate(groups, start=1)
    )
    smallest = min(get_format(request.format).table_sizes)
    small = [size for size in sizes if size < smallest]
    flags = [("four_player_tables" if small == [4] * len(small) else "small_player_tables")] if small else []
    if waiting:
        flags.append("players_waiting")
    draw_repeats = count_repeats(first_draw, request.history)
    plan = assess(SeatingPlan(request=request, tables=tables, waiting=waiting, repeats_in_draw=draw_repeats))
    if plan.repeats < draw_repeats:
        flags.append("repeat_opponent_avoided")
    if request.keep_apart and not any(i.code == "keep_apart_violated" for i in plan.issues):
        flags.append("keep_apart_honoured")
    plan = replace(plan, flags=tuple(flags))
    _check_complete(plan)
    return plan


def count_repeats(tables: Iterable[Sequence[int]], history: Iterable[PastTable]) -> int:
    """Count the pairs seated together in ``tables`` who already shared a table in ``history``."""
    met: set[tuple[int, int]] = set()
    for past in history:
        ids = sorted(s.player for s in past.seats)
        met.update((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :])
    total = 0
    for table in tables:
        ids = sorted(table)
        total += sum(1 for i, a in enumerate(ids) for b in ids[i + 1 :] if (a, b) in met)
    return total


def _check_complete(plan: SeatingPlan) -> None:
    """Raise SeatingBug unless every requested player is seated once or waits."""
    try:
        validate_tables(plan.tables, plan.request.names)
    except SeatingUserError as error:
        raise SeatingBug(f"planner produced an invalid plan: {error}") from error
    placed = sorted([p for t in plan.tables for p in t.players] + list(plan.waiting))
    if placed != sorted(plan.request.players):
        raise SeatingBug(f"planner placed {placed!r} but was asked to seat {sorted(plan.request.players)!r}")


def assess(plan: SeatingPlan) -> SeatingPlan:
    """Answer ``plan`` with issues, table flags and repeat count recomputed from its tables.

    Issues: ``repeat_opponent_unavoidable`` (two players who met before share a table),
    ``keep_apart_violated``, ``faction_repeat_unavoidable`` (WBC: the faction held was played
    before; LoLV: both dealt cards were).

    Long because it walks each table once and checks the three kinds of issue in that one
    pass, so that the flags and issues of a table stay together.
    """
    request = plan.request
    weights = pair_weights(replace(request, keep_apart=()))
    apart = {
        frozenset((a, b)): g.kind for g in request.keep_apart for a in g.players for b in g.players if a < b
    }
    played = played_factions(request)
    issues: list[SeatingIssue] = []
    tables: list[PlannedTable] = []
    repeats = 0
    for table in plan.tables:
        flags: list[str] = []
        ids = sorted(table.players)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                met = weights.get(a, {}).get(b, 0)
                if met:
                    repeats += 1
                    flags.append("repeat_opponent_unavoidable")
                    issues.append(
                        SeatingIssue(
                            "repeat_opponent_unavoidable",
                            (a, b),
                            table.number,
                            get_format(request.format).table_sizes_rule,
                            message=f"{request.name_of(a)} and {request.name_of(b)} already met {times_words(met)} "
                            f"and share table {table.number}",
                        )
                    )
                kind = apart.get(frozenset((a, b)))
                if kind is not None:
                    flags.append("keep_apart_violated")
                    issues.append(
                        SeatingIssue(
                            "keep_apart_violated",
                            (a, b),
                            table.number,
                            "keep-apart request",
                            message=f"{request.name_of(a)} and {request.name_of(b)} asked to be kept apart "
                            f"({kind}) but share table {table.number}",
                        )
                    )
        for s in table.seats:
            before = played.get(s.player, frozenset())
            options = s.dealt if get_format(request.format).deals_cards or not s.faction else (s.faction,)
            if options and all(f in before for f in options):
                flags.append("faction_repeat_unavoidable")
                issues.append(
                    SeatingIssue(
                        "faction_repeat_unavoidable",
                        (s.player,),
                        table.number,
                        get_format(request.format).faction_rule,
                        message=_faction_repeat(request.name_of(s.player), options, table.number),
                    )
                )
        tables.append(replace(table, flags=tuple(dict.fromkeys(flags))))
    return replace(plan, tables=tuple(tables), issues=tuple(issues), repeats=repeats)


def _faction_repeat(name: str, factions: Sequence[str], table: int) -> str:
    """The issue of a player who gets again what they played before: one faction (WBC), or
    both dealt cards (LoLV)."""
    if len(factions) == 1:
        return f"{name} already played {faction_name(factions[0])} and gets it again at table {table}"
    return f"{name} already played {factions_text(factions)} and gets them again at table {table}"


#: How often two players met before, as an issue says it (``times_words``).
TIMES_CONTEXT = "how often two players met before"


def times_words(count: int, words: Words = ENGLISH) -> str:
    """How often two players met before: "once", "twice", "3 times" (in the reader's language
    through ``words``, dune/words.py)."""
    if count == 1:
        return words.pgettext(TIMES_CONTEXT, "once")
    if count == 2:
        return words.pgettext(TIMES_CONTEXT, "twice")
    return words.ngettext("%(count)s time", "%(count)s times", count) % {"count": count}


def times_count(text: str) -> int | None:
    """The count ``times_words`` wrote in English ("once" -> 1, "3 times" -> 3); None for other
    text."""
    known = {"once": 1, "twice": 2}.get(text)
    if known is not None:
        return known
    number, _, unit = text.partition(" ")
    return int(number) if unit in ("time", "times") and number.isdigit() else None


# --------------------------------------------------------------------------- player markers


def marker_sector(seat: int, table_size: int) -> int:
    """Answer the sector of the player marker for ``seat`` at a table of ``table_size``.

    LoLV 0.07: seat 1 sits nearest Tuek's Sietch (sector 4, so the dot in sector 4) and each
    next seat sits to the right, which around the board is counterclockwise, the direction
    sectors are numbered and the storm moves: seats 1..6 take the dots in sectors 4, 7, 10,
    13, 16, 1. At a smaller table the seats still take consecutive printed dots from sector 4
    (LoLV 0.10: each marker goes on the dot nearest its player), so at 5 players the dot in
    sector 1 stays empty; it lies between the last seat and seat 1, exactly where a latecomer
    taking seat 6 (:func:`seat_latecomer`) sits, so nobody moves. Raises ValueError for a table
    size outside 2..6 or a seat outside 1..table_size.
    """
    if not 2 <= table_size <= FULL_TABLE:
        raise ValueError(f"table size {table_size!r} is not between 2 and {FULL_TABLE}")
    if not 1 <= seat <= table_size:
        raise ValueError(f"seat {seat!r} is not between 1 and {table_size}")
    first = PLAYER_DOT_SECTORS.index(TUEKS_SIETCH_SECTOR)
    return PLAYER_DOT_SECTORS[(first + seat - 1) % len(PLAYER_DOT_SECTORS)]


# --------------------------------------------------------------------------- plan edits


def replace_table(plan: SeatingPlan, table: PlannedTable, flag: str) -> SeatingPlan:
    """Answer ``plan`` with the table of the same number replaced, revalidated and reassessed.

    Adds ``flag`` to the plan's flags. Raises PlayerInTwoTables or SeatingUserError if the new
    table breaks the plan (a player twice, seats not 1..n, a faction twice).
    """
    tables = tuple(table if t.number == table.number else t for t in plan.tables)
    validate_tables(tables, plan.request.names)
    flags = plan.flags if flag in plan.flags else plan.flags + (flag,)
    return assess(replace(plan, tables=tables, flags=flags))
