"""What the worker knows about a tournament's backups that the backup folder cannot say: the
last attempt that failed and why (a read-only or full folder has no room for a note)."""

from __future__ import annotations

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
