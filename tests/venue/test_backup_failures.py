"""A backup that cannot be written is in view: the dashboard shows it in red with the reason
and the last good backup, `/healthz` reports it, the other tournaments are backed up anyway and
the failed one is tried again; disk space short of two backups is a warning first.

The failures are real: a read-only bind mount and a small tmpfs filled up (tests/venue/mounts.py)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest

from tests.venue.mounts import fill, read_only, small_disk
from tests.venue.test_backups import running_heat, wait_for


def failure_box(page: str) -> str:
    found = re.search(r"<div[^>]*data-backup-failed.*?</div>", page, re.S)
    return found.group(0) if found else ""


@pytest.mark.django_db(transaction=True)
def test_a_read_only_folder_is_shown_while_the_other_tournaments_are_backed_up_and_it_is_retried(
    celery_worker: Any, client: Any, head_judge: Any, settings: Any, tmp_path: Path
) -> None:
    from venue import backups
    from venue.tasks import back_up_running

    settings.VENUE_BACKUP_DIR = tmp_path / "backups"
    settings.VENUE_BACKUP_RETRY_SECONDS = 1
    settings.VENUE_BACKUP_RETRIES = 60
    stuck, _ = running_heat(head_judge, name="Read-only open")
    others = [running_heat(head_judge, name=name)[0] for name in ("Second open", "Third open")]
    good = backups.write_backup(stuck, now=dt.datetime(2026, 7, 28, 9, 35, 12, tzinfo=dt.UTC))

    with read_only(backups.folder(stuck.pk)):
        outcome = back_up_running.delay().get(timeout=60)
        assert list(outcome["failed"]) == [str(stuck.pk)]
        assert "read-only" in outcome["failed"][str(stuck.pk)]
        for other in others:
            assert backups.last_backup(other.pk) is not None, "the other tournaments are backed up anyway"
        assert backups.last_backup(stuck.pk) == good

        client.force_login(head_judge)
        page = client.get(f"/tournaments/{stuck.pk}/").content.decode()
        box = failure_box(page)
        assert "Backups are failing" in box and 'class="error backup-failed"' in box
        assert "read-only" in box and str(backups.folder(stuck.pk)) in box
        assert "Last good backup:" in box and "09:35:12" in box
        assert "data-backup-failed" not in client.get(f"/tournaments/{others[0].pk}/").content.decode()

        answer = client.get("/healthz")
        body = answer.json()
        assert answer.status_code == 503, "a failing check is a failing answer for any monitor"
        assert body["status"] == "failing" and body["failing"] == ["backups"] and body["down"] == []
        (failing,) = body["checks"]["backups"]["failing"]
        assert failing["tournament"] == stuck.pk and "read-only" in failing["reason"]
        assert failing["last_good"] == good.at.isoformat()
        client.logout()
        assert client.get("/healthz").json() == {"status": "failing", "down": [], "failing": ["backups"]}

    # The folder is writable again: the worker's retry writes the backup and the red goes away.
    assert wait_for(lambda: backups.last_backup(stuck.pk) != good, timeout=30)
    assert wait_for(lambda: not backups.failing().exists(), timeout=10)
    client.force_login(head_judge)
    assert "data-backup-failed" not in client.get(f"/tournaments/{stuck.pk}/").content.decode()
    assert client.get("/healthz").json()["status"] == "ok"


def test_a_filling_disk_warns_before_the_backup_fails(
    db: Any, client: Any, head_judge: Any, settings: Any, tmp_path: Path
) -> None:
    from venue import backups

    settings.VENUE_BACKUP_DIR = tmp_path / "backups"
    tournament, _ = running_heat(head_judge)
    client.force_login(head_judge)
    with small_disk(settings.VENUE_BACKUP_DIR, 2 * 1024 * 1024) as disk:
        first = backups.back_up(tournament, now=dt.datetime(2026, 7, 28, 9, 0, tzinfo=dt.UTC))
        assert first.backup is not None
        size = first.backup.path.stat().st_size
        page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
        assert "data-backup-warning" not in page and "data-backup-failed" not in page

        # Room for one more backup, not for two: a warning, and the next backup is still written.
        filler = fill(disk, leave=size + size // 2)
        space = backups.space(tournament.pk)
        assert space is not None and space.low and space.needed == 2 * size
        page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
        warning = re.search(r"<p[^>]*data-backup-warning[^>]*>(.*?)</p>", page, re.S)
        assert warning and "Disk space for backups is low" in warning.group(1)
        assert "data-backup-failed" not in page
        body = client.get("/healthz").json()
        assert body["warnings"] == ["backups"] and "failing" not in body
        assert body["checks"]["backups"]["low_space"][0]["tournament"] == tournament.pk
        second = backups.back_up(tournament, now=dt.datetime(2026, 7, 28, 9, 5, tzinfo=dt.UTC))
        assert second.backup is not None

        # No room left: the backup fails with the disk named full, the last good one kept.
        with filler.open("ab") as handle:
            handle.write(b"\0" * max(0, backups.space(tournament.pk).free - size // 4))  # type: ignore[union-attr]
        third = backups.back_up(tournament, now=dt.datetime(2026, 7, 28, 9, 10, tzinfo=dt.UTC))
        assert third.backup is None and "the disk holding the backups is full" in third.reason
        assert backups.last_backup(tournament.pk) == second.backup
        assert not list(backups.folder(tournament.pk).glob(".*.partial")), "no half-written file is left"
        box = failure_box(client.get(f"/tournaments/{tournament.pk}/").content.decode())
        assert "full" in box and "Last good backup:" in box and "09:05:00" in box
        body = client.get("/healthz").json()
        assert body["failing"] == ["backups"]

        # Space freed: the next backup clears the failure.
        filler.unlink()
        assert backups.back_up(tournament).ok
        assert not backups.failing().exists()


def test_a_failure_counts_its_attempts_and_keeps_when_it_began(db: Any, head_judge: Any, settings: Any,
                                                             tmp_path: Path) -> None:
    from venue import backups

    settings.VENUE_BACKUP_DIR = tmp_path / "backups"
    tournament, _ = running_heat(head_judge)
    start = dt.datetime(2026, 7, 28, 9, 0, tzinfo=dt.UTC)
    with read_only(backups.folder(tournament.pk)):
        for n in range(3):
            assert not backups.back_up(tournament, now=start + dt.timedelta(minutes=5 * n)).ok
    failure = backups.failing().get()
    assert (failure.attempts, failure.since, failure.failed_at) == (3, start, start + dt.timedelta(minutes=10))
    # A tournament whose round closed meanwhile is still tried until its backup is written.
    tournament.rounds.update(state="finished")
    assert backups.to_back_up() == [tournament]


def test_a_broken_folder_is_found_within_the_minute_check_and_the_good_backup_stays_in_view(
    db: Any, client: Any, head_judge: Any, settings: Any, tmp_path: Path
) -> None:
    """The one-minute check (venue.check_backups) finds a folder that no longer takes a file and
    backs up at once: the failure is recorded without waiting for the five-minute run. While it
    fails, even when the folder cannot be listed, the dashboard shows the last good backup and its
    download; the check writes the backup again as soon as the folder is back."""
    import shutil

    from venue import backups
    from venue.tasks import check_backups

    entry = settings.CELERY_BEAT_SCHEDULE["venue-check-backups"]
    assert (entry["task"], entry["schedule"]) == ("venue.check_backups", 60.0)
    settings.VENUE_BACKUP_DIR = tmp_path / "backups"
    tournament, _ = running_heat(head_judge)
    good = backups.back_up(tournament, now=dt.datetime(2026, 7, 28, 9, 35, 12, tzinfo=dt.UTC)).backup
    assert good is not None
    kept = good.path.read_bytes()
    assert check_backups() == {"written": [], "failed": {}}, "a folder that takes files is left alone"

    with read_only(backups.folder(tournament.pk)):
        outcome = check_backups()
        assert list(outcome["failed"]) == [str(tournament.pk)] and "read-only" in outcome["failed"][str(tournament.pk)]
    assert backups.failing().filter(tournament=tournament).exists()

    # The folder is gone from under the backups (a stick pulled out): not even listed.
    saved = tmp_path / "saved"
    shutil.move(str(backups.folder(tournament.pk)), saved)
    backups.folder(tournament.pk).write_text("not a folder")
    client.force_login(head_judge)
    box = failure_box(client.get(f"/tournaments/{tournament.pk}/").content.decode())
    assert "Last good backup:" in box and "09:35:12" in box and "No good backup" not in box
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Download the last backup" in page
    assert client.get("/healthz").status_code == 503

    backups.folder(tournament.pk).unlink()
    shutil.move(str(saved), backups.folder(tournament.pk))
    download = client.get(f"/tournaments/{tournament.pk}/backups/latest/")
    assert download.status_code == 200 and b"".join(download.streaming_content) == kept
    outcome = check_backups()
    assert list(outcome["written"]) and not backups.failing().exists()
