"""`bin/venue follow URL` (`manage.py follow URL`): keep a copy of every running tournament of
the serving laptop at URL a few seconds behind it, signed in as one of its head judges, until
Ctrl-C or `bin/venue take-over` (venue.spare)."""

from __future__ import annotations

import getpass
import os
import signal
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from venue import spare


class Command(BaseCommand):
    help = "Follow the serving laptop's running tournaments, a few seconds behind, to take over if it fails."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("url", nargs="?", help="the serving laptop, e.g. http://dune-event.local:8000 "
                            "(the last one followed when left out)")
        parser.add_argument("--user", help="a head judge's account on the serving laptop (asked when left out; "
                            "the password is asked, or read from DUNE_FOLLOW_PASSWORD)")
        parser.add_argument("--interval", type=float, default=spare.INTERVAL, help="seconds between two pulls")
        parser.add_argument("--once", action="store_true", help="pull once and stop")

    def handle(self, *args: Any, **options: Any) -> None:
        state = spare.load_state()
        url = options["url"] or state.get("url")
        if not url:
            raise CommandError("give the serving laptop's address: bin/venue follow http://dune-event.local:8000")
        if state.get("url") not in (None, url):
            state = {"url": url}  # another event: start again (on an empty installation)
        username = options["user"] or os.environ.get("DUNE_FOLLOW_USER") or state.get("user") \
            or input("Head judge's account on the serving laptop: ")
        password = os.environ.get("DUNE_FOLLOW_PASSWORD") or getpass.getpass(f"Password of {username}: ")
        state.update({"url": url, "user": username})
        try:
            client = spare.Client(url)
            client.sign_in(username, password)
        except (ValueError, spare.SignInRefused, spare.ServerUnreachable) as exc:
            raise CommandError(str(exc)) from None
        follower = spare.Follower(client, state)
        if options["once"]:
            try:
                self.stdout.write(follower.pull().words())
            except (spare.SignInRefused, spare.ServerUnreachable) as exc:
                raise CommandError(str(exc)) from None
            return
        stopping: list[int] = []
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda number, _frame: stopping.append(number))
        spare.register_follower(state)
        self.stdout.write(f"Following {url} as {username} every {options['interval']:g} s "
                          "(Ctrl-C stops; if that laptop fails: bin/venue take-over)")
        if follower.key is None:
            self.stdout.write(_(
                "This laptop is not paired with the serving laptop: the judges' passwords do not come along, and "
                "after a take-over each judge needs a one-time sign-in code. To bring them: stop, run bin/venue pair "
                "CODE (the code the serving laptop's bin/venue printed), then follow again."))
        self.stdout.flush()
        spare.follow_forever(follower, interval=options["interval"], stop=lambda: bool(stopping),
                             say=lambda text: (self.stdout.write(text), self.stdout.flush()),
                             sign_in=lambda: client.sign_in(username, password))
        state.pop("pid", None)
        spare.save_state(state)
        self.stdout.write("Stopped following.")
