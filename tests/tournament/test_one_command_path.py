"""One command, two doors: the tournament's pages (forms) and its API (JSON) register, check in,
add rounds, seat, publish, swap, trade, pick and edit through `tournament.commands`, read their
fields the same way and share their idempotency keys (a retried form or script has one effect).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.http import QueryDict
from django.test import Client
from rest_framework.test import APIClient

from foundation.models import IdempotencyRecord
from tests.factories import make_players, make_round, make_tournament
from tournament import commands, people
from tournament import services as desk_services
from tournament.models import CheckIn, Player, Seat, SeatingAudit, Series, Tournament
from web.tournament import views

pytestmark = pytest.mark.django_db


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The commands run, by name: every tournament command answers through `commands._done`."""
    names: list[str] = []
    real = commands._done

    def spy(name: str, *args: Any, **kwargs: Any) -> Any:
        names.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(commands, "_done", spy)
    return names


@pytest.fixture
def page(head_judge: Any) -> Client:
    client = Client()
    client.force_login(head_judge)
    return client


@pytest.fixture
def api(head_judge: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(head_judge)
    return client


@pytest.fixture
def wbc(head_judge: Any) -> Any:
    return make_tournament(format="wbc", head_judge=head_judge)


def _planned(tournament: Any, count: int, *, number: int = 1, prefix: str = "Desk") -> tuple[Any, list[Any]]:
    round_ = make_round(tournament, number=number, state="planned")
    players = make_players(tournament, count, prefix=prefix)
    for player in players:
        desk_services.check_in(round_, player)
    return round_, players


def _seated(tournament: Any, head_judge: Any, count: int = 11, **kwargs: Any) -> tuple[Any, list[Any]]:
    round_, players = _planned(tournament, count, **kwargs)
    desk_services.seat_round(round_, user=head_judge, seed=5)
    round_.refresh_from_db()
    return round_, players


def _two_tables(round_: Any) -> tuple[int, int]:
    first, second = round_.tables.order_by("number")[:2]
    return first.seats.order_by("seat")[0].player_id, second.seats.order_by("seat")[0].player_id


def _one_table(round_: Any) -> tuple[int, int]:
    table = round_.tables.order_by("number")[0]
    first, second = table.seats.order_by("seat").values_list("player_id", flat=True)[:2]
    return first, second


# Each pair: what to prepare, the page's request and the API's, and the command both must run.
Door = Callable[[Any, Any, Any], tuple[str, dict[str, Any]]]

PAIRS: list[Any] = [
    pytest.param(
        "create_tournament",
        lambda t, hj, x: ("/tournaments/new/", {"name": "Page Open", "format": "wbc"}),
        lambda t, hj, x: ("/api/tournaments/", {"name": "Api Open", "format": "wbc"}),
        id="create-tournament",
    ),
    pytest.param(
        "add_player",
        lambda t, hj, x: (f"/tournaments/{t.pk}/players/", {"action": "add", "name": "Alia", "email": "a@example.org"}),
        lambda t, hj, x: (f"/api/tournaments/{t.pk}/players/", {"name": "Bijaz", "email": "b@example.org"}),
        id="add-player",
    ),
    pytest.param(
        "check_in",
        lambda t, hj, x: (f"/tournaments/{t.pk}/players/", {"action": "check_in", "player": x["late"][0], "round": x["round"]}),
        lambda t, hj, x: (f"/api/rounds/{x['round']}/checkins/", {"player": x["late"][1]}),
        id="check-in",
    ),
    pytest.param(
        "check_out",
        lambda t, hj, x: (f"/tournaments/{t.pk}/players/", {"action": "check_out", "player": x["desk"][0], "round": x["round"]}),
        lambda t, hj, x: (f"/api/rounds/{x['round']}/checkins/", {"player": x["desk"][1], "checked_in": False}),
        id="check-out",
    ),
    pytest.param(
        "create_round",
        lambda t, hj, x: (f"/tournaments/{t.pk}/", {"action": "add_round", "kind": "heat"}),
        lambda t, hj, x: (f"/api/tournaments/{t.pk}/rounds/", {"kind": "heat"}),
        id="create-round",
    ),
    pytest.param(
        "import_players",
        lambda t, hj, x: (f"/tournaments/{t.pk}/players/import/", {"action": "import", "csv": "name,email\nIrulan,i@example.org\n"}),
        lambda t, hj, x: (f"/api/tournaments/{t.pk}/players/import/", {"csv": "name,email\nJessica,j@example.org\n"}),
        id="import-players",
    ),
    pytest.param(
        "seat_round",
        lambda t, hj, x: (f"/rounds/{x['seated']}/seat/draw/", {"seed": "3"}),
        lambda t, hj, x: (f"/api/rounds/{x['seated']}/seating/", {"seed": 4}),
        id="seat-round",
    ),
    pytest.param(
        "swap",
        lambda t, hj, x: (f"/rounds/{x['seated']}/seat/swap/", dict(zip(("first", "second"), x["apart"], strict=True))),
        lambda t, hj, x: (f"/api/rounds/{x['seated']}/seating/swap/", dict(zip(("first", "second"), x["apart"], strict=True))),
        id="swap",
    ),
    pytest.param(
        "trade",
        lambda t, hj, x: (f"/rounds/{x['seated']}/seat/trade/",
                          {"player": x["together"][0], "other": x["together"][1], "consent": "on"}),
        lambda t, hj, x: (f"/api/rounds/{x['seated']}/seating/factions/",
                          {"action": "trade", "player": x["together"][0], "other": x["together"][1],
                           "consenting": list(x["together"])}),
        id="trade",
    ),
    pytest.param(
        "seat_latecomer",
        lambda t, hj, x: (f"/rounds/{x['seated']}/seat/latecomer/", {"player": x["late"][0], "reason": "bus"}),
        lambda t, hj, x: (f"/api/rounds/{x['seated']}/seating/latecomer/", {"player": x["late"][0], "reason": "bus"}),
        id="latecomer",
    ),
    pytest.param(
        "publish_round",
        lambda t, hj, x: (f"/rounds/{x['seated']}/seat/publish/", {}),
        lambda t, hj, x: (f"/api/rounds/{x['seated']}/seating/publish/", {}),
        id="publish",
    ),
    pytest.param(
        "edit_tournament",
        lambda t, hj, x: (f"/tournaments/{t.pk}/edit/", {"name": "Renamed by the page", "time_zone": "Europe/Paris"}),
        lambda t, hj, x: (f"/api/tournaments/{t.pk}/", {"name": "Renamed by a script"}),
        id="edit-tournament",
    ),
    pytest.param(
        "edit_round",
        lambda t, hj, x: (f"/rounds/{x['round']}/edit/", {"kind": "heat", "starts_at": "2026-07-22T13:00"}),
        lambda t, hj, x: (f"/api/rounds/{x['round']}/", {"starts_at": "2026-07-22T14:00:00+00:00"}),
        id="edit-round",
    ),
    pytest.param(
        "link_person",
        lambda t, hj, x: (f"/players/{x['desk'][0]}/person/", {"action": "link", "person": x["persons"][2], "reason": "same"}),
        lambda t, hj, x: (f"/api/players/{x['desk'][1]}/person/", {"person": x["persons"][3], "reason": "same"}),
        id="link-person",
    ),
    pytest.param(
        "create_series",
        lambda t, hj, x: ("/series/", {"action": "create", "name": "Page Cup", "format": "wbc"}),
        lambda t, hj, x: ("/api/series/", {"name": "Api Cup", "format": "wbc"}),
        id="create-series",
    ),
    pytest.param(
        "change_format",
        lambda t, hj, x: (f"/tournaments/{t.pk}/format/", {"action": "change", "rounds.heat.hours": "4"}),
        lambda t, hj, x: (f"/api/tournaments/{t.pk}/format/", {"format_changes": {"rounds.heat.hours": 5}}),
        id="change-format",
    ),
]

API_METHOD = {"edit_tournament": "patch", "edit_round": "patch", "change_format": "patch"}


SEATING = ("seat_round", "swap", "trade", "publish_round", "seat_latecomer")


def _world(tournament: Any, head_judge: Any, command: str) -> dict[str, Any]:
    """A planned heat with players checked in, two late players, and for the seating actions a
    second heat seated but not published."""
    round_, desk = _planned(tournament, 4)
    late = make_players(tournament, 2, prefix="Late")
    world: dict[str, Any] = {"round": round_.pk, "desk": [p.pk for p in desk], "late": [p.pk for p in late]}
    if command == "link_person":  # people who play elsewhere, to link the desk's players to
        elsewhere = make_players(make_tournament(name="Elsewhere open"), 4, prefix="Elsewhere")
        people.link_players(elsewhere)
        world["persons"] = [Player.objects.get(pk=p.pk).person_id for p in elsewhere]
    if command in SEATING:  # two heats seated alike, not yet published: one per door
        for number, prefix in ((2, "Seated"), (3, "Again")):
            seated, _ = _seated(tournament, head_judge, number=number, prefix=prefix)
            world[number] = {"seated": seated.pk, "apart": _two_tables(seated), "together": _one_table(seated)}
        world.update(world[2])
    return world


@pytest.mark.parametrize(("command", "by_page", "by_api"), PAIRS)
def test_the_page_and_the_api_run_the_same_command(
    command: str, by_page: Door, by_api: Door, seen: list[str], page: Client, api: APIClient, wbc: Any,
    head_judge: Any,
) -> None:
    world = _world(wbc, head_judge, command)
    url, form = by_page(wbc, head_judge, world)
    answer = page.post(url, form)
    assert answer.status_code in (200, 302), (url, answer.status_code, answer.content[:400])
    assert command in seen, (command, seen)
    seen.clear()
    if command in SEATING:
        world.update(world[3])  # the API's change goes to the other heat, as the page's found its own
    url, body = by_api(wbc, head_judge, world)
    answer = getattr(api, API_METHOD.get(command, "post"))(url, body, format="json")
    assert answer.status_code in (200, 201), (url, answer.status_code, answer.content[:400])
    assert seen == [command]


@pytest.mark.parametrize(
    ("action", "command"),
    [("check_in", "check_in"), ("check_out", "check_out"), ("withdrawn", "withdrawn"), ("dropped", "dropped"),
     ("active", "active")],
)
def test_every_row_action_of_the_desk_is_a_command(
    action: str, command: str, seen: list[str], page: Client, wbc: Any
) -> None:
    """The desk's row actions map to commands (no dispatch chain): each posted action runs one."""
    round_, players = _planned(wbc, 2)
    form = {"action": action, "player": players[0].pk, "round": round_.pk, "confirmed": "yes"}
    answer = page.post(f"/tournaments/{wbc.pk}/players/", form)
    assert answer.status_code == 302
    assert seen == [command]
    assert set(views.ROW_ACTIONS) == set(commands.DESK_ACTIONS)


@pytest.mark.parametrize(
    ("form", "command"),
    [
        ({"action": "check_in_all", "confirmed": "yes"}, "check_in_all"),
        ({"action": "self_check_in", "open": "yes"}, "self_check_in"),
        ({"action": "self_check_in", "open": "no"}, "self_check_in"),
    ],
)
def test_the_desks_round_actions_are_commands(form: dict[str, str], command: str, seen: list[str], page: Client,
                                              wbc: Any) -> None:
    round_, _ = _planned(wbc, 2)
    answer = page.post(f"/tournaments/{wbc.pk}/players/", {**form, "round": round_.pk})
    assert answer.status_code == 302 and seen == [command]


def test_check_in_all_links_every_player_to_a_person_as_one_check_in_does(page: Client, wbc: Any) -> None:
    """"Check in all" goes through the service that links each player to the person of their
    email (the people of a series), as the desk's one-by-one check-in does."""
    round_ = make_round(wbc, state="planned")
    players = make_players(wbc, 3, prefix="Unlinked")
    Player.objects.filter(pk__in=[p.pk for p in players]).update(person=None)
    page.post(f"/tournaments/{wbc.pk}/players/", {"action": "check_in_all", "round": round_.pk, "confirmed": "yes"})
    assert CheckIn.objects.filter(round=round_).count() == 3
    assert not Player.objects.filter(tournament=wbc, person=None).exists()


def test_a_retried_registration_registers_one_player_through_either_door(page: Client, api: APIClient,
                                                                          wbc: Any) -> None:
    url = f"/tournaments/{wbc.pk}/players/"
    form = {"action": "add", "name": "Alia", "email": "alia@example.org", "idempotency_key": "tap-1"}
    assert page.post(url, form).status_code == 302
    assert page.post(url, form).status_code == 302  # the second tap: no "already registered"
    assert Player.objects.filter(tournament=wbc).count() == 1
    # A script sending the same registration with the form's key gets the page's answer back.
    again = api.post(f"/api/tournaments/{wbc.pk}/players/", {"name": "Alia", "email": "alia@example.org"},
                     format="json", HTTP_IDEMPOTENCY_KEY="tap-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["name"] == "Alia" and Player.objects.filter(tournament=wbc).count() == 1
    assert IdempotencyRecord.objects.get(key="tap-1").scope == f"tournament:{wbc.pk}:desk"


def test_a_retried_check_in_all_answers_the_first_answer(page: Client, api: APIClient, wbc: Any) -> None:
    round_ = make_round(wbc, state="planned")
    make_players(wbc, 4)
    form = {"action": "check_in_all", "round": round_.pk, "confirmed": "yes", "idempotency_key": "all-1"}
    page.post(f"/tournaments/{wbc.pk}/players/", form)
    late = make_players(wbc, 1, prefix="Late")[0]
    page.post(f"/tournaments/{wbc.pk}/players/", form)
    assert not CheckIn.objects.filter(player=late).exists()  # the retry checked nobody else in
    assert CheckIn.objects.filter(round=round_).count() == 4


def test_a_retried_seating_draws_once(page: Client, api: APIClient, wbc: Any, head_judge: Any) -> None:
    round_, _ = _planned(wbc, 12)
    form = {"seed": "3", "idempotency_key": "draw-1"}
    page.post(f"/rounds/{round_.pk}/seat/draw/", form)
    page.post(f"/rounds/{round_.pk}/seat/draw/", form)
    assert SeatingAudit.objects.filter(round=round_, action=SeatingAudit.Action.SEAT).count() == 1
    again = api.post(f"/api/rounds/{round_.pk}/seating/", {"seed": 3}, format="json", HTTP_IDEMPOTENCY_KEY="draw-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert Seat.objects.filter(round=round_).count() == 12


def test_another_registration_under_a_used_key_is_refused_next_to_the_form(page: Client, wbc: Any) -> None:
    url = f"/tournaments/{wbc.pk}/players/"
    page.post(url, {"action": "add", "name": "Alia", "idempotency_key": "k"})
    answer = page.post(url, {"action": "add", "name": "Bijaz", "idempotency_key": "k"})
    assert "already used for a different request" in answer.content.decode()
    assert list(Player.objects.filter(tournament=wbc).values_list("name", flat=True)) == ["Alia"]


@pytest.mark.parametrize(
    ("form", "json_value", "checked"),
    [("on", True, True), ("true", "true", True), ("yes", "YES", True), ("", False, False), (None, None, False)],
)
def test_a_checked_box_and_json_true_read_the_same(form: Any, json_value: Any, checked: bool) -> None:
    """The desk's "check in now" box and a script's flag are one parse (`foundation.commands.yes`)."""
    page_data = QueryDict(mutable=True)
    page_data["name"] = "Alia"
    if form is not None:
        page_data["check_in"] = form
    by_page = commands.NewPlayer.parse(page_data)
    by_api = commands.NewPlayer.parse({"name": "Alia", "check_in": json_value})
    assert by_page.check_in is by_api.check_in is checked


def test_who_may_is_one_answer(client: Any, make_user: Any, wbc: Any) -> None:
    """A signed-in stranger is refused by the command whichever door they use; nothing is written."""
    stranger = make_user("stranger")
    api = APIClient()
    api.force_authenticate(stranger)
    refused = api.post(f"/api/tournaments/{wbc.pk}/players/", {"name": "Alia"}, format="json")
    assert refused.status_code == 403 and "head judge" in refused.json()["detail"]
    with pytest.raises(commands.Refused) as by_command:
        commands.add_player(wbc, {"name": "Alia"}, actor=stranger, key=None)
    assert by_command.value.status == 403
    assert not Player.objects.filter(tournament=wbc).exists()
    assert not Tournament.objects.exclude(pk=wbc.pk).exists() and not Series.objects.exists()


def test_the_pages_own_writes_are_commands_too(seen: list[str], page: Client, wbc: Any, head_judge: Any,
                                               make_user: Any) -> None:
    """The writes only a page makes (the dashboard's settings and judges, closing and editing,
    a player's registration, the people and series pages) run commands as well."""
    from tournament import desk
    from tournament.services.judges import How, Role, agree

    make_user("judge1")
    agree(wbc, make_user("judge2"), role=Role.TABLE_JUDGE, how=How.ACCOUNT_MADE)
    round_, players = _planned(wbc, 3)
    sends = [
        ("invite_table_judge", f"/tournaments/{wbc.pk}/", {"action": "add_judge", "username": "judge1"}),
        ("withdraw_invitation", f"/tournaments/{wbc.pk}/", {"action": "withdraw_invitation", "username": "judge1"}),
        ("remove_table_judge", f"/tournaments/{wbc.pk}/",
         {"action": "remove_judge", "username": "judge2", "confirmed": "yes"}),
        ("keep_clubs_apart", f"/tournaments/{wbc.pk}/", {"action": "clubs_apart", "keep_clubs_apart": "on"}),
        ("edit_player", f"/tournaments/{wbc.pk}/players/{players[0].pk}/edit/",
         {"name": "Renamed", "email": "", "club": "Sietch", "household": ""}),
        ("list_by_initials", f"/players/{players[1].pk}/person/", {"action": "initials", "listed": "on"}),
        ("delete_round", f"/rounds/{round_.pk}/edit/", {"action": "delete", "confirmed": "yes"}),
    ]
    for command, url, form in sends:
        seen.clear()
        answer = page.post(url, form)
        assert answer.status_code == 302, (command, answer.status_code, answer.content[:300])
        assert seen == [command]
    player = Player.objects.get(pk=players[2].pk)
    desk.set_self_check_in(make_round(wbc, number=1, state="planned"), open=True)
    seen.clear()
    Client().post(f"/check-in/{player.pk}/{desk.check_in_token(player)}/")
    assert seen == ["self_check_in"]


def test_a_second_tap_on_delete_answers_the_first(page: Client, api: APIClient, wbc: Any) -> None:
    """The round is gone after the first tap; the second, with the form's key, gets the first
    answer (the dashboard), not "no such round"; a script's retry with the key too."""
    first, second = make_round(wbc, number=1, state="planned"), make_round(wbc, number=2, state="planned")
    form = {"action": "delete", "confirmed": "yes", "idempotency_key": "del-1"}
    assert page.post(f"/rounds/{first.pk}/edit/", form).status_code == 302
    again = page.post(f"/rounds/{first.pk}/edit/", form)
    assert again.status_code == 302 and again["Location"] == f"/tournaments/{wbc.pk}/"
    assert list(wbc.rounds.values_list("number", flat=True)) == [1]  # the second is heat 1 now, once
    deleted = api.delete(f"/api/rounds/{second.pk}/", HTTP_IDEMPOTENCY_KEY="del-2")
    retried = api.delete(f"/api/rounds/{second.pk}/", HTTP_IDEMPOTENCY_KEY="del-2")
    assert deleted.status_code == retried.status_code == 204
    assert not wbc.rounds.exists()
