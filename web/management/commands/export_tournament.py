"""`manage.py export_tournament ID --output FILE`: the tournament as one sealed JSON document,
the same one `GET /api/tournaments/{id}/export/` answers, written atomically."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from venue import export
from venue.files import write_atomically


class Command(BaseCommand):
    help = "Export a tournament (players, rounds, seatings, game logs, reports, clocks) as one JSON document."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--output", "-o", required=True, help="the file to write (replaced atomically)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament_id"]).first()
        if tournament is None:
            raise CommandError(f"there is no tournament {options['tournament_id']}")
        path = write_atomically(Path(options["output"]), export.export_text(tournament))
        self.stdout.write(f"Exported {tournament.name} to {path}")
