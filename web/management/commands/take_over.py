"""`bin/venue take-over` (then serving): stop the follower, make sure the laptop it followed no
longer answers, and say what this laptop holds (venue.spare)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from venue import spare


class Command(BaseCommand):
    help = "Make this spare laptop the server of the tournaments it followed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true",
                            help="take over even though the followed laptop still answers")

    def handle(self, *args: Any, **options: Any) -> None:
        state = spare.load_state()
        if not state.get("url"):
            raise CommandError("this laptop has followed no one: bin/venue follow http://dune-event.local:8000 first")
        if spare.stop_follower(state):
            self.stdout.write("Stopped following.")
            state = spare.load_state()
        url = state["url"]
        if spare.still_serving(url) and not options["force"]:
            raise CommandError(f"{url} still answers: stop it first (Ctrl-C on that laptop), then run "
                               "bin/venue take-over again (--force takes over anyway; its phones would then "
                               "write to two servers)")
        for name, tables in spare.held_records(int(k) for k in state.get("cursors", {})).items():
            listed = ", ".join(f"table {number} #{last}" for number, last in tables) or "no records yet"
            self.stdout.write(f"{name}: {listed}")
        state["took_over"] = True
        state.pop("pid", None)
        spare.save_state(state)
        self.stdout.write("This laptop now serves the event.")
