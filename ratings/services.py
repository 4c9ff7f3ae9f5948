"""Recomputing the stored ratings, and reading them for pages and the API.

:func:`recompute` replays every filed game from a starting game on (everything for a full
recompute) in memory, then writes the history rows, the current list and the run time in one
transaction under the run row's lock: a reader never sees half a list, two recomputes never
interleave, and running the same recompute twice leaves the same rows.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from dune.ratings.compute import Rating, initial, replay
from ratings import games as game_source
from ratings.models import PersonRating, RatingHistory, RatingRun

BATCH = 5000


@dataclass(frozen=True)
class RunSummary:
    since: game_source.GameKey | None
    replayed: int
    people: int
    recomputed_at: datetime
    #: Seconds spent reading the games, replaying them, and writing the result.
    timings: dict[str, float] = field(default_factory=dict)


def _history_from(since: game_source.GameKey) -> Q:
    at, report = since
    return Q(filed_at__gt=at) | Q(filed_at=at, report_id__gte=report)


def _prior(since: game_source.GameKey) -> dict[Hashable, Rating]:
    """Everybody's rating just before the game `since`."""
    if not RatingHistory.objects.filter(_history_from(since)).exists():
        # The common case, a newly filed game: nothing stored comes after it.
        return {
            person: Rating(mu=mu, sigma=sigma, games=games)
            for person, mu, sigma, games in PersonRating.objects.values_list(
                "person_id", "mu", "sigma", "games"
            )
        }
    prior: dict[Hashable, Rating] = {}
    rows = (
        RatingHistory.objects.filter(game_source.history_before(since))
        .order_by("filed_at", "report_id")
        .values_list("person_id", "mu", "sigma", "games")
    )
    for person, mu, sigma, games in rows.iterator(chunk_size=BATCH):
        prior[person] = Rating(mu=mu, sigma=sigma, games=games)
    return prior


def recompute(*, since: game_source.GameKey | None = None) -> RunSummary:
    """Replay every filed game from `since` on (all games for None) and store the result."""
    RatingRun.objects.get_or_create(pk=1)
    with transaction.atomic():
        run = RatingRun.objects.select_for_update().get(pk=1)
        t0 = time.perf_counter()
        games = game_source.filed_games(since)
        prior = {} if since is None else _prior(since)
        t1 = time.perf_counter()
        final, steps = replay(games, prior)
        t2 = time.perf_counter()
        stale = (
            RatingHistory.objects.filter(_history_from(since))
            if since is not None
            else RatingHistory.objects.all()
        )
        touched = set(stale.values_list("person_id", flat=True).distinct())
        stale.delete()
        _insert_history(
            (
                step.who,
                step.game[1],  # type: ignore[index]
                step.game[0],  # type: ignore[index]
                step.won,
                step.after.mu,
                step.after.sigma,
                step.after.ordinal,
                step.after.games,
            )
            for step in steps
        )
        touched |= {step.who for step in steps}
        if since is None:
            PersonRating.objects.all().delete()
            touched = set(final)
        _write_list(final, touched)
        now = timezone.now()
        run.recomputed_at = now
        run.replayed = len(games)
        run.games = RatingHistory.objects.values("report_id").distinct().count()
        run.save(update_fields=["recomputed_at", "replayed", "games"])
        t3 = time.perf_counter()
    timings = {"read": t1 - t0, "replay": t2 - t1, "write": t3 - t2}
    return RunSummary(
        since=since, replayed=len(games), people=len(touched), recomputed_at=now, timings=timings
    )


HISTORY_COLUMNS = ("person_id", "report_id", "filed_at", "won", "mu", "sigma", "ordinal", "games")


def _insert_history(rows: Iterable[tuple[Any, ...]]) -> None:
    """Insert history rows (in HISTORY_COLUMNS order). On PostgreSQL through COPY, several
    times faster than INSERTs for the 100,000 rows of a full recompute; elsewhere (the embedded
    SQLite default) through bulk_create."""
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(RatingHistory._meta.db_table)
        columns = ", ".join(connection.ops.quote_name(c) for c in HISTORY_COLUMNS)
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
        return
    RatingHistory.objects.bulk_create(
        (RatingHistory(**dict(zip(HISTORY_COLUMNS, row, strict=True))) for row in rows), batch_size=BATCH
    )


def _write_list(final: dict[Hashable, Rating], touched: Iterable[Hashable]) -> None:
    keep = [who for who in touched if who in final]
    gone = [who for who in touched if who not in final]
    if gone:
        PersonRating.objects.filter(person_id__in=gone).delete()
    PersonRating.objects.bulk_create(
        (
            PersonRating(
                person_id=who,
                mu=final[who].mu,
                sigma=final[who].sigma,
                ordinal=final[who].ordinal,
                games=final[who].games,
            )
            for who in keep
        ),
        batch_size=BATCH,
        update_conflicts=True,
        unique_fields=["person"],
        update_fields=["mu", "sigma", "ordinal", "games"],
    )


def recompute_from(*, report_id: int | None = None, player_id: int | None = None) -> RunSummary | None:
    """Recompute from a changed report's game, or from a relinked player's first game.

    A report that no longer exists leaves no place to start from: everything is replayed.
    A player without filed games changes nothing (answers None).
    """
    if report_id is not None:
        key = game_source.key_of_report(report_id)
        return recompute(since=key)
    if player_id is not None:
        key = game_source.first_key_of_player(player_id)
        if key is None:
            return None
        return recompute(since=key)
    return recompute()


def catch_up() -> RunSummary | None:
    """Recompute from the earliest report filed or reopened since the last recompute, if any
    (what a task lost to an unreachable broker would have done). None when nothing is late."""
    last = last_recomputed()
    changed = Q() if last is None else Q(filed_at__gt=last) | Q(reopened_at__gt=last)
    since = game_source.earliest_key(changed)
    if since is None:
        return None
    return recompute(since=since)


# ----------------------------------------------------------------------------- reading


def last_recomputed() -> datetime | None:
    return RatingRun.objects.filter(pk=1).values_list("recomputed_at", flat=True).first()


def rating_of(person_id: int) -> Rating:
    """The person's current rating (a fresh one, with 0 games, before their first game)."""
    row = PersonRating.objects.filter(person_id=person_id).values_list("mu", "sigma", "games").first()
    if row is None:
        return initial()
    return Rating(mu=row[0], sigma=row[1], games=row[2])


def ratings_list(person_ids: Iterable[int] | None = None) -> list[PersonRating]:
    """The rating list, best ordinal first (of `person_ids` only, if given)."""
    rows = PersonRating.objects.select_related("person").order_by(
        "-ordinal", "-games", "person__name", "person_id"
    )
    if person_ids is not None:
        rows = rows.filter(person_id__in=list(person_ids))
    return list(rows)


def history_of(person_id: int) -> list[Any]:
    """The person's rating after each of their games, oldest first, with where it was played."""
    return list(
        RatingHistory.objects.filter(person_id=person_id)
        .select_related("report__table__round__tournament")
        .order_by("filed_at", "report_id")
    )
