"""The worker's backups: every running tournament on a schedule (beat, every five minutes)
and a tournament at once after one of its reports is filed.

A tournament whose backup fails does not stop the others: each is tried in turn, the failure
is recorded for the dashboard and `/healthz`, and the failed one is tried again a minute later,
a few times (`VENUE_BACKUP_RETRY_SECONDS`, `VENUE_BACKUP_RETRIES`), then on every five-minute
run until a backup is written."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from kombu.exceptions import OperationalError

from tournament.models import Tournament
from venue import backups

log = logging.getLogger(__name__)


@shared_task(name="venue.back_up_running")
def back_up_running() -> dict[str, Any]:
    """Back up every tournament with a round running (and every one whose last backup failed);
    a tournament without either is left alone."""
    attempts = [backups.back_up(t) for t in backups.to_back_up()]
    failed = [a for a in attempts if not a.ok]
    for attempt in failed:
        _retry_later(attempt.tournament_id, settings.VENUE_BACKUP_RETRIES)
    return {"written": [str(a.backup.path) for a in attempts if a.backup is not None],
            "failed": {str(a.tournament_id): a.reason for a in failed}}


@shared_task(name="venue.check_backups")
def check_backups() -> dict[str, Any]:
    """Every minute: a running tournament whose backup folder no longer takes a file is backed up
    at once (the attempt records the failure and its reason: seen within a minute), and a
    tournament whose last backup failed is tried again at once (the red goes as soon as the
    folder is fixed)."""
    attempts = [backups.back_up(t) for t in backups.due_now()]
    return {"written": [str(a.backup.path) for a in attempts if a.backup is not None],
            "failed": {str(a.tournament_id): a.reason for a in attempts if not a.ok}}


@shared_task(name="venue.back_up")
def back_up(tournament_id: int, retries: int | None = None) -> dict[str, Any]:
    """Back up one tournament; a failure is tried again `retries` times (the setting's number
    by default), a minute apart."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return {"written": []}
    attempt = backups.back_up(tournament)
    if attempt.backup is None:
        left = settings.VENUE_BACKUP_RETRIES if retries is None else retries
        if left > 0:
            _retry_later(tournament_id, left)
        return {"written": [], "failed": {str(tournament_id): attempt.reason}}
    return {"written": [str(attempt.backup.path)]}


def _retry_later(tournament_id: int, left: int) -> None:
    try:
        back_up.apply_async(kwargs={"tournament_id": tournament_id, "retries": left - 1},
                            countdown=settings.VENUE_BACKUP_RETRY_SECONDS)
    except OperationalError:
        log.warning("could not schedule a retry of tournament %s's backup; the five-minute run will", tournament_id)
