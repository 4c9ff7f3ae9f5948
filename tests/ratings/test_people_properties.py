"""Whatever the letter case, the order or the registration path, one address is one person,
who registers once per tournament."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foundation.commands import Refused
from tests.factories import make_round, make_tournament
from tournament import services
from tournament.models import Person, Player

ADDRESSES = ["ada@example.org", "bram@example.org", "cy@example.org", ""]

registration = st.tuples(
    st.integers(0, 2),  # tournament
    st.sampled_from(ADDRESSES),
    st.sampled_from(["lower", "upper", "title"]),
    st.sampled_from(["one", "csv", "check_in"]),
)


def cased(address: str, how: str) -> str:
    return {"lower": address.lower(), "upper": address.upper(), "title": address.title()}[how]


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(registration, min_size=1, max_size=12))
def test_one_person_per_address_whatever_the_path(
    head_judge: Any, rows: list[tuple[int, str, str, str]]
) -> None:
    with transaction.atomic():
        events = [make_tournament(name=f"Event {i}") for i in range(3)]
        used: set[tuple[int, str]] = set()
        for n, (event, address, how, path) in enumerate(rows):
            name, email = f"Player {n}", cased(address, how)
            if address and (event, address) in used:
                if path == "check_in":  # created around the registration: not a path of its own
                    continue
                with pytest.raises(Refused, match="one person registers once|rows are refused"):
                    if path == "one":
                        services.add_player(events[event], name=name, email=email)
                    else:
                        services.import_players(events[event], f"name,email,club\n{name},{email},\n")
                continue
            used.add((event, address))
            if path == "one":
                services.add_player(events[event], name=name, email=email)
            elif path == "csv":
                services.import_players(events[event], f"name,email,club\n{name},{email},\n")
            else:  # registered before people existed, linked when they check in
                player = Player.objects.create(tournament=events[event], name=name, email=email)
                services.check_in(make_round(events[event], number=n + 1), player)
        players = list(Player.objects.filter(tournament__in=events))
        assert all(p.person_id is not None for p in players)
        by_address: dict[str, set[int]] = {}
        for p in players:
            if p.email:
                by_address.setdefault(p.email.casefold(), set()).add(p.person_id)
        assert all(len(persons) == 1 for persons in by_address.values())
        anonymous = [p.person_id for p in players if not p.email]
        assert len(set(anonymous)) == len(anonymous)
        assert Person.objects.filter(players__in=players).distinct().count() == len(by_address) + len(
            anonymous
        )
        transaction.set_rollback(True)
