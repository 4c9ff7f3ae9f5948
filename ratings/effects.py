"""What schedules a recompute: a report filed (again) or reopened, and a head judge's link or
unlink of a player. Scoring and tournament cause these effects (`foundation.effects`) and stay
unaware of ratings; this app acts on them once the write has committed, so the worker reads
what was written.

The task is sent by its registered name (this module imports no model). A broker that cannot
be reached is logged and the request still succeeds: the periodic catch-up
(`ratings.catch_up`) recomputes what was missed.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError

from foundation import effects

log = logging.getLogger(__name__)

#: The registered name of `ratings.tasks.recompute_ratings`.
RECOMPUTE = "ratings.recompute"


def _send(kwargs: dict[str, Any]) -> None:
    if not settings.RATINGS_RECOMPUTE_ON_CHANGE:
        return
    try:
        current_app.send_task(RECOMPUTE, kwargs=kwargs)
    except OperationalError:
        log.warning("could not schedule a ratings recompute (%s); the broker is unreachable", kwargs)


def schedule(**kwargs: Any) -> None:
    """A recompute (of everything, or from `report_id` / `player_id`) once the caller's
    transaction commits."""
    transaction.on_commit(lambda: _send(kwargs))


def report_changed(*, report_id: int, **_: Any) -> None:
    _send({"report_id": report_id})


def player_relinked(*, player_id: int, **_: Any) -> None:
    _send({"player_id": player_id})


def connect() -> None:
    effects.on(effects.REPORT_FILED, report_changed)
    effects.on(effects.REPORT_REOPENED, report_changed)
    effects.on(effects.PLAYER_RELINKED, player_relinked)
