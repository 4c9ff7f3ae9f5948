"""The worker's backups: every running tournament on a schedule (beat, every five minutes)
and a tournament at once after one of its reports is filed."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournament.models import Tournament
from venue import backups


@shared_task(name="venue.back_up_running")
def back_up_running() -> dict[str, Any]:
    """Back up every tournament with a round running; a tournament without one is left alone."""
    written = [str(backups.write_backup(t).path) for t in backups.running_tournaments()]
    return {"written": written}


@shared_task(name="venue.back_up")
def back_up(tournament_id: int) -> dict[str, Any]:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return {"written": []}
    return {"written": [str(backups.write_backup(tournament).path)]}
