"""The event report of a tournament: the one adapter from the database to `dune.event_report.figures`,
and its cache.

Loading reads five queries whatever the tournament's size (rounds, filed reports, the
final's seats, finished clocks, their pauses) and takes scoring's cached answers for what
scoring owns: the best-faction awards and, while the final is not seated, the finalists. The answer is cached under a fingerprint of the append-only logs that feed it:
the count and last id of the report revisions (every filing and reopening writes one), the
last seating audit row (seating, faction picks, closing a round), the last clock history row
(start, pause, resume, finish) and the number of rounds. Reading the fingerprint is one small
query; a filing, a reopening, a round closed or a clock finished changes it, so the next read
recomputes. No signal or version counter has to be kept in step with the writers, and an
evicted cache entry is simply computed again.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django.core.cache import cache
from django.db.models import Count, IntegerField, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import translation

from clocks.models import ClockHistory, ClockPause, TableClock
from dune.clock_limits import Interval
from dune.engine.names import FACTION_NAMES
from dune.event_report.charts import Chart, charts
from dune.event_report.figures import (
    ClockRecord,
    EventRecords,
    EventReport,
    RoundRecord,
    SeatRecord,
    event_report,
)
from dune.points import TableResult, table_result_from_data
from scoring import services as scoring
from scoring.models import GameReport, ReportRevision
from tournament.models import Player, Round, Seat, SeatingAudit, Tournament

#: Cached answers live a day at most; any change to what they read replaces them at once.
CACHE_SECONDS = 24 * 3600
#: Part of every key: bump it when `EventReport` or `Chart` change shape.
CACHE_SCHEMA = 3


def _scalar(queryset: Any, group: str, expression: Any) -> Coalesce:
    """One aggregate of `queryset` (filtered on the outer tournament, grouped by the path to
    it) as a subquery; 0 when there is no row."""
    rows = queryset.order_by().values(group).annotate(v=expression).values("v")[:1]
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


def fingerprint(tournament: Tournament) -> str:
    """What the figures were computed from, in one query (see the module docstring)."""
    outer = OuterRef("pk")
    revisions = ReportRevision.objects.filter(report__tournament=outer)
    row = (
        Tournament.objects.filter(pk=tournament.pk)
        .values_list(
            _scalar(revisions, "report__tournament", Count("id")),
            _scalar(revisions, "report__tournament", Max("id")),
            _scalar(SeatingAudit.objects.filter(round__tournament=outer), "round__tournament", Max("id")),
            _scalar(
                ClockHistory.objects.filter(clock__table__round__tournament=outer),
                "clock__table__round__tournament",
                Max("id"),
            ),
            _scalar(Round.objects.filter(tournament=outer), "tournament", Count("id")),
        )
        .first()
    )
    return "-".join(str(v) for v in row or ())


def _finished_clocks(tournament: Tournament) -> tuple[ClockRecord, ...]:
    """Every finished table clock of the tournament with its pauses (two queries)."""
    finished = TableClock.objects.filter(
        table__round__tournament=tournament, started_at__isnull=False, finished_at__isnull=False
    )
    pauses: dict[int, list[Interval]] = {}
    for clock_id, start, end in (
        ClockPause.objects.filter(clock__in=finished)
        .order_by("clock_id", "started_at")
        .values_list("clock_id", "started_at", "ended_at")
    ):
        pauses.setdefault(clock_id, []).append(Interval(start, end))
    return tuple(
        ClockRecord(table_id, started, ended, tuple(pauses.get(clock_id, ())))
        for clock_id, table_id, started, ended in finished.order_by().values_list(
            "id", "table_id", "started_at", "finished_at"
        )
    )


def load_records(tournament: Tournament) -> EventRecords:
    """The tournament's filed reports, seating and finished clocks as plain records."""
    rounds = tuple(
        RoundRecord(number, kind == Round.Kind.FINAL, state == Round.State.FINISHED)
        for number, kind, state in Round.objects.filter(tournament=tournament).values_list(
            "number", "kind", "state"
        )
    )
    # Every report in one query: the filed ones are the figures; the reopened ones are counted
    # (the figures stay provisional until they are filed again).
    stored = list(
        GameReport.objects.filter(tournament=tournament)
        .order_by("table__round__number", "table__number")
        .values_list("data", "table_id", "table__round__number", "table__round__kind", "state")
    )
    reports: list[TableResult] = [
        table_result_from_data(data, table=table_id, round_number=number, is_final=kind == Round.Kind.FINAL)
        for data, table_id, number, kind, state in stored
        if state == GameReport.State.FILED
    ]
    reopened = sum(1 for *_, state in stored if state == GameReport.State.REOPENED)
    # The report reads the final's seating only (its seats, and its players as finalists).
    seats = tuple(
        SeatRecord(table_id, table_number, number, kind == Round.Kind.FINAL, player, seat, faction or None)
        for table_id, table_number, number, kind, player, seat, faction in Seat.objects.filter(
            round__tournament=tournament, round__kind=Round.Kind.FINAL
        )
        .order_by()
        .values_list(
            "table_id", "table__number", "round__number", "round__kind", "player_id", "seat", "faction"
        )
    )
    clocks = _finished_clocks(tournament)
    # Scoring's cached answer: the standings page's rows (inconsistent reports screened out)
    # and, until the final is seated, the qualifiers it announces (lots drawn from the rounds' seed).
    scored = scoring.scoring_for(tournament)
    qualifiers: tuple[Any, ...] = () if any(s.is_final for s in seats) else tuple(scored.finalists.finalists)
    return EventRecords(
        # Scoring's cached awards (the awards page shows the same): not computed twice.
        awards=scoring.awards_for(tournament),
        tournament=tournament.pk,
        format=tournament.format,
        rules=tournament.rules,
        rounds=rounds,
        reports=tuple(reports),
        seats=seats,
        clocks=clocks,
        qualifiers=qualifiers,
        standings=scored.standings,
        placings=scored.placings,
        reopened=reopened,
    )


def compute(tournament: Tournament) -> EventReport:
    """The event report straight from the database (no cache)."""
    return event_report(load_records(tournament))


def _cached(tournament: Tournament, what: str, version: str, make: Any) -> Any:
    key = f"insights:{CACHE_SCHEMA}:{tournament.pk}:{what}:{version}"
    answer = cache.get(key)
    if answer is None:
        answer = make()
        cache.set(key, answer, CACHE_SECONDS)
    return answer


def report_for(tournament: Tournament, *, version: str | None = None) -> EventReport:
    """The tournament's event report (cached until what it reads changes).

    Raises:
        StandingsError, EventReportError: the filed reports cannot form a report.
    """
    version = fingerprint(tournament) if version is None else version
    report: EventReport = _cached(tournament, "figures", version, lambda: compute(tournament))
    return report


def report_and_charts(tournament: Tournament) -> tuple[EventReport, tuple[Chart, ...]]:
    """The report with its charts, both cached under the same fingerprint."""
    version = fingerprint(tournament)
    report = report_for(tournament, version=version)
    # The charts' words are the reader's: one drawing per language.
    drawn: tuple[Chart, ...] = _cached(
        tournament, f"charts:{translation.get_language()}", version,
        lambda: charts(report, faction_names=FACTION_NAMES, words=translation),
    )
    return report, drawn


def player_names(tournament: Tournament, report: EventReport) -> dict[Hashable, str]:
    """Names of the players the report names (finalists, final seats, award winners): one query."""
    ids = {f.player for f in report.finalists} | {a.player for a in report.awards} | {p.player for p in report.placings}
    if report.final is not None:
        ids |= {s.player for s in report.final.seats}
    if not ids:
        return {}
    return dict(Player.objects.filter(tournament=tournament, pk__in=ids).values_list("id", "name"))
