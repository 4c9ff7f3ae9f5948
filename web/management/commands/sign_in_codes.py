"""`bin/venue sign_in_codes TOURNAMENT`: a one-time sign-in code for each judge of the tournament
who has no password here (after a restore that could not carry the passwords), printed one per
line for the head judge to hand out: the judge signs in with their name and the code, once.
`--all` gives every judge of the tournament a code; `--user NAME` one account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.models import Tournament
from venue import sign_in_codes


class Command(BaseCommand):
    help = _("Give each judge of a tournament without a password here a one-time sign-in code.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=int, help=_("the tournament's number (the import says it)"))
        parser.add_argument("--all", action="store_true", help=_("every judge, also those with a password"))
        parser.add_argument("--user", default="", help=_("only this account"))

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(_("there is no tournament %(id)s here") % {"id": options["tournament"]})
        users = list(sign_in_codes.judges_of(tournament))
        if options["user"]:
            users = [u for u in users if u.get_username() == options["user"]]
            if not users:
                if not get_user_model().objects.filter(username=options["user"]).exists():
                    raise CommandError(_("there is no account %(name)s") % {"name": options["user"]})
                raise CommandError(_("%(name)s is not a judge of %(tournament)s") % {
                    "name": options["user"], "tournament": tournament.name})
        elif not options["all"]:
            users = [u for u in users if not u.has_usable_password()]
        if not users:
            self.stdout.write(_("Every judge of %(tournament)s has a password here: no code needed "
                                "(--all gives each one a code anyway).") % {"tournament": tournament.name})
            return
        self.stdout.write(_("One-time sign-in codes for %(tournament)s: each judge signs in with their name and "
                            "this code instead of a password, once, within %(hours)s hours.") % {
            "tournament": tournament.name, "hours": int(sign_in_codes.LIFE.total_seconds() // 3600)})
        for name, code in sign_in_codes.give_codes(users).items():
            self.stdout.write(f"  {name}: {code}")
