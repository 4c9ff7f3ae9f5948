"""A filed report is backed up at once: scoring causes the effect (`foundation.effects`), this
app sends the backup task by its registered name once the filing has committed (scoring stays
unaware of backups). An unreachable broker is logged; the five-minute backup catches up."""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.conf import settings
from kombu.exceptions import OperationalError

from foundation import effects

log = logging.getLogger(__name__)

#: The registered name of `venue.tasks.back_up`.
BACK_UP = "venue.back_up"


def report_filed(*, tournament_id: int, **_: Any) -> None:
    if not settings.VENUE_BACKUP_ON_FILING:
        return
    try:
        current_app.send_task(BACK_UP, kwargs={"tournament_id": tournament_id})
    except OperationalError:
        log.warning("could not schedule a backup of tournament %s; the broker is unreachable", tournament_id)


def connect() -> None:
    effects.on(effects.REPORT_FILED, report_filed)
