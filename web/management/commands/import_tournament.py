"""`manage.py import_tournament FILE [--by NAME]`: load an exported tournament into this
installation in one transaction (nothing is written when the file is refused).

A file this installation sealed (its own backup) is its own records: accounts are matched by
name and the judges sign in with the passwords they had. Any other file is untrusted input:
it links no existing account and joins only a series the importing account (`--by`) manages;
that account becomes a head judge of the imported tournament."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from venue import installation, restore


class Command(BaseCommand):
    help = "Import a tournament exported by export_tournament, the export API or a backup."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--by", metavar="NAME", default="",
            help="the head judge's account importing it: made a head judge of the imported tournament",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        by = None
        if options["by"]:
            by = get_user_model().objects.filter(username=options["by"]).first()
            if by is None:
                raise CommandError(f"there is no account {options['by']!r} (--by names the importing head judge)")
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        try:
            imported = restore.import_text(text, by=by)
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
        if imported.dropped_answers:
            self.stdout.write(ngettext(
                "%(count)d answer kept for a phone's key named a record the file does not hold: it was left "
                "out, so the phone's action is recorded when it sends it again.",
                "%(count)d answers kept for phones' keys named records the file does not hold: they were left "
                "out, so the phones' actions are recorded when they send them again.",
                imported.dropped_answers) % {"count": imported.dropped_answers})
        if imported.trust == installation.PAIRED:
            self.stdout.write(_("This laptop was paired with the laptop that sealed the file: its accounts, "
                                "passwords and roles were taken as they were."))
        elif imported.own:
            self.stdout.write(_("This installation sealed the file: its accounts and links were taken as they were."))
        if imported.signed_in_as_before:
            self.stdout.write(_("These judges sign in with the passwords they had: %(names)s") % {
                "names": ", ".join(imported.signed_in_as_before)})
        for line in imported.not_trusted:
            self.stdout.write(_("Not taken from the file (another installation sealed it, or nobody did): %(what)s")
                              % {"what": line})
        if imported.renamed_accounts:
            self.stdout.write(_("Account names taken here, given other names: %(names)s") % {
                "names": ", ".join(f"{old} -> {new}" for old, new in imported.renamed_accounts.items())})
        if imported.new_accounts:
            self.stdout.write(restore.passwords_line(imported))
