"""Backups of running tournaments under `settings.VENUE_BACKUP_DIR` (var/backups by default).

Each backup is a full export (`venue.export`), written atomically: a temporary file in the
same folder, renamed into place once complete, so a crash never leaves half a file as the
newest backup. One folder per tournament keeps the newest `KEEP` files.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from tournament.models import Round, Tournament
from venue import export

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
    export.write_atomically(path, export.export_text(tournament))
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
