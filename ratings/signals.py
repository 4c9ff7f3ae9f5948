"""What schedules a recompute: a report filed, reopened, changed or deleted, and a head
judge's link or unlink of a player. The task is sent after the change commits, so the
worker reads what was written; a broker that cannot be reached is logged and the request
still succeeds (the `recompute_ratings` command, or the next change, catches up)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from kombu.exceptions import OperationalError

from ratings.tasks import recompute_ratings
from scoring.models import GameReport
from tournament.models import PersonLink

log = logging.getLogger(__name__)
HAND_LINKS = {PersonLink.Action.LINK, PersonLink.Action.UNLINK}


def schedule(**kwargs: Any) -> None:
    def send() -> None:
        try:
            recompute_ratings.delay(**kwargs)
        except OperationalError:
            log.warning("could not schedule a ratings recompute (%s); the broker is unreachable", kwargs)

    transaction.on_commit(send)


def report_saved(sender: Any, instance: GameReport, **_: Any) -> None:
    schedule(report_id=instance.pk)


def report_deleted(sender: Any, instance: GameReport, **_: Any) -> None:
    schedule()


def link_saved(sender: Any, instance: PersonLink, created: bool, **_: Any) -> None:
    if created and instance.action in HAND_LINKS:
        schedule(player_id=instance.player_id)


def connect() -> None:
    post_save.connect(report_saved, sender=GameReport, dispatch_uid="ratings.report_saved")
    post_delete.connect(report_deleted, sender=GameReport, dispatch_uid="ratings.report_deleted")
    post_save.connect(link_saved, sender=PersonLink, dispatch_uid="ratings.link_saved")
