"""A filed report is backed up at once: the receiver listens to scoring's own save signal and
sends the backup task by its registered name after the filing commits (scoring stays unaware
of backups). An unreachable broker is logged; the five-minute backup catches up."""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

#: The registered name of `venue.tasks.back_up`.
BACK_UP = "venue.back_up"
FILED = "filed"


def report_saved(sender: Any, instance: Any, **_: Any) -> None:
    if not settings.VENUE_BACKUP_ON_FILING or instance.state != FILED:
        return
    tournament_id = instance.tournament_id

    def send() -> None:
        try:
            current_app.send_task(BACK_UP, kwargs={"tournament_id": tournament_id})
        except OperationalError:
            log.warning("could not schedule a backup of tournament %s; the broker is unreachable", tournament_id)

    transaction.on_commit(send)


def connect() -> None:
    post_save.connect(report_saved, sender="scoring.GameReport", dispatch_uid="venue.report_saved")
