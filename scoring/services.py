"""Filing and reopening game reports, and the cached standings, finalists and awards.

The only writers of `GameReport`. Every write validates through the pure systems, runs in one
transaction and writes a `ReportRevision`; the cached standings are keyed by a fingerprint of
those revisions read from the database (`fingerprint`), so the next read after a filing
recomputes whatever the cache kept or lost (DESIGN.md principles 4 and 10).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from dune.points import (
    Award,
    Finalists,
    Placing,
    PointsSystem,
    ReportError,
    ScoringError,
    StandingRow,
    StandingsError,
    TableResult,
    awards_from,
    check_final,
    faction_scores,
    final_placings,
    leaderboard_from,
    report_to_data,
    validate_report,
)
from dune.points.screening import SeatingConflict, screened_standings
from dune.refusals import Refusal
from foundation import effects
from foundation.core_words import core_text
from scoring.adapters import engine_outcome, final_result, heat_results, player_names, table_seats
from scoring.models import GameReport, ReportEntry, ReportRevision, ResultConfirmation
from tournament.models import Player, Round, SeatingAudit, Table, Tournament
from tournament.permissions import can_judge_table, is_head_judge

T = TypeVar("T")

#: Cached scoring answers live a day at most; a filing or reopening changes their key at once.
CACHE_SECONDS = 24 * 3600
#: Part of every cache key: bump it when the cached `Scoring` shape changes, so a deployment
#: never unpickles an answer of the previous code.
CACHE_SCHEMA = 2
LEADERBOARD_SIZE = 5


class ReportRefused(Refusal):
    """A report action scoring refuses (a bad reopen, a locked report, a report that fails
    validation); names the field, the rule and, for a row, its player."""

    def __init__(
        self, message: str, *, field: str, rule: str = "", player: Any = None, status: int | None = None
    ) -> None:
        super().__init__(message, field=field, rule=rule, status=status)
        self.player = player

    @property
    def text(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        field_name = self.field or "report"
        body = {
            "detail": self.message,
            "rule": self.rule,
            "field": field_name,
            "player": self.player,
            "errors": {field_name: [self.message]},
        }
        body.setdefault(field_name, [self.message])  # the shape of a form error: {field: [message]}
        return body


class ReportRejected(ReportRefused):
    """A report that fails validation: names the row (player), the field and the rule."""

    @classmethod
    def from_error(cls, exc: ScoringError) -> ReportRejected:
        if isinstance(exc, ReportError):
            return cls(core_text(exc), field=exc.field or "report", rule=exc.rule, player=exc.player)
        return cls(core_text(exc), field="report", rule=exc.rule)


class ReportLocked(ReportRefused):
    """The table's report is filed and locked; a head judge must reopen it first."""

    status_code = 409

    def __init__(self, report: GameReport) -> None:
        super().__init__(
            f"the report of {report.table} is filed and locked (v{report.version}); "
            "a head judge must reopen it with a reason before it can be filed again",
            field="report",
            rule="report locked once filed",
        )
        self.report = report

    def to_dict(self) -> dict[str, Any]:
        return {"detail": self.message, "rule": self.rule, "field": "report", "player": None}


# --- filing -----------------------------------------------------------------------------------


def file_report(
    table: Table, data: dict[str, Any], *, user: Any, clock_ran_out: bool | None = None
) -> GameReport:
    """Validate `data` against the table's seats and the tournament's format, store and lock it.

    `clock_ran_out` is the table's clock as the caller read it (True, False: time left, None:
    no clock): a report ending by the time limit is refused while the clock has time left.

    Raises:
        PermissionDenied: the user may not judge this table.
        ReportLocked: the report is already filed (and not reopened).
        ReportRejected: the report fails validation (row/field/rule in the message), a seat has
            no faction yet, or (WBC Dropouts) a seated player dropped out of an earlier heat or a
            player marked as dropping out has already played a later heat.
    """
    if not can_judge_table(user, table):
        raise PermissionDenied(_("only this table's judge or a head judge may file its report"))
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        existing = GameReport.objects.filter(table=table).first()
        if existing is not None and existing.locked:
            raise ReportLocked(existing)
        result = _validated(table, data, clock_ran_out=clock_ran_out)
        report = _store(table, result, existing=existing, user=user)
    return report


def file_own_report(
    player: Player, table: Table, data: dict[str, Any], *, clock_ran_out: bool | None = None
) -> GameReport:
    """A player files the report of their own table, one without a judge, where the
    tournament's format lets players report (`players.self_report`); the others confirm or
    dispute it (`scoring.confirmations`). Checked and stored as a judge's report is.

    Raises ReportRefused (field "table"): a format without self-report (409, citing its rule),
    a table with a judge (403), a table the player did not play (403), a round not under way
    (409); and `file_report`'s refusals of the report itself.
    """
    round_ = table.round
    rules = round_.tournament.rules
    rule = str(rules.document.get("rules", {}).get("players.self_report", ""))
    if not rules.self_report:
        raise ReportRefused(_("%(format)s lets only a judge file a game report") % {"format": rules.name},
                            field="table", rule=rule, status=409)
    if table.judge_id is not None:
        raise ReportRefused(_("table %(number)s has a judge: the judge files its report") % {"number": table.number},
                            field="table", status=403)
    if not table.seats.filter(player=player).exists():
        raise ReportRefused(_("%(name)s did not play at table %(number)s: file only your own table's report")
                            % {"name": player.name, "number": table.number}, field="table", status=403)
    if round_.state != Round.State.PUBLISHED:
        raise ReportRefused(_("%(round)s is not under way: its reports are filed while it is")
                            % {"round": round_.label}, field="table", status=409)
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        existing = GameReport.objects.filter(table=table).first()
        if existing is not None and existing.locked:
            raise ReportLocked(existing)
        return _store(table, _validated(table, data, clock_ran_out=clock_ran_out), existing=existing, user=None)


def _validated(table: Table, data: dict[str, Any], *, clock_ran_out: bool | None = None) -> TableResult:
    """The report checked against the table's seats, the format and the dropouts filed so far.

    Raises ReportRejected.
    """
    round_: Round = table.round
    tournament: Tournament = round_.tournament
    if round_.state == Round.State.PLANNED:
        # The seating may still change; a report filed now could end up naming a player who
        # sits elsewhere, and the standings could not tell which table is true.
        raise ReportRejected(
            _("the seating of %(round)s is not published yet; reports are filed for published rounds only") % {"round": round_},
            field="table",
            rule="reports follow the published seating",
        )
    seats = table_seats(table)
    names = player_names(table)
    missing = [p for p, f in seats.items() if not f]
    if missing:
        raise ReportRejected(
            _("row %(value)s, field 'faction': the seat has no faction yet") % {"value": names.get(missing[0], missing[0])},
            field="faction",
            rule="seating: factions before play",
            player=missing[0],
        )
    try:
        result = validate_report(
            tournament.rules.points,
            data,
            seats,
            ruleset=tournament.rules.ruleset,
            table=table.pk,
            round_number=round_.number,
            is_final=round_.kind == Round.Kind.FINAL,
            names=names,
            decided=engine_outcome(table),
            clock_ran_out=clock_ran_out,
        )
        if result.is_final and tournament.rules.final_placings:
            # The final's report must be one the WBC Final Round Format places: the check the
            # placings run, here at filing, so that a filed final never breaks a public page.
            check_final(result)
    except ScoringError as exc:
        raise ReportRejected.from_error(exc) from None
    _check_dropouts(tournament.rules.points, tournament, round_, result.rows, names)
    return result


def _store(table: Table, result: TableResult, *, existing: GameReport | None, user: Any) -> GameReport:
    """Write the validated report, its entries and revision; freeze the seating. In the filing
    transaction."""
    round_: Round = table.round
    tournament: Tournament = round_.tournament
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
    _keep_seating_in_step(table, tournament, filed_at=now)
    effects.cause(effects.REPORT_FILED, report_id=report.pk, table_id=table.pk, tournament_id=tournament.pk)
    return report


def _keep_seating_in_step(table: Table, tournament: Tournament, *, filed_at: Any) -> None:
    """Tell the seating what filing (or reopening) changed: the table's seats freeze while its
    report is filed, and players barred by a dropout are never seated again (the format's
    dropout rule). Call inside the filing transaction, after the entries are written."""
    Table.objects.filter(pk=table.pk).update(report_filed_at=filed_at)
    barred = disqualified_players(tournament)
    players = Player.objects.filter(tournament=tournament)
    players.filter(disqualified=True).exclude(pk__in=barred).update(disqualified=False)
    players.filter(pk__in=barred, disqualified=False).update(disqualified=True)


def _check_dropouts(
    system: PointsSystem, tournament: Tournament, round_: Round, rows: Any, names: dict[int, str]
) -> None:
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
            _("row %(value)s, field 'player': the player dropped out in round %(earlier)s and is disqualified from all further games (rule %(dropout_rule)s)") % {"value": names.get(earlier[0], earlier[0]), "earlier": earlier[1], "dropout_rule": system.dropout_rule},
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
                _("row %(value)s, field 'result': the player already has a filed game in round %(later)s; a dropout plays no later game (rule %(dropout_rule)s)") % {"value": names.get(later[0], later[0]), "later": later[1], "dropout_rule": system.dropout_rule},
                field="result",
                rule=system.dropout_rule,
                player=later[0],
            )


def reopen_report(report: GameReport, *, user: Any, reason: str) -> GameReport:
    """Unlock a filed report for correction; it stops counting until it is filed again.

    Raises:
        PermissionDenied: the user is not a head judge of the tournament.
        ReportRefused: no reason given, or the report is not locked.
    """
    if not is_head_judge(user, report.tournament):
        raise PermissionDenied(_("only a head judge may reopen a filed report"))
    reason = (reason or "").strip()
    if not reason:
        raise ReportRefused(_("a reason is required to reopen a filed report"), field="reason")
    with transaction.atomic():
        report = GameReport.objects.select_for_update().get(pk=report.pk)
        if not report.locked:
            raise ReportRefused(_("the report is already reopened (v%(version)s)") % {"version": report.version}, field="report")
        report.state = GameReport.State.REOPENED
        report.reopened_by = user
        report.reopened_at = timezone.now()
        report.reopen_reason = reason
        report.save(update_fields=["state", "reopened_by", "reopened_at", "reopen_reason"])
        ResultConfirmation.objects.filter(report=report).delete()  # the refiled result is confirmed afresh
        _keep_seating_in_step(report.table, report.tournament, filed_at=None)
        ReportRevision.objects.create(
            report=report,
            action=ReportRevision.Action.REOPENED,
            version=report.version,
            user=user,
            reason=reason,
        )
        effects.cause(effects.REPORT_REOPENED, report_id=report.pk, table_id=report.table_id,
                      tournament_id=report.tournament_id)
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
    #: Why some filed reports are left out (for the head judge: names and tables, in words).
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Awards:
    """WBC best-faction awards and the per-faction leaderboard (empty for other formats)."""

    format: str
    awards: tuple[Award, ...] = ()
    leaderboard: dict[str, tuple[Award, ...]] = field(default_factory=dict)


def fingerprints(tournament_ids: Iterable[int]) -> dict[int, str]:
    """What the cached answers of each tournament were computed from, read from the database
    (one query for any number of tournaments).

    Every filing and reopening writes a `ReportRevision` in its own transaction, and every
    seating change (which may change the seed lots are drawn from) a `SeatingAudit` row: the
    count and last id of the revisions and the last audit id change with any of them. The cache
    holds answers only; whether an answer is current is decided here, so a cache that evicts
    or loses any key makes the next answer slower, never older.
    """
    revisions = ReportRevision.objects.filter(report__tournament=OuterRef("pk")).order_by()
    audits = SeatingAudit.objects.filter(round__tournament=OuterRef("pk")).order_by()
    rows = (
        Tournament.objects.filter(pk__in=list(tournament_ids))
        .annotate(
            revisions=Subquery(
                revisions.values("report__tournament").annotate(n=Count("id")).values("n")[:1],
                output_field=IntegerField(),
            ),
            last_revision=Subquery(revisions.order_by("-id").values("id")[:1]),
            last_audit=Subquery(audits.order_by("-id").values("id")[:1]),
        )
        .values_list("pk", "revisions", "last_revision", "last_audit")
    )
    return {pk: "-".join(str(v or 0) for v in values) for pk, *values in rows}


def fingerprint(tournament: Tournament) -> str:
    """The tournament's fingerprint (see `fingerprints`; one query)."""
    return fingerprints([tournament.pk]).get(tournament.pk, "")


def _cached(
    tournament: Tournament,
    what: str,
    compute: Callable[[Tournament], T],
    kind: type[T],
    *,
    fingerprint_: str | None = None,
) -> T:
    """`compute(tournament)` through the cache, under the tournament's current fingerprint
    (read now unless the caller read it in this request).

    The fingerprint is read before the reports, so a filing committed meanwhile stores its
    newer answer under the older fingerprint, which no reader asks for any more.
    """
    current = fingerprint(tournament) if fingerprint_ is None else fingerprint_
    key = f"scoring:{CACHE_SCHEMA}:{tournament.pk}:{what}:{current}"
    cached = cache.get(key)
    if isinstance(cached, kind):
        return cached
    computed = compute(tournament)
    cache.set(key, computed, CACHE_SECONDS)
    return computed


def scoring_for(tournament: Tournament, *, fingerprint: str | None = None) -> Scoring:
    """The tournament's standings, finalists and final placings (cached); `fingerprint`, when
    the caller read it in this request for several tournaments at once (`fingerprints`).

    Raises:
        StandingsError: the filed reports cannot form standings (see the pure systems).
    """
    return _cached(tournament, "standings", compute_scoring, Scoring, fingerprint_=fingerprint)


def compute_scoring(tournament: Tournament) -> Scoring:
    """Standings and finalists straight from the filed heat reports (one query), and the WBC
    final placings from the final's report (one more)."""
    system = tournament.rules.points
    results, seed = heat_results(tournament)
    # Reports that contradict each other are left out (and named to the head judge) so that
    # one bad table never takes the whole standings down.
    screened = screened_standings(system, results)
    problems = _describe_conflicts(tournament, list(screened.conflicts))
    standings, finalists = (), Finalists(finalists=(), alternates=())
    if screened.error is not None:
        problems = (*problems, f"the standings cannot be computed until this is corrected: {screened.error.message}")
    else:
        standings = screened.standings
        try:
            # Lots across the cut (4.01.10; WBC) are drawn from a seed stored on the rounds.
            finalists = system.finalists(standings, rng=random.Random(f"finalists:{tournament.pk}:{seed}"))
        except StandingsError as exc:
            standings = ()
            problems = (*problems, f"the standings cannot be computed until this is corrected: {exc.message}")
    placings: tuple[Placing, ...] = ()
    if tournament.rules.final_placings:  # WBC Final Round Format: the final's report places everyone
        final = final_result(tournament)
        if final is not None:
            placings = final_placings(final)
    return Scoring(
        format=system.key,
        labels=system.tiebreak_labels,
        standings=standings,
        finalists=finalists,
        reports=screened.counted,
        placings=placings,
        problems=problems,
    )


def _describe_conflicts(tournament: Tournament, conflicts: list[SeatingConflict]) -> tuple[str, ...]:
    """Each conflict in words, with the player's name and the tables' numbers (one query each)."""
    if not conflicts:
        return ()
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    table_ids = {t for c in conflicts for t in c.tables}
    numbers = dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "number"))
    return tuple(
        f"{names.get(c.player, c.player)} is in the filed reports of "
        + " and ".join(f"table {numbers.get(t, t)}" for t in c.tables)
        + f" of round {c.round_number}; those reports are left out of the standings until a head"
        " judge reopens the wrong one and corrects the seating"
        for c in conflicts
    )


def awards_board_for(tournament: Tournament) -> Awards:
    """The WBC best-faction awards and leaderboard (cached; empty for other formats)."""
    return _cached(tournament, "awards", compute_awards, Awards)


def compute_awards(tournament: Tournament) -> Awards:
    """Best-faction awards and leaderboard from the filed heat reports (one query; only for a
    format with best-faction awards)."""
    if not tournament.rules.awards:
        return Awards(format=tournament.format)
    results, _ = heat_results(tournament)
    scores = faction_scores(results, limit=LEADERBOARD_SIZE + 1, measure=tournament.rules.award_measure.key)
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


def reopened_reports(tournament: Tournament) -> list[str]:
    """The reports reopened for correction, in words ("heat 1, table 3"), round by round (one
    query): while any is, the standings and every figure built on them may still change."""
    rows = (
        GameReport.objects.filter(tournament=tournament, state=GameReport.State.REOPENED)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )
    return [
        _("%(round)s, table %(number)s") % {"round": report.table.round.label, "number": report.table.number}
        for report in rows
    ]


def standings_for(tournament: Tournament, *, fingerprint: str | None = None) -> tuple[StandingRow, ...]:
    """The cached standings of the tournament's heats (`fingerprint` as for `scoring_for`)."""
    return scoring_for(tournament, fingerprint=fingerprint).standings


def finalists_for(tournament: Tournament) -> Finalists:
    """The cached finalists and alternates, in order."""
    return scoring_for(tournament).finalists


def awards_for(tournament: Tournament) -> tuple[Award, ...]:
    """The cached best-faction awards (WBC; empty for a format without them)."""
    return awards_board_for(tournament).awards


def filed_report(table: Table) -> GameReport | None:
    """The table's game report (filed or reopened), or None before the first filing."""
    return GameReport.objects.filter(table=table).first()


def disqualified_players(tournament: Tournament) -> set[int]:
    """Players barred from further games (WBC Dropouts), for seating later rounds."""
    if not tournament.rules.points.dropout_disqualifies:
        return set()
    return set(
        ReportEntry.objects.filter(
            tournament=tournament, result="dropout", report__state=GameReport.State.FILED
        ).values_list("player_id", flat=True)
    )
