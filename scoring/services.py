"""Filing and reopening game reports, and the cached standings, finalists and awards.

The only writers of `GameReport`. Every write validates through the pure systems, runs in one
transaction, and bumps the tournament's scoring version after commit so the cached standings
are recomputed on the next read (DESIGN.md principle 4: a refusal changes nothing).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from scoring.adapters import final_result, heat_results, table_seats
from scoring.models import GameReport, ReportEntry, ReportRevision
from scoring.systems import (
    Award,
    Finalists,
    Placing,
    PointsSystem,
    ReportError,
    ScoringError,
    StandingRow,
    awards_from,
    faction_scores,
    final_placings,
    get_system,
    leaderboard_from,
    report_to_data,
    validate_report,
)
from tournament.models import Round, Table, Tournament
from tournament.permissions import can_judge_table, is_head_judge

T = TypeVar("T")

#: Cached scoring answers live a day at most; a filing or reopening replaces them at once.
CACHE_SECONDS = 24 * 3600
#: Part of every cache key: bump it when the cached `Scoring` shape changes, so a deployment
#: never unpickles an answer of the previous code.
CACHE_SCHEMA = 1
LEADERBOARD_SIZE = 5


class ReportRejected(ValidationError):
    """A report scoring refuses: names the row (player), the field and the rule."""

    def __init__(self, message: str, *, field: str, rule: str, player: Any = None) -> None:
        super().__init__({field: [message]}, code="invalid")
        self.field = field
        self.rule = rule
        self.player = player
        self.text = message

    @classmethod
    def from_error(cls, exc: ScoringError) -> ReportRejected:
        if isinstance(exc, ReportError):
            return cls(str(exc), field=exc.field, rule=exc.rule, player=exc.player)
        return cls(str(exc), field="report", rule=exc.rule)


class ReportLocked(ValidationError):
    """The table's report is filed and locked; a head judge must reopen it first."""

    def __init__(self, report: GameReport) -> None:
        super().__init__(
            {
                "report": [
                    f"the report of {report.table} is filed and locked (v{report.version}); "
                    "a head judge must reopen it with a reason before it can be filed again"
                ]
            },
            code="locked",
        )
        self.report = report


# --- filing -----------------------------------------------------------------------------------


def file_report(table: Table, data: dict[str, Any], *, user: Any) -> GameReport:
    """Validate `data` against the table's seats and the tournament's format, store and lock it.

    Raises:
        PermissionDenied: the user may not judge this table.
        ReportLocked: the report is already filed (and not reopened).
        ReportRejected: the report fails validation (row/field/rule in the message), a seat has
            no faction yet, or (WBC Dropouts) a seated player dropped out of an earlier heat or a
            player marked as dropping out has already played a later heat.
    """
    if not can_judge_table(user, table):
        raise PermissionDenied("only this table's judge or a head judge may file its report")
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        round_: Round = table.round
        tournament: Tournament = round_.tournament
        existing = GameReport.objects.filter(table=table).first()
        if existing is not None and existing.locked:
            raise ReportLocked(existing)
        seats = table_seats(table)
        missing = [p for p, f in seats.items() if not f]
        if missing:
            raise ReportRejected(
                f"row {missing[0]!r}, field 'faction': the seat has no faction yet",
                field="faction",
                rule="seating: factions before play",
                player=missing[0],
            )
        system = get_system(tournament.format)
        try:
            result = validate_report(
                tournament.format,
                data,
                seats,
                table=table.pk,
                round_number=round_.number,
                is_final=round_.kind == Round.Kind.FINAL,
            )
        except ScoringError as exc:
            raise ReportRejected.from_error(exc) from None
        _check_dropouts(system, tournament, round_, result.rows)
        now = timezone.now()
        stored = report_to_data(result)
        if existing is None:
            report = GameReport.objects.create(
                table=table, tournament=tournament, data=stored, filed_by=user, filed_at=now
            )
        else:
            report = existing
            report.data = stored
            report.state = GameReport.State.FILED
            report.version += 1
            report.filed_by = user
            report.filed_at = now
            report.save()
            report.entries.all().delete()
        ReportEntry.objects.bulk_create(
            ReportEntry(
                report=report,
                tournament=tournament,
                player_id=row.player,
                round_number=round_.number,
                result=row.result.value,
            )
            for row in result.rows
        )
        ReportRevision.objects.create(
            report=report, action=ReportRevision.Action.FILED, version=report.version, data=stored, user=user
        )
        transaction.on_commit(lambda: invalidate(tournament.pk))
    return report


def _check_dropouts(system: PointsSystem, tournament: Tournament, round_: Round, rows: Any) -> None:
    """WBC Dropouts: a dropout plays no later game; refuse either order of filing."""
    if not system.dropout_disqualifies:
        return
    filed = ReportEntry.objects.filter(tournament=tournament, report__state=GameReport.State.FILED)
    players = [row.player for row in rows]
    earlier = (
        filed.filter(player_id__in=players, result="dropout", round_number__lt=round_.number)
        .values_list("player_id", "round_number")
        .first()
    )
    if earlier is not None:
        raise ReportRejected(
            f"row {earlier[0]!r}, field 'player': the player dropped out in round {earlier[1]} and is disqualified"
            f" from all further games (rule {system.dropout_rule})",
            field="player",
            rule=system.dropout_rule,
            player=earlier[0],
        )
    dropouts = [row.player for row in rows if row.result.value == "dropout"]
    if dropouts:
        later = (
            filed.filter(player_id__in=dropouts, round_number__gt=round_.number)
            .values_list("player_id", "round_number")
            .first()
        )
        if later is not None:
            raise ReportRejected(
                f"row {later[0]!r}, field 'result': the player already has a filed game in round {later[1]};"
                f" a dropout plays no later game (rule {system.dropout_rule})",
                field="result",
                rule=system.dropout_rule,
                player=later[0],
            )


def reopen_report(report: GameReport, *, user: Any, reason: str) -> GameReport:
    """Unlock a filed report for correction; it stops counting until it is filed again.

    Raises:
        PermissionDenied: the user is not a head judge of the tournament.
        ValidationError: no reason given, or the report is not locked.
    """
    if not is_head_judge(user, report.tournament):
        raise PermissionDenied("only a head judge may reopen a filed report")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ["a reason is required to reopen a filed report"]})
    with transaction.atomic():
        report = GameReport.objects.select_for_update().get(pk=report.pk)
        if not report.locked:
            raise ValidationError({"report": [f"the report is already reopened (v{report.version})"]})
        report.state = GameReport.State.REOPENED
        report.reopened_by = user
        report.reopened_at = timezone.now()
        report.reopen_reason = reason
        report.save(update_fields=["state", "reopened_by", "reopened_at", "reopen_reason"])
        ReportRevision.objects.create(
            report=report,
            action=ReportRevision.Action.REOPENED,
            version=report.version,
            user=user,
            reason=reason,
        )
        tournament_id = report.tournament_id
        transaction.on_commit(lambda: invalidate(tournament_id))
    return report


# --- cached answers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Scoring:
    """The standings, finalists and (WBC) final placings, computed together from one query of
    the heat reports and one of the final's."""

    format: str
    labels: tuple[str, ...]
    standings: tuple[StandingRow, ...]
    finalists: Finalists
    reports: int = 0
    #: WBC Final Round Format placings, once the final's report is filed.
    placings: tuple[Placing, ...] = ()


@dataclass(frozen=True)
class Awards:
    """WBC best-faction awards and the per-faction leaderboard (empty for other formats)."""

    format: str
    awards: tuple[Award, ...] = ()
    leaderboard: dict[str, tuple[Award, ...]] = field(default_factory=dict)


def _version_key(tournament_id: int) -> str:
    return f"scoring:{tournament_id}:version"


def invalidate(tournament_id: int) -> None:
    """Make the next read recompute: bump the tournament's scoring version."""
    key = _version_key(tournament_id)
    cache.add(key, 0, None)
    try:
        cache.incr(key)
    except ValueError:  # evicted between add and incr
        cache.set(key, 1, None)


def _cached(tournament: Tournament, what: str, compute: Callable[[Tournament], T], kind: type[T]) -> T:
    """`compute(tournament)` through the cache, under the tournament's current version.

    The version is read before the reports, so a filing committed meanwhile leaves a stale
    answer only under a version no reader asks for any more.
    """
    version = cache.get(_version_key(tournament.pk)) or 0
    key = f"scoring:{CACHE_SCHEMA}:{tournament.pk}:{what}:v{version}"
    cached = cache.get(key)
    if isinstance(cached, kind):
        return cached
    computed = compute(tournament)
    cache.set(key, computed, CACHE_SECONDS)
    return computed


def scoring_for(tournament: Tournament) -> Scoring:
    """The tournament's standings, finalists and final placings (cached).

    Raises:
        StandingsError: the filed reports cannot form standings (see the pure systems).
    """
    return _cached(tournament, "standings", compute_scoring, Scoring)


def compute_scoring(tournament: Tournament) -> Scoring:
    """Standings and finalists straight from the filed heat reports (one query), and the WBC
    final placings from the final's report (one more)."""
    system = get_system(tournament.format)
    results, seed = heat_results(tournament)
    standings = system.standings(results)
    # Lots across the cut (4.01.10; WBC) are drawn from a seed stored on the rounds.
    finalists = system.finalists(standings, rng=random.Random(f"finalists:{tournament.pk}:{seed}"))
    placings: tuple[Placing, ...] = ()
    if system.key == "wbc":
        final = final_result(tournament)
        if final is not None:
            placings = final_placings(final)
    return Scoring(
        format=system.key,
        labels=system.tiebreak_labels,
        standings=standings,
        finalists=finalists,
        reports=len(results),
        placings=placings,
    )


def awards_board_for(tournament: Tournament) -> Awards:
    """The WBC best-faction awards and leaderboard (cached; empty for other formats)."""
    return _cached(tournament, "awards", compute_awards, Awards)


def compute_awards(tournament: Tournament) -> Awards:
    """Best-faction awards and leaderboard from the filed heat reports (one query; WBC only)."""
    if tournament.format != "wbc":
        return Awards(format=tournament.format)
    results, _ = heat_results(tournament)
    scores = faction_scores(results, limit=LEADERBOARD_SIZE + 1)
    return Awards(
        format=tournament.format,
        awards=awards_from(scores),
        leaderboard=leaderboard_from(scores, limit=LEADERBOARD_SIZE),
    )


def standings_provisional(tournament: Tournament) -> bool:
    """True until every heat's games are reported: while no heat exists, a heat is not seated,
    or a heat table has no filed report (a reopened one counts as missing). Nobody is a
    finalist before then, only "in the top N so far". One query, never cached: seating or
    adding a heat changes the answer without a filing."""
    heats = (
        Round.objects.filter(tournament=tournament, kind=Round.Kind.HEAT)
        .annotate(
            seated=Count("tables", distinct=True),
            filed=Count("tables", filter=Q(tables__report__state=GameReport.State.FILED), distinct=True),
        )
        .values_list("seated", "filed")
    )
    rows = list(heats)
    return not rows or any(seated == 0 or filed < seated for seated, filed in rows)


def standings_for(tournament: Tournament) -> tuple[StandingRow, ...]:
    """The cached standings of the tournament's heats."""
    return scoring_for(tournament).standings


def finalists_for(tournament: Tournament) -> Finalists:
    """The cached finalists and alternates, in order."""
    return scoring_for(tournament).finalists


def awards_for(tournament: Tournament) -> tuple[Award, ...]:
    """The cached best-faction awards (WBC; empty for a format without them)."""
    return awards_board_for(tournament).awards


def disqualified_players(tournament: Tournament) -> set[int]:
    """Players barred from further games (WBC Dropouts), for seating later rounds."""
    if not get_system(tournament.format).dropout_disqualifies:
        return set()
    return set(
        ReportEntry.objects.filter(
            tournament=tournament, result="dropout", report__state=GameReport.State.FILED
        ).values_list("player_id", flat=True)
    )
