"""A spare laptop follows the serving one and takes over: laptop A serves the demo event in
venue mode while judges post records; laptop B runs `bin/venue follow URL` and keeps every
tournament a few seconds behind; A is killed with -9; `bin/venue take-over` makes B the server,
holding every record A acknowledged, exactly once, under the same numbers, and the judges sign
in on B with their own passwords. Real processes, ports chosen by the system."""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.venue import sqlite_template
from tests.venue.laptops import Judges, LagWatch, Laptop, Session, demo_password, held, running_tables

#: The tables compared row by row between A and B after the take-over.
MIRRORED = ("tournament_tournament", "tournament_player", "tournament_round", "tournament_table", "tournament_seat",
            "gameplay_gameevent", "gameplay_idempotencyrecord", "scoring_gamereport", "scoring_reportrevision",
            "clocks_tableclock", "clocks_clockhistory", "tournament_seatingaudit")


def normal(value: object) -> object:
    """One value as stored by either laptop's SQLite: JSON parsed, times without their zone suffix."""
    if isinstance(value, str):
        if value[:1] in "{[":
            try:
                return json.loads(value)
            except ValueError:
                return value
        if len(value) >= 19 and value[4] == "-" and value[10] in " T" and value[13] == ":":
            stamp = value.replace("T", " ").removesuffix("+00:00")
            head, _, fraction = stamp.partition(".")
            return f"{head}.{(fraction or '0').ljust(6, '0')}"
    return value


def rows(laptop: Laptop, table: str) -> list[tuple[object, ...]]:
    return [tuple(normal(v) for v in row) for row in laptop.query(f"SELECT * FROM {table} ORDER BY id")]  # noqa: S608


#: Records the judges post to A while B follows.
RECORDS = 60


@pytest.fixture
def laptops(tmp_path: Path) -> Iterator[tuple[Laptop, Laptop]]:
    a, b = Laptop(tmp_path / "a"), Laptop(tmp_path / "b")
    for laptop in (a, b):  # two new installations, each with its database migrated
        sqlite_template.migrated(laptop.database)
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_follow_and_take_over_lose_nothing(laptops: tuple[Laptop, Laptop]) -> None:
    a, b = laptops
    password = demo_password(a.run("load_demo"))
    a.start()
    a.wait_serving()
    # Paired before the event with the code A's bin/venue printed: A's judges' sign-ins come along.
    code = a.wait_for_log(r"bin/venue pair ([A-Z2-7-]+)").group(1)
    assert "Paired with the serving laptop" in b.run("pair", code)

    follower = b.start("follow", a.url, "--user", "headjudge", "--interval", "1", log_name="follow.log",
                       env={"DUNE_FOLLOW_PASSWORD": password})
    b.wait_for_log(r"1 tournament\(s\) followed", log_name="follow.log")
    session = Session(a.url)
    session.sign_in("headjudge", password)
    judges = Judges(session, running_tables(a), every=0.5)
    watch = LagWatch(judges, b)
    watch.start()
    judges.start()
    # The judges go on until A has acknowledged RECORDS records (the wait only keeps a failure from hanging).
    end = time.monotonic() + 180
    while judges.count() < RECORDS and not judges.errors and time.monotonic() < end:
        time.sleep(0.1)
    judges.stop()
    assert not judges.errors, judges.errors
    assert watch.finish(timeout=30) == 0, "B never caught up with A"
    acknowledged = judges.count()
    assert acknowledged >= RECORDS and len(watch.lags) == acknowledged
    stamps = [at for acks in judges.acknowledged.values() for _, at in acks]
    posting = max(stamps) - min(stamps)
    print(f"B trailed A by {statistics.median(watch.lags):.1f} s (median), "
          f"{max(watch.lags):.1f} s at most, over {acknowledged} records posted in {posting:.1f} s")
    # B keeps up while the judges post, not only once they stop: it held records before the
    # last one was posted, and each record reached it within the time the judges took to post
    # them all (both measured in this run, so a loaded machine slows both sides alike).
    assert min(watch.seen) < max(stamps), (min(watch.seen), max(stamps))
    assert max(watch.lags) < posting, (max(watch.lags), posting)

    status, document = session.call("GET", "/api/tournaments/1/export/")  # A's last backup, as a download
    assert status == 200
    backup = a.folder / "last-backup.json"
    backup.write_text(json.dumps(document))

    # A take-over while A still answers is refused, and B goes on following.
    with pytest.raises(AssertionError, match="still answers"):
        b.run("take-over")
    assert follower.poll() is None, "a refused take-over stopped the follower"

    a.kill()  # the power cut: A's processes die with SIGKILL, the phones' answers already given
    b.start("take-over", log_name="take-over.log")
    b.wait_for_log(r"This laptop now serves the event", log_name="take-over.log")
    b.wait_serving()
    assert follower.wait(timeout=30) == 0, "the follower did not stop at the take-over"
    assert "Stopped following" in b.log("follow.log")
    assert re.search(r"round \d+ table \d+ #\d+", b.log("take-over.log")), b.log("take-over.log")

    # Every record A acknowledged is on B, exactly once, under the same number; and the rest too.
    for table, acks in judges.acknowledged.items():
        assert held(b)[table] >= max(seq for seq, _ in acks)
    assert b.records() == a.records()
    for table in MIRRORED:
        assert rows(b, table) == rows(a, table), table

    # The judges sign in on B with their own passwords; B takes the next record after A's.
    on_b = Session(b.url)
    on_b.sign_in("headjudge", password)
    table, seq = next(iter(judges.tables.items()))
    status, body = on_b.call("POST", f"/api/tables/{table}/game/events/",
                             {"event": {"type": "spice_set", "faction": "atreides", "amount": 4}, "expected_seq": seq},
                             {"Idempotency-Key": "after-the-take-over"})
    assert status == 201 and body["seq"] == seq + 1, body
    # A record A acknowledged, sent again by a phone that never heard the answer, lands once.
    first_key = f"judge-{table}-0"
    status, body = on_b.call("POST", f"/api/tables/{table}/game/events/",
                             {"event": {"type": "spice_set", "faction": "atreides", "amount": 0},
                              "expected_seq": judges.acknowledged[table][0][0] - 1}, {"Idempotency-Key": first_key})
    assert status == 201 and body["seq"] == judges.acknowledged[table][0][0], body
    assert held(b)[table] == seq + 1

    # A's backup imported on B as well is the same tournament: refused, nothing counted twice.
    with pytest.raises(AssertionError, match="already here"):
        b.run("import_tournament", str(backup), "--by", "headjudge")
    assert b.query("SELECT COUNT(*) FROM tournament_tournament") == [(1,)]
