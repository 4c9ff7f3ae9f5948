"""`manage.py check_games`: replays every recorded game's log through the rules engine and
reports each stored position, evaluation or snapshot that differs from it. Prints nothing and
exits 0 when every game agrees with its log; otherwise one line per difference, exit 1."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from gameplay.audit import disagreements


class Command(BaseCommand):
    help = "Replay every game's log and report any stored position or evaluation that differs from it."

    def handle(self, *args: Any, **options: Any) -> None:
        found = False
        for line in disagreements():
            found = True
            self.stdout.write(line)
        if found:
            raise SystemExit(1)
