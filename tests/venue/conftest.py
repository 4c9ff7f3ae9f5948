"""Fixtures of the venue kit's tests: a WBC tournament with heats, a final and reopened
reports, its games recorded event by event (the demo loader's heats)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from tests.factories import seat_table


def _finals_and_corrections(tournament: Any) -> None:
    """Reopen one heat-1 report and refile it, reopen another and leave it open, then seat and
    file the final."""
    from scoring import services as scoring
    from scoring.models import GameReport
    from tournament.models import Round

    head = tournament.head_judges.first()
    reports = list(GameReport.objects.filter(tournament=tournament).order_by("table__number"))
    first, second = reports[0], reports[1]
    data = dict(first.data)
    scoring.reopen_report(first, user=head, reason="the turn count was misread")
    scoring.file_report(first.table, {**data, "turns": data["turns"]}, user=head)
    scoring.reopen_report(second, user=head, reason="a seat's faction is disputed")
    final = tournament.rounds.get(kind=Round.Kind.FINAL)
    Round.objects.filter(pk=final.pk).update(state=Round.State.PUBLISHED, seed=7)
    finalists = list(tournament.players.filter(disqualified=False).order_by("pk")[:6])
    table = seat_table(final, finalists, number=1, judge=head)
    rows = [{"player": s.player_id, "result": "solo_stronghold" if s.seat == 3 else "loss"}
            for s in table.seats.order_by("seat")]
    scoring.file_report(table, {"turns": 9, "ended_by": "victory", "results": rows}, user=head)


def _people_and_clocks(tournament: Any) -> None:
    """People by email (one linked by hand), a series, a paused and extended clock."""
    from django.contrib.auth import get_user_model

    from clocks import services as clocks
    from tournament import people
    from tournament.models import Person, Player, Tournament

    head = tournament.head_judges.first()
    series = people.create_series(name="WBC Dune at the demo", format="wbc")
    Tournament.objects.filter(pk=tournament.pk).update(series=series)
    players = list(tournament.players.order_by("pk"))
    people.link_players(players)
    elsewhere = Person.objects.create(name=players[-1].name, email="known.elsewhere@example.org")
    # A person who plays nowhere yet: only the organiser's superuser account may link to them.
    organiser = get_user_model().objects.create_superuser("organiser", password="organiser-pass-1979")
    people.link_player(Player.objects.get(pk=players[-1].pk), elsewhere.pk, user=organiser,
                       reason="known under another address")
    running = tournament.rounds.get(number=2).tables.filter(clock__state="running").first()
    if running is not None:
        clocks.pause(running, user=head, reason="a player stepped out")
        clocks.resume(running, user=head)
        clocks.extend(running, minutes=10, reason="a long dispute at the table", user=head)


@pytest.fixture
def full_event(transactional_db: Any) -> Any:
    """The demo tournament (heat 1 reported, heat 2 running with its clocks and game logs) with
    a refiled report, a reopened one and a filed final. Built once per test process; each later
    test gets a copy of the database that build left (the build takes seconds, the copy a moment)."""
    from django.core.cache import cache
    from django.db import connection

    from tests.venue import snapshot
    from tournament.models import Tournament

    cache.clear()
    if connection.vendor == "postgresql" and _built:
        # Built once in this process: the same database again, rows, ids and next ids alike.
        snapshot.restore(connection, _built[0])
        return Tournament.objects.get()
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    tournament = Tournament.objects.get()
    _people_and_clocks(tournament)
    _finals_and_corrections(tournament)
    if connection.vendor == "postgresql":
        _built.append(snapshot.take(connection))
    return tournament


#: The full event's database as its first build in this process left it (tests/venue/snapshot.py).
_built: list[Any] = []
