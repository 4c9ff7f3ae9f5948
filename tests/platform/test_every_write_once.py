"""Every write of the API, sent twice with the same `Idempotency-Key`, has one effect and
answers the first answer: a retried "extend" adds its minutes once, a retried "add player"
registers one player, a retried "reopen" is not refused as already reopened.

The writes are read from the OpenAPI schema (every POST, PUT, PATCH and DELETE), and each has an
example in `EXAMPLES`: a new write without one fails `test_every_write_of_the_schema_has_an_example`,
so it gets an example (and the key) before it ships. The effect is every row of the platform's
tables: after the repeat they are exactly as the first send left them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")
#: The apps whose rows are the platform's state (what a write changes).
STATE_APPS = ("foundation", "tournament", "gameplay", "scoring", "clocks", "ratings", "insights", "venue")


def write_operations() -> list[str]:
    """Every write of the OpenAPI schema, as "METHOD /path"."""
    from config.schema import schema

    return sorted(
        f"{method.upper()} {path}"
        for path, operations in schema()["paths"].items()
        for method in operations
        if method in WRITES
    )


def state() -> dict[str, list[dict[str, Any]]]:
    """Every row of the platform's tables, in order (JSON text: moments and decimals as text)."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for label in STATE_APPS:
        for model in apps.get_app_config(label).get_models():
            rows[model._meta.label] = json.loads(json.dumps(list(model.objects.order_by("pk").values()), default=str))
    return rows


class World:
    """What the examples write to, each part built only when an example asks for it."""

    def __init__(self, head_judge: Any) -> None:
        self.head_judge = head_judge

    @cached_property
    def tournament(self) -> Any:
        return make_tournament(format="wbc", head_judge=self.head_judge)

    @cached_property
    def registering(self) -> Any:
        """The tournament with its online registration open now."""
        from datetime import timedelta

        from django.utils import timezone

        from tournament import registration

        now = timezone.now()
        registration.set_registration(self.tournament, opens=now - timedelta(hours=1), closes=now + timedelta(days=1))
        return self.tournament

    @cached_property
    def table(self) -> Any:
        """A published heat's table of six, its game begun."""
        from gameplay import services

        round_ = make_round(self.tournament)
        table = seat_table(round_, make_players(self.tournament, 6, prefix="Seated"))
        services.game_for(table)
        return table

    @cached_property
    def running_table(self) -> Any:
        from clocks import services

        services.start(self.table, user=self.head_judge)
        return self.table

    @cached_property
    def filed_table(self) -> Any:
        from scoring import services
        from tests.scoring.db.conftest import report_for

        services.file_report(self.table, report_for(self.table, {0: "solo_stronghold"}), user=self.head_judge)
        return self.table

    @cached_property
    def planned(self) -> Any:
        """A planned heat with eleven players checked in (and a twelfth registered, not seated)."""
        from tournament import services

        round_ = make_round(self.tournament, number=2, state="planned")
        players = make_players(self.tournament, 12, prefix="Desk")
        for player in players[:11]:
            services.check_in(round_, player)
        self.late = players[11]
        return round_

    @cached_property
    def seated(self) -> Any:
        """The planned heat seated (tables of six and five), not yet published."""
        from tournament import services

        services.seat_round(self.planned, user=self.head_judge, seed=7)
        self.planned.refresh_from_db()
        return self.planned

    def two_at_one_table(self) -> tuple[int, int]:
        table = self.seated.tables.order_by("number").first()
        first, second = table.seats.order_by("seat").values_list("player_id", flat=True)[:2]
        return first, second

    def two_at_two_tables(self) -> tuple[int, int]:
        first, second = self.seated.tables.order_by("number")[:2]
        return first.seats.order_by("seat")[0].player_id, second.seats.order_by("seat")[0].player_id

    @cached_property
    def no_show(self) -> dict[str, Any]:
        """A player of the seated heat marked a no-show (taken off table 1)."""
        from tournament import services

        player = self.seated.tables.order_by("number").first().seats.order_by("seat").first().player
        services.mark_no_show(self.seated, player, reason="not here", user=self.head_judge)
        return {"id": self.seated.pk, "player": player.pk}

    @cached_property
    def final(self) -> Any:
        """The final, seated from six finalists, none of whom has picked yet."""
        from tournament import services

        final = make_round(self.tournament, number=5, kind="final", state="planned")
        self.finalists = [p.pk for p in make_players(self.tournament, 6, prefix="Finalist")]
        services.seat_final_round(final, user=self.head_judge, finalists=self.finalists, alternates=[], seed=1)
        return final

    @cached_property
    def player(self) -> Any:
        return make_players(self.tournament, 1, prefix="Linked")[0]

    @cached_property
    def invitee(self) -> Any:
        from django.contrib.auth import get_user_model

        return get_user_model().objects.create_user("invitee")

    @cached_property
    def pending(self) -> Any:
        """An invitation of the sender's own account, waiting for its answer."""
        from tournament.judge_models import JudgeInvitation

        return JudgeInvitation.objects.create(tournament=make_tournament(name="Invited Open"), user=self.head_judge)

    @cached_property
    def withdrawable(self) -> str:
        from tournament import services

        services.invite_table_judge(self.tournament, self.invitee.username, by=self.head_judge)
        return str(self.invitee.username)


@dataclass(frozen=True)
class Example:
    """An example send of a write: its path's parameters and its JSON body (from the world)."""

    send: Callable[[World], tuple[dict[str, Any], Any]]
    #: False for a POST that writes nothing (an evaluation): it has no effect to repeat.
    writes: bool = True
    #: Fields answered only the first time (a one-time sign-in code, never stored with the key).
    shown_once: tuple[str, ...] = ()


def _evaluate(world: World) -> tuple[dict[str, Any], Any]:
    from web.gameplay.engine_api import EXAMPLE_SNAPSHOT

    return {}, EXAMPLE_SNAPSHOT


def _report(world: World) -> tuple[dict[str, Any], Any]:
    from tests.scoring.db.conftest import report_for

    return {"id": world.table.pk}, report_for(world.table, {0: "solo_stronghold"})


EXAMPLES: dict[str, Example] = {
    "POST /api/engine/evaluate/": Example(_evaluate, writes=False),
    "POST /api/series/": Example(lambda w: ({}, {"name": "Desert Power Cup", "format": "wbc"})),
    "POST /api/tournaments/": Example(lambda w: ({}, {"name": "Arrakis Open", "format": "wbc"})),
    "PATCH /api/tournaments/{id}/": Example(
        lambda w: ({"id": w.tournament.pk}, {"name": "Arrakis Open, renamed", "time_zone": "Europe/Paris"})
    ),
    "PATCH /api/tournaments/{id}/format/": Example(
        lambda w: ({"id": w.tournament.pk}, {"format_changes": {"rounds.heat.hours": 4}})
    ),
    "POST /api/tournaments/{id}/players/": Example(
        lambda w: ({"id": w.tournament.pk}, {"name": "Alia Atreides", "email": "alia@example.org", "club": "Sietch"})
    ),
    "POST /api/tournaments/{id}/players/import/": Example(
        lambda w: ({"id": w.tournament.pk}, {"csv": "name,email,club\nDuncan Idaho,duncan@example.org,Ginaz\n"})
    ),
    "POST /api/tournaments/{id}/invitations/": Example(
        lambda w: ({"id": w.tournament.pk}, {"username": w.invitee.username})
    ),
    "DELETE /api/tournaments/{id}/invitations/{username}/": Example(
        lambda w: ({"id": w.tournament.pk, "username": w.withdrawable}, None)
    ),
    "POST /api/tournaments/{id}/table-judge-accounts/": Example(
        lambda w: ({"id": w.tournament.pk}, {"username": "newjudge"}), shown_once=("code", "code_hours")
    ),
    "POST /api/account/invitations/{id}/accept/": Example(lambda w: ({"id": w.pending.pk}, None)),
    "POST /api/account/invitations/{id}/decline/": Example(lambda w: ({"id": w.pending.pk}, None)),
    "POST /api/tournaments/{id}/rounds/": Example(
        lambda w: ({"id": w.tournament.pk}, {"kind": "heat", "starts_at": "2026-07-22T13:00:00+02:00"})
    ),
    "PATCH /api/rounds/{id}/": Example(lambda w: ({"id": w.planned.pk}, {"starts_at": "2026-07-23T09:00:00+02:00"})),
    "DELETE /api/rounds/{id}/": Example(lambda w: ({"id": w.planned.pk}, None)),
    "POST /api/players/{id}/person/": Example(lambda w: ({"id": w.player.pk}, {"person": None, "reason": "not them"})),
    "POST /api/rounds/{id}/checkins/": Example(lambda w: ({"id": w.planned.pk}, {"player": w.late.pk})),
    "POST /api/rounds/{id}/seating/": Example(lambda w: ({"id": w.planned.pk}, {"seed": 3})),
    "POST /api/rounds/{id}/seating/swap/": Example(
        lambda w: ({"id": w.seated.pk}, dict(zip(("first", "second"), w.two_at_two_tables(), strict=True)))
    ),
    "POST /api/rounds/{id}/seating/latecomer/": Example(
        lambda w: ({"id": w.seated.pk}, {"player": w.late.pk, "reason": "stuck in traffic"})
    ),
    "POST /api/rounds/{id}/no-shows/": Example(
        lambda w: ({"id": w.seated.pk}, {"player": w.two_at_one_table()[0], "reason": "not at the table"})
    ),
    "DELETE /api/rounds/{id}/no-shows/{player}/": Example(lambda w: (w.no_show, None)),
    "POST /api/rounds/{id}/seating/factions/": Example(
        lambda w: ({"id": w.seated.pk}, {
            "action": "trade", "player": w.two_at_one_table()[0], "other": w.two_at_one_table()[1],
            "consenting": list(w.two_at_one_table()),
        })
    ),
    "POST /api/rounds/{id}/seating/publish/": Example(lambda w: ({"id": w.seated.pk}, None)),
    "POST /api/rounds/{id}/final/picks/": Example(
        lambda w: ({"id": w.final.pk}, {"player": w.finalists[0], "faction": "fremen"})
    ),
    "POST /api/rounds/{id}/clocks/{action}/": Example(
        lambda w: ({"id": w.table.round_id, "action": "start"}, {"reason": "doors open"})
    ),
    "POST /api/tables/{id}/clock/{action}/": Example(
        lambda w: ({"id": w.running_table.pk, "action": "extend"}, {"minutes": 15, "reason": "a ruling"})
    ),
    "POST /api/tables/{id}/clock/call/": Example(
        lambda w: ({"id": w.running_table.pk}, {"action": "bid", "faction": "guild"})
    ),
    "POST /api/tables/{id}/clock/call/stop/": Example(
        lambda w: ({"id": w.running_table.pk}, {"timer": _called(w)})
    ),
    "POST /api/tables/{id}/game/events/": Example(
        lambda w: ({"id": w.table.pk}, {"event": {"type": "storm_placed", "sector": 5}, "expected_seq": 1})
    ),
    "POST /api/tables/{id}/game/seen/": Example(lambda w: ({"id": w.table.pk}, {"seen": 1, "refilled": 2})),
    "POST /api/tables/{id}/report/": Example(_report),
    "POST /api/tables/{id}/report/reopen/": Example(lambda w: ({"id": w.filed_table.pk}, {"reason": "wrong winner"})),
    "POST /api/players/{id}/private-link/": Example(lambda w: ({"id": w.player.pk}, None)),
    "DELETE /api/players/{id}/private-link/": Example(lambda w: ({"id": _linked(w).pk}, None)),
    "POST /api/tournaments/{id}/registrations/": Example(
        lambda w: ({"id": w.registering.pk}, {"name": "Irulan Corrino", "email": "irulan@example.org", "club": "Kaitain"})
    ),
    "POST /api/registrations/{token}/confirm/": Example(lambda w: ({"token": _registered(w)}, None)),
    "POST /api/me/{token}/report/": Example(lambda w: _self_reporting()),
    "POST /api/me/{token}/preferences/": Example(
        lambda w: ({"token": _preferring(w)}, {"factions": ["fremen", "atreides"]})
    ),
    "POST /api/me/{token}/confirmations/": Example(
        lambda w: ({"token": _token_at_filed_table(w)}, {"table": w.filed_table.pk, "agree": False, "reason": "I won"})
    ),
}


def _self_reporting() -> tuple[dict[str, Any], Any]:
    """A player of a table without a judge, where the format lets players report, and its report."""
    from tests.scoring.db.conftest import report_for
    from tournament import private_links, services

    tournament = make_tournament(format="wbc", name="Self Report Open")
    services.change_format(tournament, {"players.self_report": True})
    table = seat_table(make_round(tournament), make_players(tournament, 6, prefix="Reporting"))
    token = private_links.link_for(table.seats.get(seat=1).player).token
    return {"token": token}, {"table": table.pk, "report": report_for(table, {0: "solo_stronghold"})}


def _preferring(world: World) -> str:
    """The private link of a player whose tournament's format asks for faction preferences."""
    from tournament import private_links, services

    tournament = make_tournament(format="wbc", name="Preferences Open")
    services.change_format(tournament, {"players.faction_preferences": True})
    return private_links.link_for(make_players(tournament, 1, prefix="Prefers")[0]).token


def _registered(world: World) -> str:
    from tournament import registration

    return registration.register(world.registering, name="Chani Kynes", email="chani@example.org")[1]


def _linked(world: World) -> Any:
    from tournament import private_links

    private_links.link_for(world.player)
    return world.player


def _token_at_filed_table(world: World) -> str:
    from tournament import private_links

    return private_links.link_for(world.filed_table.seats.order_by("seat").first().player).token


def _called(world: World) -> int:
    from clocks import services

    return int(services.call_clock(world.running_table, action="bid", faction="guild", user=world.head_judge).pk)


def test_every_write_of_the_schema_has_an_example() -> None:
    """A write added to the API without an example here fails: each one is sent twice below."""
    operations = write_operations()
    assert set(operations) == set(EXAMPLES), (
        f"writes without an example: {sorted(set(operations) - set(EXAMPLES))}; "
        f"examples of no write: {sorted(set(EXAMPLES) - set(operations))}"
    )


def _send(client: APIClient, method: str, url: str, body: Any, key: str) -> Any:
    return getattr(client, method.lower())(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.parametrize("operation", sorted(EXAMPLES))
def test_a_write_sent_twice_with_one_key_has_one_effect(operation: str, head_judge: Any) -> None:
    method, path = operation.split(" ", 1)
    example = EXAMPLES[operation]
    world = World(head_judge)
    params, body = example.send(world)
    url = path.format(**params)
    client = APIClient()
    client.force_authenticate(head_judge)
    before = state()
    first = _send(client, method, url, body, "retry-1")
    assert first.status_code < 300, (operation, first.status_code, first.content[:500])
    once = state()
    again = _send(client, method, url, body, "retry-1")
    assert again.status_code == first.status_code, (operation, again.status_code, again.content[:500])
    first_body = {k: v for k, v in first.json().items() if k not in example.shown_once} if first.content else None
    assert (again.json() if again.content else None) == first_body, operation
    assert state() == once, f"{operation}: the repeat changed the state"
    if example.writes:
        assert once != before, f"{operation}: the example writes nothing"
        assert again["Idempotent-Replayed"] == "true", operation
