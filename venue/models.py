"""What the venue kit remembers outside the backup folder: the last backup attempt that failed
and why (a read-only or full folder has no room for a note), this installation's identity, and
where the tournaments it imported came from."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class BackupFailure(models.Model):
    """The newest failed backup of a tournament; removed by the next backup that is written.

    Not part of the tournament's export (venue is not one of the exported apps): a failure
    belongs to this installation's folder, not to the event."""

    tournament = models.OneToOneField("tournament.Tournament", on_delete=models.CASCADE,
                                      related_name="backup_failure")
    #: When the newest attempt failed.
    failed_at = models.DateTimeField()
    #: Since when the backups have failed (the first attempt of this run of failures).
    since = models.DateTimeField()
    #: Attempts that failed in a row.
    attempts = models.PositiveIntegerField(default=1)
    #: What went wrong, in words a head judge can act on (and the system's own message).
    reason = models.TextField()
    #: The folder the backup was to be written to.
    folder = models.CharField(max_length=500)

    def __str__(self) -> str:
        return f"backup of tournament {self.tournament_id} failing since {self.since:%H:%M:%S}: {self.reason}"


class Installation(models.Model):
    """This database's identity, written once: a new or restored database gets its own, so
    nothing kept outside the database (the cache, a sealed export's origin) is taken for its."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    #: Bumped by every import: cached answers written before it are no longer read.
    generation = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"installation {self.id}"


class ImportedTournament(models.Model):
    """Where an imported tournament came from: the installation and the tournament id that
    first made it (carried along by every later export), and the checksum of the file."""

    tournament = models.OneToOneField("tournament.Tournament", on_delete=models.CASCADE, related_name="origin")
    origin_installation = models.CharField(max_length=64)
    origin_tournament = models.BigIntegerField()
    checksum = models.CharField(max_length=80)
    imported_at = models.DateTimeField(auto_now_add=True)
    #: The account that ran the import, when one was named.
    imported_by = models.CharField(max_length=150, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint("origin_installation", "origin_tournament", name="imported_tournament_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} from {self.origin_installation}:{self.origin_tournament}"


class SignInCode(models.Model):
    """A one-time sign-in code for an account without a password here (a restore that could not
    carry the judges' passwords): `bin/venue sign_in_codes TOURNAMENT` makes one per judge; the
    judge signs in with their name and the code once (`venue.sign_in_codes.CodeBackend`), then
    the code is gone. Only the code's hash is kept."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    code_hash = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    #: After this the code no longer signs anyone in.
    expires_at = models.DateTimeField()


class LastGoodBackup(models.Model):
    """Where and when the newest backup of a tournament was written: the dashboard keeps showing
    it (and its download) while the backup folder fails, even when the folder cannot be listed."""

    tournament = models.OneToOneField("tournament.Tournament", on_delete=models.CASCADE, related_name="+")
    path = models.CharField(max_length=1000)
    at = models.DateTimeField()
