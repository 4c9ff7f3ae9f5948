"""Backups while a round runs: written on the five-minute schedule and after every filing,
the newest 24 kept per tournament, never half-written; the dashboard shows the last one."""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for


def wait_for(predicate: Callable[[], bool], timeout: float = 15) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.fixture
def backup_dir(settings: Any, tmp_path: Path) -> Path:
    settings.VENUE_BACKUP_DIR = tmp_path / "backups"
    return settings.VENUE_BACKUP_DIR


def running_heat(head_judge: Any, *, name: str = "Running open") -> tuple[Any, Any]:
    tournament = make_tournament(format="wbc", head_judge=head_judge, name=name)
    players = make_players(tournament, 6, prefix=name)
    heat = make_round(tournament, number=1, state="published")
    return tournament, seat_table(heat, players, number=1)


def test_the_beat_backs_up_every_running_tournament_every_five_minutes(
    db: Any, head_judge: Any, backup_dir: Path, settings: Any
) -> None:
    from dune import export_document as document
    from venue import backups
    from venue.tasks import back_up_running

    entry = settings.CELERY_BEAT_SCHEDULE["venue-back-up-running"]
    assert (entry["task"], entry["schedule"]) == ("venue.back_up_running", 300.0)
    running, _ = running_heat(head_judge)
    planned = make_tournament(format="wbc", name="Not started yet")
    make_round(planned, number=1, state="planned")
    finished = make_tournament(format="wbc", name="All over")
    make_round(finished, number=1, state="finished")

    back_up_running()

    assert [b.path.parent.name for b in backups.backups(running.pk)] == [f"tournament-{running.pk}"]
    assert backups.backups(planned.pk) == [] and backups.backups(finished.pk) == []
    written = backups.last_backup(running.pk)
    assert written is not None
    content = document.open_sealed(json.loads(written.path.read_text()))
    assert content["tournament"] == running.pk


def test_the_newest_24_backups_are_kept(db: Any, head_judge: Any, backup_dir: Path) -> None:
    from venue import backups

    tournament, _ = running_heat(head_judge)
    start = dt.datetime(2026, 7, 28, 9, 0, tzinfo=dt.UTC)
    for n in range(30):
        backups.write_backup(tournament, now=start + dt.timedelta(minutes=5 * n))
    kept = backups.backups(tournament.pk)
    assert len(kept) == backups.KEEP == 24
    assert kept[0].at == start + dt.timedelta(minutes=5 * 29)
    assert kept[-1].at == start + dt.timedelta(minutes=5 * 6)
    assert len(list(backups.folder(tournament.pk).iterdir())) == 24


def test_a_crash_while_writing_never_leaves_half_a_file_as_the_newest(
    db: Any, head_judge: Any, backup_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from venue import backups

    tournament, _ = running_heat(head_judge)
    good = backups.write_backup(tournament, now=dt.datetime(2026, 7, 28, 9, 0, tzinfo=dt.UTC))

    def power_cut(fd: int) -> None:
        raise OSError("the disk went away")

    monkeypatch.setattr(os, "fsync", power_cut)
    with pytest.raises(OSError, match="disk went away"):
        backups.write_backup(tournament, now=dt.datetime(2026, 7, 28, 9, 5, tzinfo=dt.UTC))
    monkeypatch.undo()
    assert backups.last_backup(tournament.pk) == good
    assert [p.name for p in backups.folder(tournament.pk).iterdir()] == [good.name]
    # A process killed mid-write leaves its temporary file: it is never taken for a backup.
    (backups.folder(tournament.pk) / f".tournament-{tournament.pk}-x.json.partial").write_text('{"format_ver')
    assert backups.last_backup(tournament.pk) == good


@pytest.mark.django_db(transaction=True)
def test_a_filed_report_is_backed_up_by_the_worker_at_once(
    celery_worker: Any, head_judge: Any, backup_dir: Path, settings: Any
) -> None:
    from dune import export_document as document
    from scoring import services as scoring
    from venue import backups

    settings.VENUE_BACKUP_ON_FILING = True
    tournament, table = running_heat(head_judge)
    scoring.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    assert wait_for(lambda: backups.last_backup(tournament.pk) is not None)
    written = backups.last_backup(tournament.pk)
    assert written is not None
    content = document.open_sealed(json.loads(written.path.read_text()))
    assert len(content["rows"]["scoring.gamereport"]) == 1


def test_the_dashboard_shows_the_last_backup_and_its_download(
    client: Any, head_judge: Any, make_user: Any, backup_dir: Path
) -> None:
    from venue import backups

    tournament, _ = running_heat(head_judge)
    client.force_login(head_judge)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "No backup yet" in page
    written = backups.write_backup(tournament, now=dt.datetime(2026, 7, 28, 9, 35, 12, tzinfo=dt.UTC))
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Last backup:" in page and "09:35:12" in page
    link = f"/tournaments/{tournament.pk}/backups/latest/"
    assert f'href="{link}"' in page
    download = client.get(link)
    assert download.status_code == 200
    assert b"".join(download.streaming_content) == written.path.read_bytes()
    client.force_login(make_user("someone"))
    assert client.get(link).status_code == 403
