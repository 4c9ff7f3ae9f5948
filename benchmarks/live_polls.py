"""300 phones polling the live standings, round page and room screen.

A throwaway test database (PostgreSQL of DATABASE_URL, by default the local server's
`dune_bench_live`) gets a WBC tournament of 300 players: heat 1 seated at 50 tables and
published, half of its reports filed. Each live region is asked once for its HTML (the
first phone), then 300 times with that ETag, as 300 phones polling an unchanged page do.
Prints the input size, the time and SQL queries of the first answer and of a 304, and exits
1 when a target is missed. The targets follow from 300 phones polling every 10 s (30 requests
a second): one web worker must keep up, so a 304 costs at most 3 queries, its median stays
under 30 ms, and 300 polls of one region take under 10 s (one polling interval).

    .venv/bin/python benchmarks/live_polls.py [--players N] [--polls P]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.throwaway_db import throwaway_database  # noqa: E402

MAX_QUERIES_304 = 3
TARGET_MEDIAN_304 = 0.030
TARGET_TOTAL = 10.0


def build(players: int) -> tuple[Any, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from tests.factories import make_players, make_round, make_tournament, seat_table
    from tests.scoring.db.conftest import report_for

    judge = get_user_model().objects.create_user("bench-head", is_staff=True, is_superuser=True)
    tournament = make_tournament(format="wbc", head_judge=judge)
    roster = make_players(tournament, players)
    heat = make_round(tournament)
    tables = [
        seat_table(heat, roster[n : n + 6], number=n // 6 + 1) for n in range(0, players - players % 6, 6)
    ]
    api = APIClient()
    api.force_authenticate(judge)
    for table in tables[: len(tables) // 2]:
        response = api.post(
            f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
        )
        assert response.status_code == 201, response.content
    return tournament, heat


def poll(url: str, target: str, polls: int) -> dict[str, Any]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": target}
    t0 = time.perf_counter()
    with CaptureQueriesContext(connection) as first_queries:
        first = client.get(url, **headers)
    first_time = time.perf_counter() - t0
    assert first.status_code == 200, (url, first.status_code)
    times = []
    start = time.perf_counter()
    with CaptureQueriesContext(connection) as poll_queries:
        for _ in range(polls):
            t = time.perf_counter()
            answer = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **headers)
            times.append(time.perf_counter() - t)
            assert answer.status_code == 304, (url, answer.status_code)
    total = time.perf_counter() - start
    return {
        "first": first_time,
        "first_queries": len(first_queries.captured_queries),
        "bytes": len(first.content),
        "median": statistics.median(times),
        "queries": len(poll_queries.captured_queries) / polls,
        "total": total,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--polls", type=int, default=300)
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dune_bench_live")
    ok = True
    with throwaway_database(migrate=True):
        from django.conf import settings
        from django.core.cache import cache

        settings.ALLOWED_HOSTS = ["*"]
        try:
            cache.clear()
            tournament, heat = build(args.players)
            print(f"input: {args.players} players, {heat.tables.count()} tables, {args.polls} polls per region")
            for label, url, target in (
                ("standings", f"/tournaments/{tournament.pk}/standings/", "standings-live"),
                ("round page", f"/rounds/{heat.pk}/", "round-live"),
                ("room screen", f"/tournaments/{tournament.pk}/screen/", "screen-live"),
            ):
                r = poll(url, target, args.polls)
                fine = (
                    r["queries"] <= MAX_QUERIES_304
                    and r["median"] < TARGET_MEDIAN_304
                    and r["total"] < TARGET_TOTAL
                )
                ok &= fine
                print(
                    f"{label}: first answer {r['first'] * 1000:.0f} ms, {r['first_queries']} queries, {r['bytes']} bytes;"
                    f" 304: median {r['median'] * 1000:.1f} ms, {r['queries']:.0f} queries each;"
                    f" {args.polls} polls {r['total']:.2f} s"
                    f" (targets: <= {MAX_QUERIES_304} queries, median < {TARGET_MEDIAN_304 * 1000:.0f} ms,"
                    f" total < {TARGET_TOTAL:.0f} s) {'OK' if fine else 'MISSED'}"
                )
        finally:
            cache.clear()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
