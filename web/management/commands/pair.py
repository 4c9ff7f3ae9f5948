"""`bin/venue pair CODE` on a spare laptop: keep the serving laptop's event key (the code `bin/venue`
prints when it starts serving), so that the serving laptop's backups restored here keep every
judge's password and roles. `bin/venue pair --show` prints this laptop's own pairing command."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from venue import installation, pairing


class Command(BaseCommand):
    help = _("Pair this spare laptop with the serving laptop (the code its bin/venue printed).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", nargs="?", default="", help=_("the pairing code the serving laptop printed"))
        parser.add_argument("--show", action="store_true", help=_("print this laptop's own pairing command"))

    def handle(self, *args: Any, **options: Any) -> None:
        if options["show"]:
            if installation.development_key():
                self.stdout.write(_("No pairing code: this installation runs with the public development key, "
                                    "so its seals are trusted by nobody (bin/venue gives it a secret key of its own)."))
                return
            self.stdout.write(_("Pair a spare laptop with this one (before the event; keep the code to yourself): "
                                "on the spare, bin/venue pair %(code)s") % {"code": pairing.code_of(installation.export_key())})
            return
        if not options["code"]:
            raise CommandError(_("give the pairing code the serving laptop printed: bin/venue pair CODE"))
        try:
            key = pairing.key_of(options["code"])
        except pairing.CodeRefused:
            raise CommandError(_("that is not the pairing code the serving laptop printed (a letter is wrong or "
                                 "missing): copy it again from the serving laptop's terminal")) from None
        if key in installation.public_seal_keys():
            raise CommandError(_("that code is the public development key's: the serving laptop must run bin/venue "
                                 "(which gives it a secret key of its own), then print its code again"))
        if key == installation.export_key():
            self.stdout.write(_("That code is this laptop's own: nothing to pair."))
            return
        key, new = pairing.pair(settings.VAR_DIR, options["code"])
        said = _("Paired with the serving laptop (key %(fingerprint)s): its backups restored here keep every "
                 "judge's password and roles.") if new else _("Already paired with that laptop (key %(fingerprint)s).")
        self.stdout.write(said % {"fingerprint": pairing.fingerprint(key)})
