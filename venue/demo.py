"""The demo tournament's own writes (`manage.py load_demo`): its accounts, its roster and the
clocks of games it records in a moment. Everything else the demo does goes through the same
services as a head judge's pages (create, seat, publish, record, file, finish)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from clocks.models import TableClock
from tournament.demo_roster import roster
from tournament.models import Player, Table, Tournament

__all__ = ["demo_accounts", "register_roster", "backdate_clock"]


def _account(username: str, *, staff: bool = False, password: str | None = None) -> tuple[Any, str]:
    user, _ = get_user_model().objects.get_or_create(username=username, defaults={"is_staff": staff})
    password = password or secrets.token_urlsafe(9)
    user.set_password(password)
    if staff:
        user.is_staff = True
    user.save()
    return user, password


def demo_accounts(
    judges: int, kept: Mapping[str, str] | None = None
) -> tuple[Any, list[Any], list[tuple[str, str]]]:
    """The head judge `headjudge` and table judges `judge1`..., each with the password `kept`
    gives them (the logins written down last time keep working) or a new one:
    (head, judges, [(username, password)])."""
    kept = kept or {}
    with transaction.atomic():
        head, password = _account("headjudge", staff=True, password=kept.get("headjudge"))
        logins = [("headjudge", password)]
        table_judges = []
        for n in range(1, judges + 1):
            judge, password = _account(f"judge{n}", password=kept.get(f"judge{n}"))
            table_judges.append(judge)
            logins.append((judge.username, password))
    return head, table_judges, logins


def register_roster(tournament: Tournament, players: int) -> None:
    """The demo's made-up players (`tournament.demo_roster`), registered at once."""
    Player.objects.bulk_create(
        Player(tournament=tournament, name=name, email=email, club=club) for name, email, club in roster(players)
    )


def backdate_clock(table: Table, *, started: datetime, finished: datetime) -> None:
    """The table's clock as if it ran from `started` to `finished` (a demo game is recorded in a
    moment, but its event report should read like an event's hours)."""
    TableClock.objects.filter(table=table).update(started_at=started, finished_at=finished)
