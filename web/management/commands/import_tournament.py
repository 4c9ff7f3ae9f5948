"""`manage.py import_tournament FILE`: load an exported tournament into this installation in
one transaction (nothing is written when the file is refused)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from venue import restore


class Command(BaseCommand):
    help = "Import a tournament exported by export_tournament, the export API or a backup."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        try:
            imported = restore.import_text(text)
        except restore.DocumentRefused as refused:
            raise CommandError(f"{path} was not imported (nothing was written): {refused.message}") from None
        tournament = imported.tournament
        events = imported.counts.get("gameplay.gameevent", 0)
        reports = imported.counts.get("scoring.gamereport", 0)
        self.stdout.write(
            f"Imported {tournament.name} as tournament {tournament.pk}: "
            f"{imported.counts.get('tournament.player', 0)} players, {events} game events, {reports} reports"
            + ("" if imported.same_ids else " (new ids: this installation already used some of the originals)")
        )
        if imported.new_accounts:
            self.stdout.write(
                "Accounts created without a password (set one with `manage.py changepassword NAME`): "
                + ", ".join(imported.new_accounts)
            )
