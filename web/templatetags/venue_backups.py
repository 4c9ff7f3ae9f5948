"""The dashboard's line about backups: when the last one was written, and its download."""

from __future__ import annotations

from typing import Any

from django import template

from venue import backups

register = template.Library()


@register.inclusion_tag("venue/_last_backup.html")
def last_backup(tournament: Any) -> dict[str, Any]:
    return {"tournament": tournament, "backup": backups.last_backup(tournament.pk)}
