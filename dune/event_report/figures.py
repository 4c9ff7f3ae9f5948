"""The event report's figures: a pure function of the filed reports, the seating and the clocks.

What the head judge used to count by hand after the event (players, games, turns and hours
per game by table size, how games ended, solo and alliance wins, adjudications, faction
balance, awards, the final) is computed here from plain records, with no database and no
Django. Format-specific parts are asked of the format registry and the format's points
system: the registry says whether the format gives best-faction awards (computed by
`dune.points.awards`), the points table names the result kinds, and the precedence gives
the finalists' tiebreak tuples.

Exact arithmetic throughout (Fractions); rounding to two places happens only in `two_places`,
for display. Hours are active clock time (pauses excluded, `dune.clock_limits.active_time`) from
the start of play to the end of the game; a game without a complete clock record is counted
as such and never guessed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from dune.clock_limits import Interval, IntervalError, active_time
from dune.engine.ids import LOSING_KINDS, ResultKind
from dune.engine.results import ENDED_BY, RESULTS
from dune.formats import Format, get_format
from dune.points import (
    Award,
    Placing,
    PlayerId,
    PointsSystem,
    StandingRow,
    TableResult,
    awards_from,
    faction_scores,
)
from dune.points.base import Metric
from dune.points.screening import screened_standings

#: Table sizes the report always shows, even before any game of that size (5 and 6 players).
MAIN_SIZES: tuple[int, ...] = (5, 6)
_HOUR_US = 3600 * 10**6
_MICROSECOND = timedelta(microseconds=1)


class EventReportError(ValueError):
    """Records that cannot form a report: names the table and what is wrong with it."""


# --- records (what the adapter loads) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round of the tournament; `closed` once the head judge has finished it."""

    number: int
    is_final: bool
    closed: bool


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of the seating: a player at a table of a round, with its faction if drawn."""

    table: Hashable
    table_number: int
    round_number: int
    is_final: bool
    player: PlayerId
    seat: int
    faction: str | None


@dataclass(frozen=True, slots=True)
class ClockRecord:
    """A table's clock from the start of play to the end of the game, with its pauses."""

    table: Hashable
    started_at: datetime
    ended_at: datetime
    pauses: tuple[Interval, ...] = ()

    @property
    def played(self) -> timedelta:
        """Time the game was played, pauses excluded.

        Raises:
            dune.clock_limits.IntervalError: pauses that overlap or run backwards.
        """
        return active_time(started_at=self.started_at, pauses=self.pauses, now=self.ended_at)


@dataclass(frozen=True, slots=True)
class EventRecords:
    """Everything the report reads about one tournament.

    `reports` are the filed game reports (their `table` is the table's id, as in the seating
    and the clocks). `qualifiers` are the finalists as scoring announces them, used while the
    final is not seated yet (once it is, the final's seating names them).
    """

    tournament: int
    format: str
    rounds: tuple[RoundRecord, ...]
    reports: tuple[TableResult, ...]
    seats: tuple[SeatRecord, ...] = ()
    clocks: tuple[ClockRecord, ...] = ()
    qualifiers: tuple[PlayerId, ...] = ()
    awards: tuple[Award, ...] | None = None
    #: The standings as scoring computed them (reports that contradict each other screened
    #: out); None to compute them here the same way (`dune.points.screening`).
    standings: tuple[StandingRow, ...] | None = None
    #: The tournament's own format (built from its document); None: the preset `format`.
    rules: Format | None = None
    #: The final's placings as scoring computed them (WBC Final Round Format), once filed.
    placings: tuple[Placing, ...] = ()
    #: Game reports reopened for correction (they count again once filed again).
    reopened: int = 0


# --- figures (what the report shows) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spread:
    """Mean and median of some games' values (None without any game)."""

    games: int
    mean: Fraction | None
    median: Fraction | None

    @classmethod
    def of(cls, values: Iterable[int], *, unit: int = 1) -> Spread:
        """The spread of whole-number `values` counted in `unit`ths (hours as microseconds):
        sorting ints is what keeps a 10,000-player event fast; the answers are exact."""
        data = sorted(values)
        n = len(data)
        if not n:
            return cls(0, None, None)
        middle = (
            Fraction(data[n // 2], unit) if n % 2 else Fraction(data[n // 2 - 1] + data[n // 2], 2 * unit)
        )
        return cls(n, Fraction(sum(data), n * unit), middle)


@dataclass(frozen=True, slots=True)
class SizeFigures:
    """Games at tables of one size: turns over every game, hours over the timed ones."""

    size: int
    games: int
    turns: Spread
    hours: Spread
    #: (turns, games) pairs, fewest turns first: the game length distribution.
    turns_histogram: tuple[tuple[int, int], ...]

    @property
    def untimed(self) -> int:
        """Games of this size without a clock record."""
        return self.games - self.hours.games


@dataclass(frozen=True, slots=True)
class FactionFigures:
    """Games a faction played and games it was among the winners of."""

    faction: str
    games: int
    wins: int

    @property
    def rate(self) -> Fraction | None:
        return Fraction(self.wins, self.games) if self.games else None


@dataclass(frozen=True, slots=True)
class RoundFigures:
    """Filed games of one round and how many of them were adjudicated."""

    number: int
    is_final: bool
    closed: bool
    games: int
    adjudicated: int


@dataclass(frozen=True, slots=True)
class FinalSeat:
    seat: int
    player: PlayerId
    faction: str | None
    result: ResultKind | None


@dataclass(frozen=True, slots=True)
class FinalFigures:
    """The final's table: its seats and, once its report is filed, how it ended."""

    table: Hashable
    table_number: int
    seats: tuple[FinalSeat, ...]
    filed: bool
    winners: tuple[PlayerId, ...]
    results: tuple[ResultKind, ...]
    ended_by: str | None
    turns: int | None
    hours: Fraction | None


@dataclass(frozen=True, slots=True)
class Finalist:
    """A finalist's qualifying points and tiebreak tuple, as the format's system computes them."""

    player: PlayerId
    points: Fraction
    tiebreak: tuple[Metric, ...]
    disqualified: bool


@dataclass(frozen=True, slots=True)
class TiebreakGroup:
    """One tiebreaker of the format's precedence: its summary, how many values it has and
    the label of each value."""

    key: str
    summary: str
    size: int
    labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EventReport:
    tournament: int
    format: str
    provisional: bool
    rounds: tuple[RoundFigures, ...]
    players: int
    games: int
    heat_games: int
    final_games: int
    turns: Spread
    hours: Spread
    by_size: tuple[SizeFigures, ...]
    #: Every winning kind the format scores, in its points table's order, with its game count.
    results: tuple[tuple[ResultKind, int], ...]
    result_labels: Mapping[ResultKind, str]
    ended_by: tuple[tuple[str, int], ...]
    solo_wins: int
    #: (alliance size, games won by an alliance of that size).
    alliance_wins: tuple[tuple[int, int], ...]
    adjudicated: int
    concessions: int
    dropouts: int
    factions: tuple[FactionFigures, ...]
    factions_heats: tuple[FactionFigures, ...]
    factions_final: tuple[FactionFigures, ...]
    awards_rule: str | None
    awards: tuple[Award, ...]
    tiebreaks: tuple[TiebreakGroup, ...]
    finalists: tuple[Finalist, ...]
    final: FinalFigures | None
    #: How the best-faction awards measure a game, in words (the format's `awards.measure`).
    awards_how: str = ""
    #: The final's placings (scoring's), 1st to last, once the final's report is filed.
    placings: tuple[Placing, ...] = ()
    #: Game reports reopened for correction: the figures are provisional until they are filed.
    reopened: int = 0

    @property
    def champion(self) -> tuple[PlayerId, ...]:
        """Who placed 1st in the final (two only when the criteria could not part them)."""
        return tuple(p.player for p in self.placings if p.place == 1)

    @property
    def adjudicated_rate(self) -> Fraction | None:
        return Fraction(self.adjudicated, self.games) if self.games else None

    @property
    def rounds_played(self) -> int:
        return sum(1 for r in self.rounds if r.games)

    @property
    def untimed(self) -> int:
        return self.games - self.hours.games

    def size(self, size: int) -> SizeFigures:
        """The figures of tables of `size` (zero games when none was played)."""
        for s in self.by_size:
            if s.size == size:
                return s
        return SizeFigures(size, 0, Spread(0, None, None), Spread(0, None, None), ())


def two_places(value: Fraction | None) -> str | None:
    """A figure as a decimal string rounded half up to two places ("6.40"); None stays None."""
    if value is None:
        return None
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def hours(played: timedelta) -> Fraction:
    """A duration in hours, exactly."""
    return Fraction(played // _MICROSECOND, _HOUR_US)


# --- the computation ------------------------------------------------------------------------------


def winners(result: TableResult) -> tuple[PlayerId, ...]:
    """The players whose seat won the game (any winning result kind)."""
    return tuple(row.player for row in result.rows if row.result not in LOSING_KINDS)


def alliance_size(result: TableResult) -> int:
    """1 for a solo win (or two simultaneous solo wins); else the size of the winning alliance.

    The engine's table of result kinds says how many seats share each kind; an adjudicated
    win (its size varies) shared by several players is an alliance's (WBC Adjudication sums
    allies).
    """
    won = [row for row in result.rows if row.result not in LOSING_KINDS]
    allied = [row for row in won if (RESULTS[row.result].size or len(won)) > 1]
    return len(allied) if allied else 1


def _faction_table(tally: Mapping[str, list[int]]) -> tuple[FactionFigures, ...]:
    return tuple(FactionFigures(f, games, wins) for f, (games, wins) in sorted(tally.items()))


def _tally(tally: dict[str, list[int]], result: TableResult) -> None:
    for row in result.rows:
        if row.faction is None:
            raise EventReportError(
                f"table {result.table!r}: player {row.player!r} has no faction in the filed report"
            )
        entry = tally.setdefault(row.faction, [0, 0])
        entry[0] += 1
        if row.result not in LOSING_KINDS:
            entry[1] += 1


def event_report(records: EventRecords) -> EventReport:
    """The event report of one tournament.

    Raises:
        UnknownFormat: `records.format` is not a registered format.
        EventReportError: a filed row without a faction; two reports for one table.
        StandingsError: the heats cannot form standings (see the scoring systems).

    Long because it walks the games once and fills every figure of the report in that single pass
    (the 10,000-player benchmark depends on it).
    """
    rules = records.rules if records.rules is not None else get_format(records.format)
    system = rules.points
    reports = records.reports
    seen_tables: set[Hashable] = set()
    for result in reports:
        if result.table in seen_tables:
            raise EventReportError(f"table {result.table!r} has two filed reports")
        seen_tables.add(result.table)
    heats = [r for r in reports if not r.is_final]
    finals = [r for r in reports if r.is_final]
    played_us: dict[Hashable, int] = {}
    for c in records.clocks:
        if c.table in seen_tables:
            try:
                played_us[c.table] = c.played // _MICROSECOND
            except IntervalError:
                continue  # pauses that cannot be right: the game counts as untimed, not guessed

    players: set[PlayerId] = set()
    kinds_won: dict[ResultKind, int] = {}
    ended: dict[str, int] = {}
    solo = 0
    alliances: dict[int, int] = {}
    adjudicated = 0
    concessions = 0
    dropouts = 0
    by_round: dict[int, list[int]] = {}
    sizes: dict[int, tuple[list[int], list[int], dict[int, int]]] = {s: ([], [], {}) for s in MAIN_SIZES}
    tally_heats: dict[str, list[int]] = {}
    tally_final: dict[str, list[int]] = {}
    for result in reports:
        kinds: set[ResultKind] = set()
        for row in result.rows:
            players.add(row.player)
            if row.result is ResultKind.DROPOUT:
                dropouts += 1
            elif row.result not in LOSING_KINDS:
                kinds.add(row.result)
        for kind in kinds:
            kinds_won[kind] = kinds_won.get(kind, 0) + 1
        ended[result.ended_by] = ended.get(result.ended_by, 0) + 1
        concessions += result.ended_by == "concession"
        size = alliance_size(result)
        if size == 1:
            solo += 1
        else:
            alliances[size] = alliances.get(size, 0) + 1
        was_adjudicated = ResultKind.ADJUDICATED in kinds
        adjudicated += was_adjudicated
        per_round = by_round.setdefault(result.round_number, [0, 0])
        per_round[0] += 1
        per_round[1] += was_adjudicated
        turns_list, hours_list, histogram = sizes.setdefault(result.players_at_start, ([], [], {}))
        turns_list.append(result.turns)
        histogram[result.turns] = histogram.get(result.turns, 0) + 1
        if result.table in played_us:
            hours_list.append(played_us[result.table])
        _tally(tally_final if result.is_final else tally_heats, result)

    tally_all: dict[str, list[int]] = {}
    for tally in (tally_heats, tally_final):
        for faction, (games, wins) in tally.items():
            entry = tally_all.setdefault(faction, [0, 0])
            entry[0] += games
            entry[1] += wins

    rounds = tuple(
        RoundFigures(r.number, r.is_final, r.closed, *by_round.get(r.number, (0, 0)))
        for r in sorted(records.rounds, key=lambda r: r.number)
    )
    # Final only once every round, the final included, is closed and no report is reopened.
    provisional = records.reopened > 0 or not (
        rounds and any(r.is_final for r in rounds) and all(r.closed for r in rounds)
    )
    order = {kind: i for i, kind in enumerate(system.table)}
    results = tuple(
        (kind, kinds_won.get(kind, 0)) for kind in sorted(system.kinds - LOSING_KINDS, key=lambda k: order[k])
    )
    for kind in kinds_won:
        if kind not in system.table:  # stored before a rules change: still counted, still shown
            results += ((kind, kinds_won[kind]),)
    labels = {kind: system.table[kind].label if kind in system.table else kind.value for kind, _ in results}

    awards: tuple[Award, ...] = ()
    if rules.awards:
        # The best game per faction and its ties are all the awards need (limit=1 keeps them).
        awards = (
            records.awards
            if records.awards is not None
            else awards_from(faction_scores(heats, limit=1, measure=rules.award_measure.key))
        )

    final = _final(records, finals, played_us)
    finalist_ids = (
        tuple(s.player for s in final.seats) if final is not None and final.seats else records.qualifiers
    )
    finalists = _finalists(system, heats, finalist_ids, records.standings)
    tiebreaks = tuple(
        TiebreakGroup(tb.key, tb.summary or tb.key, len(tb.labels), tuple(tb.labels))
        for tb in system.precedence.tiebreakers
    )

    all_turns = [t for turns_list, _, _ in sizes.values() for t in turns_list]
    all_hours = [h for _, hours_list, _ in sizes.values() for h in hours_list]
    return EventReport(
        tournament=records.tournament,
        format=rules.key,
        provisional=provisional,
        rounds=rounds,
        players=len(players),
        games=len(reports),
        heat_games=len(heats),
        final_games=len(finals),
        turns=Spread.of(all_turns),
        hours=Spread.of(all_hours, unit=_HOUR_US),
        by_size=tuple(
            SizeFigures(
                size,
                len(turns_list),
                Spread.of(turns_list),
                Spread.of(hours_list, unit=_HOUR_US),
                tuple(sorted(histogram.items())),
            )
            for size, (turns_list, hours_list, histogram) in sorted(sizes.items())
        ),
        results=results,
        result_labels=labels,
        ended_by=tuple((e, ended.get(e, 0)) for e in ENDED_BY),
        solo_wins=solo,
        alliance_wins=tuple(sorted(alliances.items())),
        adjudicated=adjudicated,
        concessions=concessions,
        dropouts=dropouts,
        factions=_faction_table(tally_all),
        factions_heats=_faction_table(tally_heats),
        factions_final=_faction_table(tally_final),
        awards_rule=rules.awards_rule if rules.awards else None,
        awards=awards,
        tiebreaks=tiebreaks,
        finalists=finalists,
        final=final,
        awards_how=rules.award_measure.how if rules.awards else "",
        placings=records.placings,
        reopened=records.reopened,
    )


def _final(
    records: EventRecords, finals: list[TableResult], played_us: Mapping[Hashable, int]
) -> FinalFigures | None:
    """The final's table (the first, should a final ever have two), or None before it is seated
    or filed."""
    seats = sorted((s for s in records.seats if s.is_final), key=lambda s: (s.table_number, s.seat))
    report = finals[0] if finals else None
    if report is None and not seats:
        return None
    table = report.table if report is not None else seats[0].table
    seats = [s for s in seats if s.table == table]
    rows = {row.player: row for row in report.rows} if report is not None else {}
    if seats:
        final_seats = tuple(
            FinalSeat(
                s.seat,
                s.player,
                rows[s.player].faction if s.player in rows else s.faction,
                rows[s.player].result if s.player in rows else None,
            )
            for s in seats
        )
    else:  # a report without its seating (never from the database): seats in report order
        final_seats = tuple(
            FinalSeat(i, row.player, row.faction, row.result) for i, row in enumerate(rows.values(), 1)
        )
    if report is None:
        return FinalFigures(table, seats[0].table_number, final_seats, False, (), (), None, None, None)
    won = winners(report)
    kinds = tuple(dict.fromkeys(rows[p].result for p in won))
    return FinalFigures(
        table=table,
        table_number=seats[0].table_number if seats else 1,
        seats=final_seats,
        filed=True,
        winners=won,
        results=kinds,
        ended_by=report.ended_by,
        turns=report.turns,
        hours=Fraction(played_us[table], _HOUR_US) if table in played_us else None,
    )


def _finalists(
    system: PointsSystem,
    heats: list[TableResult],
    finalist_ids: tuple[PlayerId, ...],
    standings: tuple[StandingRow, ...] | None,
) -> tuple[Finalist, ...]:
    """The finalists' points and tiebreak tuples, in the given order, as the standings show
    them: scoring's standings when given, else the same screened standings computed for the
    finalists alone (a player's points and tuple depend on that player's games only).
    """
    if not finalist_ids:
        return ()
    if standings is None:
        screened = screened_standings(system, heats, players=finalist_ids)
        if screened.error is not None:
            raise screened.error
        standings = screened.standings
    rows: dict[PlayerId, StandingRow] = {row.player: row for row in standings}
    out = []
    for player in finalist_ids:
        row = rows.get(player)
        if row is None:  # seated at the final without a heat game (an alternate from outside)
            out.append(Finalist(player, Fraction(0), (), False))
        else:
            out.append(Finalist(player, row.points, row.tiebreak, row.disqualified))
    return tuple(out)


def faction_wins_total(report: EventReport) -> int:
    """Wins summed over factions (heats and final): one per winning seat of every game."""
    return sum(f.wins for f in report.factions)


__all__ = [
    "ClockRecord",
    "EventRecords",
    "EventReport",
    "EventReportError",
    "FactionFigures",
    "FinalFigures",
    "FinalSeat",
    "Finalist",
    "RoundFigures",
    "RoundRecord",
    "SeatRecord",
    "SizeFigures",
    "Spread",
    "TiebreakGroup",
    "alliance_size",
    "event_report",
    "faction_wins_total",
    "hours",
    "two_places",
    "winners",
]
