"""The dashboard's line about backups: when the last one was written and its download, a
failing backup in red with its reason, and a warning when the disk is running out of room."""

from __future__ import annotations

from typing import Any

from django import template

from venue import backups
from venue.models import BackupFailure

register = template.Library()


@register.inclusion_tag("venue/_last_backup.html")
def last_backup(tournament: Any) -> dict[str, Any]:
    space = backups.space(tournament.pk)
    return {
        "tournament": tournament,
        "backup": backups.last_backup_safely(tournament.pk),
        "failure": BackupFailure.objects.filter(tournament_id=tournament.pk).first(),
        "space": space if space is not None and space.low else None,
    }
