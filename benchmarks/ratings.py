"""A full recompute of the ratings over 20,000 filed games (five or six players each).

Pure part: replay 20,000 games among 2,000 people through `dune.ratings.compute.replay`
(openskill's Plackett-Luce model). Database part (on the PostgreSQL of DATABASE_URL, by
default the local server's `dune_bench_ratings`): a throwaway test database gets the same
games as filed reports of 20 tournaments, and `ratings.services.recompute()` reads them,
replays them and writes the list and every history row in one transaction. Then one more
game is filed and recomputed on its own (the everyday case). Target: the full recompute
under 30 s, in both parts. Prints the input size and the figures; exits 1 on a missed target.

    .venv/bin/python benchmarks/ratings.py [--games N] [--people P] [--seed S] [--no-db]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.throwaway_db import throwaway_database  # noqa: E402
from dune.ratings.compute import Game, Seat, replay  # noqa: E402

TARGET_SECONDS = 30.0
TOURNAMENTS = 20


def synthetic_games(games: int, people: int, seed: int) -> list[tuple[list[int], set[int], bool]]:
    """(people at the table, winners' seat indexes, whether one seat dropped out) per game:
    tables of five or six, a solo winner half the time, an alliance of two otherwise."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        size = rng.choice((5, 6))
        seated = rng.sample(range(people), size)
        winners = {0} if rng.random() < 0.5 else {0, 1}
        out.append((seated, winners, rng.random() < 0.05))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--people", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1979)
    parser.add_argument("--no-db", action="store_true", help="skip the database part")
    args = parser.parse_args()
    played = synthetic_games(args.games, args.people, args.seed)
    seats = sum(len(s) for s, _, _ in played)
    print(f"input: {args.games} games, {seats} seats, {args.people} people")
    games = [
        Game(key=i, seats=tuple(Seat(who=p, won=j in won) for j, p in enumerate(seated)))
        for i, (seated, won, _) in enumerate(played)
    ]
    t0, c0 = time.perf_counter(), time.process_time()
    ratings, steps = replay(games)
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    ok = took < TARGET_SECONDS
    print(
        f"pure: replay of {len(games)} games, {len(steps)} rating steps, {len(ratings)} people:"
        f" {took:.2f} s (cpu {cpu:.2f} s; target < {TARGET_SECONDS:.0f} s) {'OK' if ok else 'MISSED'}"
    )
    if args.no_db:
        print("database: skipped (--no-db)")
        return 0 if ok else 1
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dune_bench_ratings")
    if not os.environ["DATABASE_URL"].startswith("postgres"):
        print(f"database: DATABASE_URL must name a PostgreSQL server (got {os.environ['DATABASE_URL']!r})")
        return 1
    ok &= database_benchmark(played, args.people)
    return 0 if ok else 1


def database_benchmark(played: list[tuple[list[int], set[int], bool]], people: int) -> bool:
    with throwaway_database():
        return _db_run(played, people)


def _db_run(played: list[tuple[list[int], set[int], bool]], people: int) -> bool:
    from datetime import timedelta

    from django.utils import timezone

    from ratings import games as game_source
    from ratings import services
    from ratings.models import PersonRating, RatingHistory
    from scoring.models import GameReport, ReportEntry
    from tournament.models import Person, Player, Round, Table, Tournament

    # The filling below (bulk inserts: no save signals, so no task) is not what is measured.
    t0 = time.perf_counter()
    persons = Person.objects.bulk_create(Person(name=f"Person {i:05d}") for i in range(people))
    per_tournament = -(-len(played) // TOURNAMENTS)
    start = timezone.now() - timedelta(days=400)
    n = 0
    for t in range(TOURNAMENTS):
        chunk = played[t * per_tournament : (t + 1) * per_tournament]
        if not chunk:
            break
        tournament = Tournament.objects.create(name=f"Benchmark {t}", format="wbc")
        at_table = {p for seated, _, _ in chunk for p in seated}
        players = {
            p.person_id: p
            for p in Player.objects.bulk_create(
                Player(tournament=tournament, name=f"Person {i:05d}", person=persons[i])
                for i in sorted(at_table)
            )
        }
        round_ = Round.objects.create(tournament=tournament, number=1, state="finished")
        tables = Table.objects.bulk_create(
            (Table(round=round_, number=i + 1) for i in range(len(chunk))), batch_size=2000
        )
        reports = GameReport.objects.bulk_create(
            (
                GameReport(
                    table=table,
                    tournament=tournament,
                    data={"results": []},
                    filed_at=start + timedelta(seconds=n + i),
                )
                for i, table in enumerate(tables)
            ),
            batch_size=2000,
        )
        n += len(chunk)
        entries = []
        for report, (seated, won, dropout) in zip(reports, chunk, strict=True):
            for j, p in enumerate(seated):
                result = (
                    "solo_stronghold"
                    if j in won and len(won) == 1
                    else "allied_stronghold"
                    if j in won
                    else "loss"
                )
                if dropout and j == len(seated) - 1:
                    result = "dropout"
                entries.append(
                    ReportEntry(
                        report=report,
                        tournament=tournament,
                        player=players[persons[p].pk],
                        round_number=1,
                        result=result,
                    )
                )
        ReportEntry.objects.bulk_create(entries, batch_size=5000)
    print(f"  (filled {n} filed reports in {TOURNAMENTS} tournaments: {time.perf_counter() - t0:.1f} s)")

    t0 = time.perf_counter()
    loaded = game_source.filed_games(None)
    load = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    summary = services.recompute()
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    ok = took < TARGET_SECONDS and summary.replayed == len(played)
    print(
        f"database: full recompute of {summary.replayed} games ({len(loaded)} loaded in {load:.2f} s),"
        f" {RatingHistory.objects.count()} history rows and {PersonRating.objects.count()} ratings written in one"
        f" transaction: {took:.2f} s (cpu {cpu:.2f} s; target < {TARGET_SECONDS:.0f} s) {'OK' if ok else 'MISSED'}"
        f"; read {summary.timings['read']:.2f} s, replay {summary.timings['replay']:.2f} s,"
        f" write {summary.timings['write']:.2f} s"
    )
    last = GameReport.objects.order_by("-filed_at", "-pk").first()
    t0 = time.perf_counter()
    one = services.recompute(since=game_source.key_of_report(last.pk))
    print(
        f"database: recompute from the last filed game on ({one.replayed} game): {time.perf_counter() - t0:.2f} s"
    )
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
