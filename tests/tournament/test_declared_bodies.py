"""The rest of the tournament's writes read their input through one declaration too
(`foundation.commands.Field`): faction changes and picks, check-ins, a draw, a tournament's
settings, a person link, a table judge's invitation, a CSV import, the format's changes, a
player's report and preferences, an online registration. Each body's schema is its command's
declaration; a value too long or of the wrong type, or a field the write does not read, is
refused naming the field (400) through the API and beside the page's form, and nothing is
written."""

from __future__ import annotations

from typing import Any

import pytest

from config.schema import schema
from tournament import commands, people
from tournament.models import SeatingAudit

pytestmark = pytest.mark.django_db


def _body(path: str, method: str = "post") -> dict[str, Any]:
    """The properties and required fields of an API write's JSON body, as the schema shows them."""
    document = schema()
    found = document["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return document["components"]["schemas"][found["$ref"].rsplit("/", 1)[-1]]


def _enum(prop: dict[str, Any]) -> list[str]:
    """The values a property of the schema allows (spectacular names an enum as a component)."""
    parts = [*prop.get("allOf", []), *prop.get("oneOf", [])]
    ref = prop.get("$ref") or next((p["$ref"] for p in parts if "$ref" in p), "")
    found = schema()["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else prop
    return [v for v in found["enum"] if v]


@pytest.fixture
def desk(client: Any, head_judge: Any) -> Any:
    client.force_login(head_judge)
    return client


@pytest.fixture
def seated(checked_in: Any, heat: Any, head_judge: Any) -> list[int]:
    """A heat of twelve seated (not published): the players' ids."""
    players = [p.pk for p in checked_in(12)]
    commands.seat_round(heat, {"seed": 1}, actor=head_judge, key=None)
    return players


# --- faction changes and a finalist's pick ----------------------------------------------------


def test_the_faction_bodies_are_their_declarations() -> None:
    changes = _body("/api/rounds/{id}/seating/factions/")
    assert set(changes["properties"]) == set(commands.FACTION_ACTION_FIELDS)
    assert _enum(changes["properties"]["action"]) == list(commands.FACTION_ACTIONS)
    assert changes["properties"]["faction"]["maxLength"] == commands.FACTION_CHANGE_FIELDS["faction"].max_length
    assert set(changes["required"]) == {"action", "player"}
    pick = _body("/api/rounds/{id}/final/picks/")
    assert set(pick["properties"]) == set(commands.PICK_FIELDS) and set(pick["required"]) == {"player", "faction"}


@pytest.mark.parametrize(("bad", "field"), [
    ({"faction": "F" * 41}, "faction"),
    ({"player": "someone"}, "player"),
    ({"consenting": "one two"}, "consenting"),
    ({"colour": "red"}, "colour"),
])
def test_a_bad_faction_change_is_refused_by_name_through_both_doors(
    judge_client: Any, desk: Any, seated: list[int], heat: Any, bad: dict[str, Any], field: str
) -> None:
    audited = SeatingAudit.objects.filter(round=heat).count()
    sent = {"action": "take_undrawn", "player": seated[0], "faction": "atreides", **bad}
    answer = judge_client.post(f"/api/rounds/{heat.pk}/seating/factions/", sent, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    if field != "consenting":  # the page's form says who consents with its own box
        form = {k: v for k, v in sent.items() if k != "action"}
        shown = desk.post(f"/rounds/{heat.pk}/seat/undrawn/", form)
        assert shown.status_code == 400 and (field in shown.content.decode() or "a player's id" in shown.content.decode())
    assert SeatingAudit.objects.filter(round=heat).count() == audited


def test_a_finalists_pick_names_its_faction(judge_client: Any, tournament: Any, head_judge: Any) -> None:
    from tournament.models import Round

    final = Round.objects.create(tournament=tournament, number=2, kind="final")
    for sent, field in (({"player": 1}, "faction"), ({"player": 1, "faction": "F" * 41}, "faction"),
                        ({"player": 1, "faction": "atreides", "seat": 2}, "seat")):
        answer = judge_client.post(f"/api/rounds/{final.pk}/final/picks/", sent, format="json")
        assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()


# --- check-in, a person link, a table judge's invitation --------------------------------------


def test_the_check_in_link_and_invitation_bodies_are_their_declarations() -> None:
    assert set(_body("/api/rounds/{id}/checkins/")["properties"]) == set(commands.CHECK_IN_FIELDS)
    linked = _body("/api/players/{id}/person/")
    assert set(linked["properties"]) == set(commands.PersonLink.FIELDS) and linked["required"] == ["person"]
    assert linked["properties"]["reason"]["maxLength"] == 2000
    invited = _body("/api/tournaments/{id}/invitations/")
    assert invited["properties"]["username"]["maxLength"] == commands.Username.FIELDS["username"].max_length == 150


@pytest.mark.parametrize(("bad", "field"), [
    ({"player": "someone"}, "player"),
    ({"player": 2.5}, "player"),
    ({"table": 3}, "table"),
])
def test_a_bad_check_in_is_refused_by_name(judge_client: Any, checked_in: Any, heat: Any, bad: dict[str, Any],
                                           field: str) -> None:
    from tournament.models import CheckIn

    player = checked_in(1)[0]
    before = CheckIn.objects.count()
    answer = judge_client.post(f"/api/rounds/{heat.pk}/checkins/", {"player": player.pk, "checked_in": False, **bad},
                               format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    assert CheckIn.objects.count() == before


@pytest.mark.parametrize(("bad", "field"), [
    ({"reason": "R" * 2001}, "reason"),
    ({"person": [1]}, "person"),
    ({"reason": 5}, "reason"),
    ({"why": "same person"}, "why"),
    ({}, "person"),
])
def test_a_bad_person_link_is_refused_by_name(judge_client: Any, tournament: Any, bad: dict[str, Any],
                                              field: str) -> None:
    from tests.factories import make_players

    player = make_players(tournament, 1)[0]
    sent = {"person": None, **bad} if bad else {}
    answer = judge_client.post(f"/api/players/{player.pk}/person/", sent, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    assert people.links_of(player) == []


@pytest.mark.parametrize(("bad", "field"), [
    ({"username": "u" * 151}, "username"),
    ({"username": ["judge"]}, "username"),
    ({"username": "judge", "role": "head"}, "role"),
])
def test_a_bad_invitation_is_refused_by_name_through_both_doors(
    judge_client: Any, desk: Any, tournament: Any, make_user: Any, bad: dict[str, Any], field: str
) -> None:
    make_user("judge")
    answer = judge_client.post(f"/api/tournaments/{tournament.pk}/invitations/", bad, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    if not isinstance(bad["username"], list):
        shown = desk.post(f"/tournaments/{tournament.pk}/", {"action": "add_judge", **bad})
        assert field in shown.content.decode() or "at most 150 characters" in shown.content.decode()
    assert not tournament.judge_invitations.exists()


# --- a draw -----------------------------------------------------------------------------------


def test_a_draws_body_is_its_declaration() -> None:
    from tournament.models import MAX_SEED

    body = _body("/api/rounds/{id}/seating/")
    assert set(body["properties"]) == set(commands.Seating.FIELDS)
    assert body["properties"]["seed"]["maximum"] == commands.Seating.FIELDS["seed"].high == MAX_SEED
    assert body["properties"]["reason"]["maxLength"] == 2000


@pytest.mark.parametrize(("bad", "field"), [
    ({"seed": -1}, "seed"),
    ({"seed": "soon"}, "seed"),
    ({"reason": "R" * 2001}, "reason"),
    ({"small_tables": "S" * 41}, "small_tables"),
    ({"small_tables": 4}, "small_tables"),
    ({"players": "one two"}, "players"),
    ({"shuffle": True}, "shuffle"),
])
def test_a_bad_draw_is_refused_by_name_through_both_doors(
    judge_client: Any, desk: Any, checked_in: Any, heat: Any, bad: dict[str, Any], field: str
) -> None:
    checked_in(12)
    answer = judge_client.post(f"/api/rounds/{heat.pk}/seating/", bad, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    if field not in ("small_tables", "players"):  # the page offers its options, its own players
        shown = desk.post(f"/rounds/{heat.pk}/seat/draw/", bad)
        words = shown.content.decode()
        assert shown.status_code == 400 and (field in words or "at most 2000 characters" in words), words[-2000:]
    heat.refresh_from_db()
    assert heat.state == "planned" and not heat.tables.exists()


# --- a tournament's settings ------------------------------------------------------------------


def test_a_tournaments_changes_are_its_declaration() -> None:
    from django.conf import settings

    body = _body("/api/tournaments/{id}/", "patch")
    assert set(body["properties"]) == set(commands.TournamentEdit.FIELDS) and not body.get("required")
    assert _enum(body["properties"]["language"]) == [code for code, _name in settings.LANGUAGES]
    assert body["properties"]["capacity"]["minimum"] == commands.TournamentEdit.FIELDS["capacity"].low == 1


@pytest.mark.parametrize(("bad", "field"), [
    ({"name": "N" * 201}, "name"),
    ({"name": 7}, "name"),
    ({"language": "xx"}, "language"),
    ({"language": ["fr"]}, "language"),
    ({"time_zone": "Z" * 65}, "time_zone"),
    ({"capacity": 0}, "capacity"),
    ({"capacity": "many"}, "capacity"),
    ({"registration_opens": "soon"}, "registration_opens"),
    ({"series": [1]}, "series"),
    ({"colour": "red"}, "colour"),
])
def test_a_bad_tournament_change_is_refused_by_name_through_both_doors(
    judge_client: Any, desk: Any, tournament: Any, bad: dict[str, Any], field: str
) -> None:
    from dune.text_rules import TITLE_LIMIT

    assert TITLE_LIMIT == 200
    before = (tournament.name, tournament.language, tournament.time_zone, tournament.capacity)
    answer = judge_client.patch(f"/api/tournaments/{tournament.pk}/", bad, format="json", HTTP_IDEMPOTENCY_KEY="t")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    if not any(isinstance(v, int | list) for v in bad.values()):  # a form sends text
        action = "registration" if field.startswith("registration") or field == "capacity" else "edit"
        form = {"name": tournament.name, "time_zone": tournament.time_zone, **bad} if action == "edit" else bad
        shown = desk.post(f"/tournaments/{tournament.pk}/edit/", {"action": action, **form})
        words = shown.content.decode()
        assert shown.status_code in (200, 400) and ('class="error"' in words or "-error" in words)
        assert field in words or "at most" in words or "cannot read" in words or "language" in words
    tournament.refresh_from_db()
    assert (tournament.name, tournament.language, tournament.time_zone, tournament.capacity) == before


# --- the format's changes ---------------------------------------------------------------------


def test_the_format_changes_body_is_its_declaration() -> None:
    body = _body("/api/tournaments/{id}/format/", "patch")
    assert set(body["properties"]) == set(commands.FormatChanges.CHANGE_FIELDS)  # a PATCH: none required in the schema


@pytest.mark.parametrize(("bad", "field"), [
    ({}, "format_changes"),
    ({"format_changes": {"rounds.heat.hours": 4}, "preset": "lolv"}, "preset"),
    ({"format_changes": {"rounds.heat.hours": 4}, "document": "x"}, "document"),
])
def test_a_bad_format_change_is_refused_by_name(judge_client: Any, tournament: Any, bad: dict[str, Any],
                                                field: str) -> None:
    before = dict(tournament.rules.document)
    answer = judge_client.patch(f"/api/tournaments/{tournament.pk}/format/", bad, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    tournament.refresh_from_db()
    assert dict(tournament.rules.document) == before


def test_the_format_page_refuses_a_document_over_the_commands_limit(desk: Any, tournament: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    limit = commands.FormatChanges.DOCUMENT_FIELDS["text"].max_length
    big = SimpleUploadedFile("format.toml", b"#" * (limit + 1), content_type="text/plain")
    shown = desk.post(f"/tournaments/{tournament.pk}/format/", {"action": "upload", "document": big})
    assert shown.status_code == 400 and f"at most {limit // 1024} kB" in shown.content.decode()


# --- a CSV import -----------------------------------------------------------------------------


def test_an_imports_body_is_its_declaration() -> None:
    document = schema()
    found = document["paths"]["/api/tournaments/{id}/players/import/"]["post"]["requestBody"]["content"]
    for content in ("application/json", "multipart/form-data"):
        body = document["components"]["schemas"][found[content]["schema"]["$ref"].rsplit("/", 1)[-1]]
        assert set(body["properties"]) == set(commands.Import.FIELDS)
    assert body["properties"]["file"]["format"] == "binary"


@pytest.mark.parametrize(("bad", "field"), [
    ({"csv": 5}, "csv"),
    ({"csv": "name\\nAlia\\n", "file": "Alia"}, "file"),
    ({"csv": "name\\nAlia\\n", "separate": "two"}, "separate"),
    ({"csv": "name\\nAlia\\n", "skip": True}, "skip"),
])
def test_a_bad_import_is_refused_by_name_through_both_doors(
    judge_client: Any, desk: Any, tournament: Any, bad: dict[str, Any], field: str
) -> None:
    answer = judge_client.post(f"/api/tournaments/{tournament.pk}/players/import/", bad, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    if field == "skip":
        shown = desk.post(f"/tournaments/{tournament.pk}/players/import/", {"action": "import", **bad})
        assert "skip" in shown.content.decode() and 'class="error"' in shown.content.decode()
    assert tournament.players.count() == 0


# --- a player's own writes: their table's report, their faction preferences -------------------


@pytest.fixture
def link(tournament: Any) -> tuple[Any, str]:
    from tests.factories import make_players
    from tournament import private_links, services

    services.change_format(tournament, {"players.faction_preferences": True})
    player = make_players(tournament, 1)[0]
    return player, private_links.link_for(player).token


def test_a_players_bodies_are_their_declarations() -> None:
    from scoring import commands as scoring_commands

    report = _body("/api/me/{token}/report/")
    assert set(report["properties"]) == set(scoring_commands.SELF_REPORT_FIELDS) == {"table", "report"}
    assert report["properties"]["report"]["type"] == "object" and set(report["required"]) == {"table", "report"}
    ranked = _body("/api/me/{token}/preferences/")
    assert ranked["properties"]["factions"]["items"]["maxLength"] == commands.Preferences.FIELDS["factions"].max_length


@pytest.mark.parametrize(("bad", "field"), [
    ({"factions": "fremen"}, None),  # a script's text reads as a list of one
    ({"factions": [5]}, "factions"),
    ({"factions": {"fremen": 1}}, "factions"),
    ({"factions": ["F" * 41]}, "factions"),
    ({"factions": ["fremen"], "order": "asc"}, "order"),
])
def test_bad_preferences_are_refused_by_name_through_both_doors(
    client: Any, link: tuple[Any, str], bad: dict[str, Any], field: str | None
) -> None:
    from rest_framework.test import APIClient

    player, token = link
    answer = APIClient().post(f"/api/me/{token}/preferences/", bad, format="json")
    player.refresh_from_db()
    if field is None:
        assert answer.status_code == 200 and player.faction_preferences == ["fremen"]
        return
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    if field == "order" or isinstance(bad["factions"], list) and isinstance(bad["factions"][0], str):
        shown = client.post(f"/me/{token}/", {"action": "preferences", **bad})
        assert shown.status_code == 400 and (field in shown.content.decode() or "at most 40" in shown.content.decode())
    player.refresh_from_db()
    assert player.faction_preferences == []


@pytest.mark.parametrize(("bad", "field"), [
    ({"table": "mine", "report": {}}, "table"),
    ({"table": 1, "report": "won"}, "report"),
    ({"table": 1}, "report"),
    ({"table": 1, "report": {}, "seat": 2}, "seat"),
])
def test_a_bad_own_report_is_refused_by_name(link: tuple[Any, str], bad: dict[str, Any], field: str) -> None:
    from rest_framework.test import APIClient

    from scoring.models import GameReport

    _player, token = link
    answer = APIClient().post(f"/api/me/{token}/report/", bad, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    assert not GameReport.objects.exists()


# --- an online registration -------------------------------------------------------------------


def test_a_registrations_body_is_its_declaration() -> None:
    body = _body("/api/tournaments/{id}/registrations/")
    assert set(body["properties"]) == set(commands.OnlineRegistration.FIELDS) == {"name", "email", "club", "note"}
    assert set(body["required"]) == {"name", "email"} and body["properties"]["email"]["format"] == "email"
    assert body["properties"]["note"]["maxLength"] == commands.OnlineRegistration.FIELDS["note"].max_length


@pytest.mark.parametrize(("bad", "field"), [
    ({"name": "N" * 121}, "name"),
    ({"note": "N" * 1001}, "note"),
    ({"club": ["Arrakis"]}, "club"),
    ({"email": 5}, "email"),
    ({"phone": "555"}, "phone"),
])
def test_a_bad_registration_is_refused_by_name_through_both_doors(
    client: Any, judge_client: Any, tournament: Any, bad: dict[str, Any], field: str
) -> None:
    from datetime import timedelta

    from django.utils import timezone
    from rest_framework.test import APIClient

    from tournament.models import Registration

    now = timezone.now()
    opened = judge_client.patch(f"/api/tournaments/{tournament.pk}/", {
        "registration_opens": (now - timedelta(hours=1)).isoformat(),
        "registration_closes": (now + timedelta(days=1)).isoformat()}, format="json")
    assert opened.status_code == 200
    sent = {"name": "Alia Atreides", "email": "alia@example.org", **bad}
    answer = APIClient().post(f"/api/tournaments/{tournament.pk}/registrations/", sent, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    if not isinstance(bad.get(field), int | list):
        shown = client.post(f"/tournaments/{tournament.pk}/register/", sent)
        words = shown.content.decode()
        assert shown.status_code == 400 and (field in words or "at most" in words), words[-1500:]
    assert not Registration.objects.exists()


# --- a table's game report --------------------------------------------------------------------


def test_a_game_reports_body_is_its_declaration_in_the_cores_names() -> None:
    """The core reads (and refuses) a report by its own keys; the API's body declares the same
    names, so a field the core reads is never refused by the API as unknown, nor the reverse."""
    from dune.points.report import REPORT_KEYS, ROW_KEYS
    from scoring import commands as scoring_commands

    body = _body("/api/tables/{id}/report/")
    assert set(body["properties"]) == set(scoring_commands.REPORT_FIELDS) <= REPORT_KEYS
    row = schema()["components"]["schemas"][body["properties"]["results"]["items"]["$ref"].rsplit("/", 1)[-1]]
    declared_row = {f.name for f in scoring_commands.REPORT_FIELDS["results"].rows}
    assert set(row["properties"]) == declared_row <= ROW_KEYS and set(row["required"]) == {"player", "result"}


def test_a_report_with_a_field_it_does_not_declare_is_refused_by_name(
    judge_client: Any, seated: list[int], heat: Any
) -> None:
    from scoring.models import GameReport

    table = heat.tables.first()
    answer = judge_client.post(f"/api/tables/{table.pk}/report/", {
        "turns": 3, "ended_by": "victory", "results": [], "winner": seated[0]}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "winner", answer.json()
    assert not GameReport.objects.exists()


# --- the writes with few fields or none: publishing, a table's judge, keeping clubs apart, leaving


def test_publishing_reads_no_field_through_either_door(judge_client: Any, desk: Any, seated: list[int],
                                                       heat: Any) -> None:
    assert commands.Nothing.FIELDS == {}
    answer = judge_client.post(f"/api/rounds/{heat.pk}/seating/publish/", {"force": True}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "force", answer.json()
    shown = desk.post(f"/rounds/{heat.pk}/seat/publish/", {"force": "on"})
    assert shown.status_code == 400 and "force" in shown.content.decode()
    heat.refresh_from_db()
    assert heat.state == "planned"


@pytest.mark.parametrize(("bad", "words"), [
    ({"judge": "J" * 151}, "at most 150 characters"),
    ({"judge": "", "colour": "red"}, "colour"),
    ({"judge": ""}, "choose one of the round"),
])
def test_a_bad_table_judge_choice_is_refused_on_the_seating_page(
    desk: Any, seated: list[int], heat: Any, bad: dict[str, Any], words: str
) -> None:
    table = heat.tables.first()
    sent = {"table": table.pk, **bad} if words != "choose one of the round" else bad
    shown = desk.post(f"/rounds/{heat.pk}/seat/judge/", sent)
    assert shown.status_code == 400 and words in shown.content.decode()
    assert not heat.tables.filter(judge__isnull=False).exists()


def test_the_dashboards_forms_refuse_a_field_their_command_does_not_declare(desk: Any, tournament: Any) -> None:
    shown = desk.post(f"/tournaments/{tournament.pk}/", {"action": "clubs_apart", "keep_clubs_apart": "on",
                                                         "households": "on"})
    assert "households" in shown.content.decode()
    tournament.refresh_from_db()
    assert not tournament.keep_clubs_apart


def test_leaving_by_the_private_link_refuses_a_field_it_does_not_declare(client: Any, tournament: Any) -> None:
    from tests.factories import make_players
    from tournament import private_links

    player = make_players(tournament, 1)[0]
    token = private_links.link_for(player).token
    shown = client.post(f"/me/{token}/", {"action": "withdraw", "confirm": "on", "rejoin": "later"})
    assert shown.status_code == 400 and "rejoin" in shown.content.decode()
    player.refresh_from_db()
    assert player.status == "active"


def test_a_kept_card_tap_refuses_a_field_the_change_does_not_declare(client: Any, head_judge: Any) -> None:
    """LoLV 0.08: the kept-card buttons post the player and the card, read as a faction change."""
    from tests.factories import make_players, make_round, make_tournament, seat_table
    from tournament.models import Seat

    lolv = make_tournament(format="lolv", head_judge=head_judge)
    table = seat_table(make_round(lolv, state="planned"), make_players(lolv, 6), factions=[""] * 6)
    first = table.seats.get(seat=1)
    first.dealt = ["fremen", "tleilaxu"]
    first.save()
    client.force_login(head_judge)
    shown = client.post(f"/tables/{table.pk}/keep/", {"player": first.player_id, "faction": "fremen", "swap": "1"},
                        HTTP_HX_REQUEST="true")
    assert shown.status_code == 400 and "swap" in shown.content.decode()
    assert Seat.objects.get(pk=first.pk).faction == ""
