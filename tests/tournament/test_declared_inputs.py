"""A command's input is declared once (`foundation.commands.Field`): the command reads it, the
API's OpenAPI schema shows it, and the API refuses what it does not declare. So a limit such as
a tournament's longest name is the same whichever door a name comes through."""

from __future__ import annotations

from typing import Any

import pytest

from config.schema import schema
from dune.text_rules import TITLE_LIMIT
from foundation.commands import Refused
from tests.factories import make_players
from tournament import commands
from tournament.models import NoShow, SeatingAudit, Series, Tournament

pytestmark = pytest.mark.django_db


def _body_schema(path: str) -> dict[str, Any]:
    document = schema()
    found = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return document["components"]["schemas"][found["$ref"].rsplit("/", 1)[-1]]


def test_the_schema_shows_the_commands_own_limits() -> None:
    for path, declared in (("/api/tournaments/", commands.NewTournament.FIELDS),
                           ("/api/series/", commands.NewSeries.FIELDS)):
        body = _body_schema(path)
        assert set(body["properties"]) == set(declared)
        assert body["properties"]["name"]["maxLength"] == declared["name"].max_length == TITLE_LIMIT
        assert set(body["required"]) == {name for name, field in declared.items() if field.required}


def test_a_name_one_over_the_limit_is_refused_by_both_doors(judge_client: Any, head_judge: Any) -> None:
    longest, too_long = "N" * TITLE_LIMIT, "N" * (TITLE_LIMIT + 1)
    response = judge_client.post("/api/tournaments/", {"name": too_long, "format": "wbc"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "name"
    with pytest.raises(Refused) as refused:
        commands.create_tournament({"name": too_long, "format": "wbc"}, actor=head_judge, key=None)
    assert refused.value.field == "name" and refused.value.status == 400
    assert Tournament.objects.count() == 0
    created = judge_client.post("/api/tournaments/", {"name": longest, "format": "wbc"}, format="json")
    assert created.status_code == 201 and created.json()["name"] == longest


def test_an_unknown_field_is_refused_naming_it(judge_client: Any, head_judge: Any) -> None:
    response = judge_client.post("/api/tournaments/", {"name": "Open", "format": "wbc", "nmae": "x"}, format="json")
    assert response.status_code == 400 and "nmae" in str(response.json())
    response = judge_client.post("/api/series/", {"name": "Cup", "format": "wbc", "owner": 1}, format="json")
    assert response.status_code == 400 and "owner" in str(response.json())
    assert Tournament.objects.count() == 0 and Series.objects.count() == 0


# --- players: registered at the desk or by the API, edited at the desk ------------------------

LONG_NAME = "N" * (commands.PLAYER_FIELDS["name"].max_length + 1)


@pytest.fixture
def desk(client: Any, head_judge: Any) -> Any:
    client.force_login(head_judge)
    return client


def test_a_players_body_is_its_declaration(tournament: Any) -> None:
    body = _body_schema("/api/tournaments/{id}/players/")
    assert set(body["properties"]) == set(commands.NewPlayer.FIELDS) == {"name", "email", "club", "household"}
    for name, field in commands.PLAYER_FIELDS.items():
        assert body["properties"][name]["maxLength"] == field.max_length


@pytest.mark.parametrize(("sent", "field"), [
    ({"name": LONG_NAME}, "name"),
    ({"name": "Alia", "club": "C" * 121}, "club"),
    ({"name": 5}, "name"),
    ({"name": "Alia", "email": ["a@example.org"]}, "email"),
    ({"name": "Alia", "nick": "A"}, "nick"),
])
def test_the_api_refuses_a_bad_player_naming_the_field(
    judge_client: Any, tournament: Any, sent: dict[str, Any], field: str
) -> None:
    response = judge_client.post(f"/api/tournaments/{tournament.pk}/players/", sent, format="json")
    assert response.status_code == 400 and response.json()["field"] == field, response.json()
    assert tournament.players.count() == 0


@pytest.mark.parametrize(("sent", "field", "words"), [
    ({"name": LONG_NAME}, "name", "at most 120 characters"),
    ({"name": "Alia", "household": "H" * 121}, "household", "at most 120 characters"),
    ({"name": "Alia", "nick": "A"}, "general", "nick"),
])
def test_the_desk_refuses_a_bad_player_next_to_the_field(
    desk: Any, tournament: Any, heat: Any, sent: dict[str, Any], field: str, words: str
) -> None:
    response = desk.post(f"/tournaments/{tournament.pk}/players/", {"action": "add", "round": heat.pk, **sent})
    page = response.content.decode()
    assert response.status_code == 200 and words in page
    if field == "general":
        assert 'class="error"' in page and "name-error" not in page
    else:
        assert f'id="{field}-error"' in page
    assert tournament.players.count() == 0


@pytest.mark.parametrize(("sent", "field", "words"), [
    ({"name": LONG_NAME}, "name", "at most 120 characters"),
    ({"keep_apart": ["two"]}, "keep_apart", "expected whole numbers"),
    ({"nickname": "A"}, "general", "nickname"),
])
def test_the_player_page_refuses_a_bad_edit_next_to_the_field(
    desk: Any, tournament: Any, sent: dict[str, Any], field: str, words: str
) -> None:
    alia, _paul = make_players(tournament, 2)
    url = f"/tournaments/{tournament.pk}/players/{alia.pk}/edit/"
    response = desk.post(url, {"name": alia.name, "email": alia.email, **sent})
    page = response.content.decode()
    assert response.status_code == 400 and words in page
    assert {"name": 'id="name-error"', "keep_apart": 'id="apart-error"', "general": 'class="error"'}[field] in page
    alia.refresh_from_db()
    assert alia.name == "Player 001" and not alia.keep_apart.exists() and not alia.changes.exists()


def test_the_player_page_keeps_apart_the_players_chosen(desk: Any, tournament: Any) -> None:
    alia, paul, jessica = make_players(tournament, 3)
    url = f"/tournaments/{tournament.pk}/players/{alia.pk}/edit/"
    response = desk.post(url, {"name": alia.name, "email": alia.email, "keep_apart": [paul.pk, jessica.pk]})
    assert response.status_code == 302
    assert set(alia.keep_apart.all()) == {paul, jessica}


# --- rounds: added on the dashboard or by the API, changed on their page or by the API --------


def test_a_rounds_bodies_are_its_declarations() -> None:
    document = schema()
    added = _body_schema("/api/tournaments/{id}/rounds/")
    assert set(added["properties"]) == set(commands.NewRound.FIELDS) and added["required"] == ["kind"]
    found = document["paths"]["/api/rounds/{id}/"]["patch"]["requestBody"]["content"]["application/json"]["schema"]
    edited = document["components"]["schemas"][found["$ref"].rsplit("/", 1)[-1]]
    assert set(edited["properties"]) == set(commands.RoundEdit.FIELDS) and not edited.get("required")


@pytest.mark.parametrize(("sent", "field"), [
    ({"kind": "h" * 21}, "kind"),
    ({"kind": 1}, "kind"),
    ({"kind": "heat", "starts_at": 5}, "starts_at"),
    ({"kind": "heat", "starts_at": "next tuesday"}, "starts_at"),
    ({"kind": "heat", "number": 3}, "number"),
])
def test_the_api_refuses_a_bad_round_naming_the_field(
    judge_client: Any, tournament: Any, heat: Any, sent: dict[str, Any], field: str
) -> None:
    added = judge_client.post(f"/api/tournaments/{tournament.pk}/rounds/", sent, format="json")
    assert added.status_code == 400 and added.json()["field"] == field, added.json()
    edited = judge_client.patch(f"/api/rounds/{heat.pk}/", sent, format="json", HTTP_IDEMPOTENCY_KEY="e")
    assert edited.status_code == 400 and edited.json()["field"] == field, edited.json()
    heat.refresh_from_db()
    assert tournament.rounds.count() == 1 and heat.kind == "heat" and heat.starts_at is None


@pytest.mark.parametrize(("sent", "field", "words"), [
    ({"kind": "heat", "starts_at": "next tuesday"}, "starts_at", "cannot read the start time"),
    ({"kind": "h" * 21}, "kind", "at most 20 characters"),
    ({"kind": "heat", "number": "3"}, "general", "number"),
])
def test_the_dashboard_and_the_round_page_refuse_a_bad_round_next_to_the_field(
    desk: Any, tournament: Any, heat: Any, sent: dict[str, Any], field: str, words: str
) -> None:
    added = desk.post(f"/tournaments/{tournament.pk}/", {"action": "add_round", **sent})
    edited = desk.post(f"/rounds/{heat.pk}/edit/", {"action": "edit", **sent})
    for page, error in ((added.content.decode(), 'class="field-error"'), (edited.content.decode(), f'id="{field}-error"')):
        assert words in page
        assert (error if field != "general" else 'class="error"') in page
    heat.refresh_from_db()
    assert tournament.rounds.count() == 1 and heat.kind == "heat" and heat.starts_at is None


# --- seating changes: a swap, a latecomer, a no-show ------------------------------------------

SEATING_WRITES = {
    "swap": ("/api/rounds/{pk}/seating/swap/", "/rounds/{pk}/seat/swap/", commands.Swap, "swap-error"),
    "latecomer": ("/api/rounds/{pk}/seating/latecomer/", "/rounds/{pk}/seat/latecomer/", commands.Latecomer,
                  "latecomer-error"),
    "no_show": ("/api/rounds/{pk}/no-shows/", "/rounds/{pk}/seat/no-show/", commands.NoShowGiven, "no-show-error"),
}


@pytest.mark.parametrize("write", sorted(SEATING_WRITES))
def test_a_seating_changes_body_is_its_declaration(write: str) -> None:
    api, _page, command, _error = SEATING_WRITES[write]
    body = _body_schema(api.replace("{pk}", "{id}"))
    assert set(body["properties"]) == set(command.FIELDS)
    assert body["properties"]["reason"]["maxLength"] == commands.SEATING_REASON.max_length == 2000


@pytest.mark.parametrize("write", sorted(SEATING_WRITES))
@pytest.mark.parametrize(("bad", "field"), [
    ({"reason": "R" * 2001}, "reason"),
    ({"player": "someone", "first": "someone"}, "player"),
    ({"table": 3}, "table"),
])
def test_a_bad_seating_change_is_refused_by_name_through_both_doors(
    judge_client: Any, desk: Any, checked_in: Any, heat: Any, head_judge: Any, write: str, bad: dict[str, Any],
    field: str,
) -> None:
    """Too long, of the wrong type, not a field the change reads: 400 naming the field through
    the API, a message beside the change's form on the seating page; nothing changes."""
    api, page, command, error = SEATING_WRITES[write]
    players = [p.pk for p in checked_in(12)]
    commands.seat_round(heat, {"seed": 1}, actor=head_judge, key=None)
    audited = SeatingAudit.objects.filter(round=heat).count()
    good = {"swap": {"first": players[0], "second": players[1]}}.get(write, {"player": players[0]})
    sent = {**good, **{k: v for k, v in bad.items() if k in command.FIELDS or field == "table"}}
    expected = "first" if write == "swap" and field == "player" else field
    answer = judge_client.post(api.format(pk=heat.pk), sent, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == expected, answer.json()
    shown = desk.post(page.format(pk=heat.pk), sent)
    words = shown.content.decode()
    assert shown.status_code == 400 and f'id="{error}"' in words
    assert expected in words or "at most 2000 characters" in words or "a player's id" in words
    assert SeatingAudit.objects.filter(round=heat).count() == audited and not NoShow.objects.exists()
