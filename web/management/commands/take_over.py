"""`bin/venue take-over` (then serving): stop the follower, make sure the laptop it followed no
longer answers, and say what this laptop holds (venue.spare)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.models import Tournament
from venue import sign_in_codes, spare


class Command(BaseCommand):
    help = "Make this spare laptop the server of the tournaments it followed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true",
                            help="take over even though the followed laptop still answers")

    def handle(self, *args: Any, **options: Any) -> None:
        state = spare.load_state()
        if not state.get("url"):
            raise CommandError("this laptop has followed no one: bin/venue follow http://dune-event.local:8000 first")
        url = state["url"]
        # Checked before the follower stops: a refused take-over leaves this laptop following.
        if spare.still_serving(url) and not options["force"]:
            raise CommandError(_(
                "%(url)s still answers: stop it first (Ctrl-C on that laptop), then run bin/venue take-over "
                "again (--force takes over anyway; its phones would then write to two servers). This laptop "
                "goes on following it.") % {"url": url})
        if spare.stop_follower(state):
            self.stdout.write(_("Stopped following."))
            state = spare.load_state()
        for name, tables in spare.held_records(int(k) for k in state.get("cursors", {})).items():
            listed = ", ".join(
                _("round %(round)s table %(table)s #%(record)s") % {"round": round_, "table": number, "record": last}
                for round_, number, last in tables
            ) or _("no records yet")
            self.stdout.write(f"{name}: {listed}")
        for tournament in Tournament.objects.filter(pk__in=[int(k) for k in state.get("cursors", {})]).order_by("pk"):
            without = [u.get_username() for u in sign_in_codes.judges_of(tournament) if not u.has_usable_password()]
            if without:
                self.stdout.write(_("%(tournament)s: %(names)s have no password on this laptop: bin/venue "
                                    "sign_in_codes %(id)s gives each a one-time sign-in code.") % {
                    "tournament": tournament.name, "names": ", ".join(without), "id": tournament.pk})
        state["took_over"] = True
        state.pop("pid", None)
        spare.save_state(state)
        self.stdout.write(_("This laptop now serves the event."))
