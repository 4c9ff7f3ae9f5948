"""`bin/venue` before it serves: the database migrated, the static files collected and this
laptop's pairing command printed, in one process (each is otherwise a start of its own, and a
start of the platform costs seconds of a laptop's CPU before it does anything)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext as _


class Command(BaseCommand):
    help = _("Migrate, collect the static files and print the pairing command: what bin/venue does before serving.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--skip-migrate", action="store_true", help=_("the database is migrated already"))

    def handle(self, *args: Any, **options: Any) -> None:
        verbosity = options["verbosity"]
        if not options["skip_migrate"]:
            call_command("migrate", interactive=False, verbosity=verbosity, stdout=self.stdout, stderr=self.stderr)
        call_command("collectstatic", interactive=False, verbosity=0, stdout=self.stdout, stderr=self.stderr)
        # The pairing command is a convenience: a laptop that cannot print it serves all the same.
        try:
            call_command("pair", show=True, stdout=self.stdout, stderr=self.stderr)
        except Exception as failed:  # noqa: BLE001 - whatever it is, serving goes on
            message = _("The pairing command could not be printed (%(reason)s); the platform serves all the same.")
            print(message % {"reason": failed}, file=sys.stderr, flush=True)
