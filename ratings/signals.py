"""What schedules a recompute: a report filed, reopened, changed or deleted, and a head
judge's link or unlink of a player. Scoring and tournament stay unaware of ratings: the
receivers listen to their models' own save and delete signals.

The task is sent by its registered name after the change commits, so the worker reads what
was written and this module imports no model (the app config connects it before models
load). A broker that cannot be reached is logged and the request still succeeds: the
periodic catch-up (`ratings.catch_up`) recomputes what was missed.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

#: The registered name of `ratings.tasks.recompute_ratings`.
RECOMPUTE = "ratings.recompute"
#: PersonLink actions a head judge takes (values of PersonLink.Action); automatic links come
#: with a new registration, which has no game to recompute yet.
HAND_LINKS = frozenset({"link", "unlink"})


def schedule(**kwargs: Any) -> None:
    if not settings.RATINGS_RECOMPUTE_ON_CHANGE:
        return

    def send() -> None:
        try:
            current_app.send_task(RECOMPUTE, kwargs=kwargs)
        except OperationalError:
            log.warning("could not schedule a ratings recompute (%s); the broker is unreachable", kwargs)

    transaction.on_commit(send)


def report_saved(sender: Any, instance: Any, **_: Any) -> None:
    schedule(report_id=instance.pk)


def report_deleted(sender: Any, instance: Any, **_: Any) -> None:
    schedule()


def link_saved(sender: Any, instance: Any, created: bool, **_: Any) -> None:
    if created and instance.action in HAND_LINKS:
        schedule(player_id=instance.player_id)


def connect() -> None:
    """Connect the receivers; senders are named lazily, so this runs before models load."""
    post_save.connect(report_saved, sender="scoring.GameReport", dispatch_uid="ratings.report_saved")
    post_delete.connect(report_deleted, sender="scoring.GameReport", dispatch_uid="ratings.report_deleted")
    post_save.connect(link_saved, sender="tournament.PersonLink", dispatch_uid="ratings.link_saved")
