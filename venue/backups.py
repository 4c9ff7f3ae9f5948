"""Backups of running tournaments under `settings.VENUE_BACKUP_DIR` (var/backups by default).

Each backup is a full export (`venue.export`), written atomically: a temporary file in the
same folder, renamed into place once complete, so a crash never leaves half a file as the
newest backup. One folder per tournament keeps the newest `KEEP` files.

A backup that cannot be written (a read-only folder, a full disk) is not silent:
`back_up(tournament)` records the failure with its reason (`BackupFailure`), which the head
judge's dashboard shows in red beside the time of the last good backup and `/healthz` reports,
until a backup is written again. Free space below what two backups need is a warning first.
"""

from __future__ import annotations

import datetime as dt
import errno
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from tournament.models import Round, Tournament
from venue import export
from venue.files import write_atomically
from venue.models import BackupFailure, LastGoodBackup

log = logging.getLogger(__name__)

#: Backups kept per tournament (at one every five minutes: the last two hours).
KEEP = 24
_STAMP = "%Y%m%dT%H%M%S%fZ"


@dataclass(frozen=True)
class Backup:
    path: Path
    at: dt.datetime

    @property
    def name(self) -> str:
        return self.path.name


def folder(tournament_id: int) -> Path:
    return Path(settings.VENUE_BACKUP_DIR) / f"tournament-{int(tournament_id)}"


def _prefix(tournament_id: int) -> str:
    return f"tournament-{int(tournament_id)}-"


def running_tournaments() -> QuerySet[Tournament]:
    """Tournaments with a round whose seating is published and not yet closed."""
    return Tournament.objects.filter(rounds__state=Round.State.PUBLISHED).distinct().order_by("pk")


def write_backup(tournament: Tournament, *, now: dt.datetime | None = None) -> Backup:
    """Export the tournament into a new backup file, then keep only the newest KEEP."""
    at = (now or timezone.now()).astimezone(dt.UTC)
    path = folder(tournament.pk) / f"{_prefix(tournament.pk)}{at.strftime(_STAMP)}.json"
    write_atomically(path, export.export_text(tournament))
    rotate(tournament.pk)
    return Backup(path, at)


def backups(tournament_id: int) -> list[Backup]:
    """The tournament's complete backups, newest first (temporary files are not listed)."""
    found = []
    for path in folder(tournament_id).glob(f"{_prefix(tournament_id)}*.json"):
        stamp = path.name.removeprefix(_prefix(tournament_id)).removesuffix(".json")
        try:
            at = dt.datetime.strptime(stamp, _STAMP).replace(tzinfo=dt.UTC)
        except ValueError:
            continue
        found.append(Backup(path, at))
    return sorted(found, key=lambda b: b.at, reverse=True)


def last_backup(tournament_id: int) -> Backup | None:
    found = backups(tournament_id)
    return found[0] if found else None


def rotate(tournament_id: int, *, keep: int = KEEP) -> list[Path]:
    """Remove all but the newest `keep` backups; returns the removed paths."""
    removed = [b.path for b in backups(tournament_id)[keep:]]
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def probe(tournament_id: int) -> OSError | None:
    """Whether the tournament's backup folder takes a file now (a small file written, synced and
    removed): the error that stops it, or None. Cheap enough for every minute."""
    where = folder(tournament_id)
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".probe.", dir=where)
        try:
            os.write(fd, b"dune backup probe\n")
            os.fsync(fd)
        finally:
            os.close(fd)
            Path(name).unlink(missing_ok=True)
    except OSError as exc:
        return exc
    return None


def due_now() -> list[Tournament]:
    """Tournaments to back up at once (the one-minute check): a running tournament whose folder
    no longer takes a file (its failure is then recorded within the minute), and every
    tournament whose last attempt failed (written again as soon as the folder is fixed)."""
    due = set(BackupFailure.objects.values_list("tournament_id", flat=True))
    for tournament_id in running_tournaments().values_list("pk", flat=True):
        if tournament_id not in due and probe(tournament_id) is not None:
            due.add(tournament_id)
    return list(Tournament.objects.filter(pk__in=due).order_by("pk"))


def _reason(exc: BaseException, where: Path) -> str:
    """What went wrong, in words a head judge can act on, then the system's own message."""
    if isinstance(exc, OSError):
        words = {
            errno.EROFS: "the backup folder is on a read-only disk",
            errno.EACCES: "the backup folder may not be written to",
            errno.EPERM: "the backup folder may not be written to",
            errno.ENOSPC: "the disk holding the backups is full",
            errno.EDQUOT: "the disk quota of the backups is used up",
        }.get(exc.errno or 0, "the backup could not be written")
        return f"{words} ({exc.strerror or exc}): {where}"
    return f"the backup could not be made ({type(exc).__name__}: {exc})"


@dataclass(frozen=True)
class Attempt:
    """One tournament's backup: the backup written, or the reason it failed."""

    tournament_id: int
    backup: Backup | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.backup is not None


def back_up(tournament: Tournament, *, now: dt.datetime | None = None) -> Attempt:
    """Write a backup of the tournament; a failure is recorded (never raised) so the caller
    goes on with the other tournaments, and a success clears the tournament's failure."""
    at = now or timezone.now()
    try:
        written = write_backup(tournament, now=at)
    except Exception as exc:  # any failure is shown to the head judge, whatever its cause
        reason = _reason(exc, folder(tournament.pk))
        log.warning("backup of tournament %s failed: %s", tournament.pk, reason, exc_info=True)
        record_failure(tournament, reason, at=at)
        return Attempt(tournament.pk, reason=reason)
    BackupFailure.objects.filter(tournament=tournament).delete()
    LastGoodBackup.objects.update_or_create(tournament=tournament,
                                            defaults={"path": str(written.path), "at": written.at})
    return Attempt(tournament.pk, backup=written)


def record_failure(tournament: Tournament, reason: str, *, at: dt.datetime) -> BackupFailure:
    failure, created = BackupFailure.objects.get_or_create(
        tournament=tournament,
        defaults={"failed_at": at, "since": at, "reason": reason, "folder": str(folder(tournament.pk))},
    )
    if not created:
        failure.failed_at, failure.reason, failure.attempts = at, reason, failure.attempts + 1
        failure.folder = str(folder(tournament.pk))
        failure.save(update_fields=["failed_at", "reason", "attempts", "folder"])
    return failure


def failing() -> QuerySet[BackupFailure]:
    """Tournaments whose newest backup attempt failed, oldest failure first."""
    return BackupFailure.objects.select_related("tournament").order_by("since", "tournament_id")


def to_back_up() -> list[Tournament]:
    """The periodic task's list: every running tournament, and every tournament whose last
    attempt failed (tried again even when its round has closed since)."""
    ids = set(running_tournaments().values_list("pk", flat=True))
    ids |= set(BackupFailure.objects.values_list("tournament_id", flat=True))
    return list(Tournament.objects.filter(pk__in=ids).order_by("pk"))


@dataclass(frozen=True)
class Space:
    """Free space on the backups' disk against what the next two backups need."""

    free: int
    needed: int

    @property
    def low(self) -> bool:
        return self.free < self.needed

    def words(self) -> str:
        return (f"Disk space for backups is low: {_size(self.free)} free, two backups need "
                f"{_size(self.needed)}. Free some space before the backups fail.")


def _size(n: int) -> str:
    if n < 1000:
        return f"{n} bytes"
    amount = float(n)
    for unit in ("kB", "MB", "GB"):
        amount /= 1000
        if amount < 1000 or unit == "GB":
            break
    return f"{amount:.1f} {unit}"


def space(tournament_id: int) -> Space | None:
    """Free space against twice the newest backup's size (None before the first backup, or
    when the folder cannot be read: the failure says why)."""
    newest = last_backup_safely(tournament_id)
    if newest is None:
        return None
    try:
        size = newest.path.stat().st_size
        free = shutil.disk_usage(newest.path.parent).free
    except OSError:
        return None
    return Space(free=free, needed=2 * size)


def last_backup_safely(tournament_id: int) -> Backup | None:
    """The newest backup; when the folder cannot be listed (it broke), the last one the worker
    wrote, as it remembers it; None before the first."""
    try:
        found = last_backup(tournament_id)
    except OSError:
        found = None
    if found is not None:
        return found
    remembered = LastGoodBackup.objects.filter(tournament_id=tournament_id).first()
    return Backup(Path(remembered.path), remembered.at) if remembered is not None else None
