"""Load a demo: a WBC tournament with 47 players, heat 1 seated and published, and its judges.

Run by `make run`; safe to run again (the demo tournament is created once; the judges'
passwords are reset and printed each time).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from tournament import services
from tournament.models import CheckIn, Player, Round, Tournament

DEMO_NAME = "WBC Dune demo"
PLAYERS = 47
FIRST = [
    "Alia",
    "Bijaz",
    "Chani",
    "Duncan",
    "Esmar",
    "Feyd",
    "Gurney",
    "Hwi",
    "Irulan",
    "Jamis",
    "Korba",
    "Liet",
    "Mapes",
    "Nefud",
    "Otheym",
    "Piter",
    "Rabban",
    "Stilgar",
    "Thufir",
    "Usul",
    "Wensicia",
    "Yueh",
    "Zia",
    "Leto",
]
LAST = ["Vance", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Alvarez", "Novak", "Osei", "Brennan", "Sato"]
CLUBS = ["Arrakis Gamers", "Caladan Club", "Giedi Prime Society", ""]


class Command(BaseCommand):
    help = "Load the demo tournament (47 players, heat 1 seated and published) and print the judges' logins."

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        logins: list[tuple[str, str]] = []
        with transaction.atomic():
            head, _ = users.objects.get_or_create(username="headjudge", defaults={"is_staff": True})
            head.is_staff = True
            password = secrets.token_urlsafe(9)
            head.set_password(password)
            head.save()
            logins.append(("headjudge", password))
            judges = []
            for n in range(1, 9):
                judge, _ = users.objects.get_or_create(username=f"judge{n}")
                password = secrets.token_urlsafe(9)
                judge.set_password(password)
                judge.save()
                judges.append(judge)
                logins.append((judge.username, password))

            tournament = Tournament.objects.filter(name=DEMO_NAME).first()
            if tournament is None:
                tournament = services.create_tournament(name=DEMO_NAME, format="wbc", user=head)
                self._fill(tournament, head, judges)
                self.stdout.write(
                    f"Created {DEMO_NAME} with {PLAYERS} players; heat 1 is seated and published."
                )
            else:
                self.stdout.write(f"{DEMO_NAME} already exists; passwords reset.")
            tournament.head_judges.add(head)
            tournament.table_judges.add(*judges)
        for username, password in logins:
            self.stdout.write(f"  {username:<10} password: {password}")
        self.stdout.write(f"Dashboard: /tournaments/{tournament.pk}/")

    def _fill(self, tournament: Tournament, head: Any, judges: list[Any]) -> None:
        now = timezone.now().replace(second=0, microsecond=0)
        names = [f"{FIRST[i % len(FIRST)]} {LAST[(i * 7) % len(LAST)]}" for i in range(PLAYERS)]
        players = Player.objects.bulk_create(
            Player(
                tournament=tournament,
                name=name,
                email=f"player{i + 1}@example.org",
                club=CLUBS[i % len(CLUBS)],
            )
            for i, name in enumerate(names)
        )
        heat = services.create_round(tournament, kind=Round.Kind.HEAT, starts_at=now)
        for day in (1, 2):
            services.create_round(tournament, kind=Round.Kind.HEAT, starts_at=now + timedelta(days=day))
        services.create_round(tournament, kind=Round.Kind.FINAL, starts_at=now + timedelta(days=3))
        CheckIn.objects.bulk_create(CheckIn(round=heat, player=p) for p in players)
        services.seat_round(heat, user=head, seed=2018)
        for table, judge in zip(heat.tables.order_by("number"), judges, strict=False):
            table.judge = judge
            table.save(update_fields=["judge"])
        services.publish_round(heat, user=head)
