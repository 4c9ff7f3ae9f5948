"""Recompute every rating from the first filed game (after restoring a backup, or when the
broker was unreachable while reports were filed)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings import services


class Command(BaseCommand):
    help = "Recompute all people's ratings from every filed game, in one transaction."

    def handle(self, *args: Any, **options: Any) -> None:
        summary = services.recompute()
        self.stdout.write(
            f"Rated {summary.replayed} games for {summary.people} people at {summary.recomputed_at:%Y-%m-%d %H:%M:%S} UTC"
        )
